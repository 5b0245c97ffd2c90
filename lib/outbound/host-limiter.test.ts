import { describe, expect, it } from "vitest";
import { createHostLimiter } from "@/lib/outbound/host-limiter";

/** Lets pending promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createHostLimiter", () => {
  it("holds a host to its limit and serves waiters first in, first out", async () => {
    const limiter = createHostLimiter(2);
    const first = await limiter.acquire("acme.test");
    const second = await limiter.acquire("ACME.test");
    const order: string[] = [];
    const third = limiter.acquire("acme.test").then((release) => (order.push("third"), release));
    const fourth = limiter.acquire("acme.test").then((release) => (order.push("fourth"), release));
    await settle();

    expect(limiter.active("acme.test")).toBe(2);
    expect(order).toEqual([]);

    first();
    await settle();
    expect(order).toEqual(["third"]);
    second();
    await settle();
    expect(order).toEqual(["third", "fourth"]);
    expect(limiter.active("acme.test")).toBe(2);

    (await third)();
    (await fourth)();
    expect(limiter.active("acme.test")).toBe(0);
  });

  it("counts hosts separately", async () => {
    const limiter = createHostLimiter(1);
    await limiter.acquire("a.test");
    let granted = false;
    void limiter.acquire("b.test").then(() => (granted = true));
    await settle();
    expect(granted).toBe(true);
  });

  it("drops a waiter whose signal aborts and ignores a second release", async () => {
    const limiter = createHostLimiter(1);
    const release = await limiter.acquire("acme.test");
    const controller = new AbortController();
    const abandoned = limiter.acquire("acme.test", controller.signal);
    let nextGranted = false;
    const next = limiter.acquire("acme.test").then((releaseNext) => ((nextGranted = true), releaseNext));

    controller.abort(new Error("gave up"));
    await expect(abandoned).rejects.toThrow("gave up");

    release();
    release();
    await settle();
    expect(nextGranted).toBe(true);
    expect(limiter.active("acme.test")).toBe(1);
    (await next)();
    expect(limiter.active("acme.test")).toBe(0);
  });

  it("rejects at once for an already aborted signal", async () => {
    const limiter = createHostLimiter(1);
    await expect(limiter.acquire("acme.test", AbortSignal.abort(new Error("too late")))).rejects.toThrow("too late");
    expect(limiter.active("acme.test")).toBe(0);
  });
});
