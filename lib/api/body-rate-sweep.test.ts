import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchBodyRate } from "./body-rate-sweep";

beforeEach(() => {
  vi.useFakeTimers();
});

// Every test ends with no body watched: one more sweep stops the shared timer, which the next test's clock must make anew.
afterEach(async () => {
  await vi.advanceTimersByTimeAsync(200);
  expect(vi.getTimerCount()).toBe(0);
  vi.useRealTimers();
});

describe("watchBodyRate", () => {
  it("leaves a body alone while each stretch brings the minimum rate", async () => {
    const tooSlow = vi.fn();
    const watch = watchBodyRate(100, 1_000, () => false, tooSlow);
    for (let second = 0; second < 5; second += 1) {
      watch.arrived(110);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(tooSlow).not.toHaveBeenCalled();
    watch.stop();
  });

  it("calls tooSlow once, at the end of the first stretch that falls short", async () => {
    const tooSlow = vi.fn();
    const watch = watchBodyRate(100, 1_000, () => false, tooSlow);
    watch.arrived(100);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tooSlow).not.toHaveBeenCalled();
    watch.arrived(50);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tooSlow).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(tooSlow).toHaveBeenCalledTimes(1);
  });

  it("asks a stretch stretched by a stall of this process for no more than a grace period's bytes", async () => {
    const tooSlow = vi.fn();
    const watch = watchBodyRate(100, 1_000, () => false, tooSlow);
    watch.arrived(100);
    vi.setSystemTime(Date.now() + 3_000); // the process stalled: the sweep comes 3 s late
    await vi.advanceTimersByTimeAsync(100);
    expect(tooSlow).not.toHaveBeenCalled();
    watch.stop();
  });

  it("does not count a stretch in which the body budget held the reader back", async () => {
    const tooSlow = vi.fn();
    let heldBack = false;
    const watch = watchBodyRate(100, 1_000, () => heldBack, tooSlow);
    watch.heldBack();
    heldBack = true;
    await vi.advanceTimersByTimeAsync(1_000); // nothing arrived, but the reader was held back
    await vi.advanceTimersByTimeAsync(1_000); // still held back when this stretch began
    expect(tooSlow).not.toHaveBeenCalled();
    heldBack = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tooSlow).not.toHaveBeenCalled(); // held back when the stretch began
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tooSlow).toHaveBeenCalledTimes(1);
  });

  it("checks every body with one timer, and stops it once none is watched", async () => {
    const watches = Array.from({ length: 100 }, () =>
      watchBodyRate(
        100,
        1_000,
        () => false,
        () => {},
      ),
    );
    expect(vi.getTimerCount()).toBe(1);
    for (const watch of watches) watch.stop();
    await vi.advanceTimersByTimeAsync(200);
    expect(vi.getTimerCount()).toBe(0);
  });
});
