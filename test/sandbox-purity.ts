import { afterEach, beforeEach, vi } from "vitest";

/**
 * For the sandbox providers' tests: the sandbox must be a pure function of its input, so every test of the file fails
 * when it touches the network or Math.random. (A test may still fake the clock; real timers come back after it.)
 */
export function guardSandboxPurity(): void {
  beforeEach(() => {
    vi.stubGlobal("fetch", () => {
      throw new Error("the sandbox must never touch the network");
    });
    vi.spyOn(Math, "random").mockImplementation(() => {
      throw new Error("the sandbox must not use Math.random");
    });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });
}
