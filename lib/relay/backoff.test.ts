import { describe, expect, it } from "vitest";
import { backoffDelay, FORWARD_BACKOFF, sleep } from "./backoff";

const policy = { firstMs: 100, capMs: 1_000 };

describe("backoffDelay", () => {
  it("doubles from the first delay up to the cap, drawn from the upper half", () => {
    const highest = (failures: number) => backoffDelay(failures, policy, () => 0.999_999);
    const lowest = (failures: number) => backoffDelay(failures, policy, () => 0);
    expect([1, 2, 3, 4, 5, 6].map(highest)).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([1, 2, 3, 4, 5, 6].map(lowest)).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it("stays at the cap after very many failures, and treats 0 as the first", () => {
    expect(backoffDelay(10_000, policy, () => 0.5)).toBe(750);
    expect(backoffDelay(0, policy, () => 0.999_999)).toBe(100);
  });

  it("waits at most 30 s between a receiver's failures", () => {
    expect(backoffDelay(50, FORWARD_BACKOFF, () => 0.999_999)).toBe(30_000);
  });
});

describe("sleep", () => {
  it("ends at once when the signal aborts", async () => {
    const controller = new AbortController();
    const slept = sleep(3_600_000, controller.signal);
    controller.abort();
    await expect(slept).resolves.toBeUndefined();
    await expect(sleep(3_600_000, controller.signal)).resolves.toBeUndefined();
  });
});
