import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createPgRateLimitStore } from "./pg-store";
import { createWindowLimiter, type WindowLimiter, worstCaseAdmissions } from "./window-limiter";

// The shared counts on a real PostgreSQL (this file's own database): the upsert, its totals, pruning, and two limiters
// (two instances' worth) sharing one limit through the table.

const store = createPgRateLimitStore(db);
const T0 = 1_800_000_000_000;
const open: WindowLimiter[] = [];

afterEach(async () => {
  for (const limiter of open.splice(0)) limiter.close();
  await db().$executeRaw`DELETE FROM rate_limit_windows`;
});

async function rows() {
  const found = await db().rateLimitWindow.findMany({ orderBy: [{ bucket: "asc" }, { windowStart: "asc" }] });
  return found.map((row) => ({ bucket: row.bucket, windowStart: row.windowStart.getTime(), count: row.count }));
}

describe("createPgRateLimitStore", () => {
  it("adds counts per bucket and window and answers the new totals", async () => {
    expect(
      await store.add([
        { bucket: "a", windowStart: T0, count: 2 },
        { bucket: "b", windowStart: T0, count: 5 },
      ]),
    ).toEqual([
      { bucket: "a", windowStart: T0, count: 2 },
      { bucket: "b", windowStart: T0, count: 5 },
    ]);
    expect(
      await store.add([
        { bucket: "a", windowStart: T0, count: 3 },
        { bucket: "a", windowStart: T0 + 60_000, count: 1 },
      ]),
    ).toEqual([
      { bucket: "a", windowStart: T0, count: 5 },
      { bucket: "a", windowStart: T0 + 60_000, count: 1 },
    ]);
    expect(await rows()).toEqual([
      { bucket: "a", windowStart: T0, count: 5 },
      { bucket: "a", windowStart: T0 + 60_000, count: 1 },
      { bucket: "b", windowStart: T0, count: 5 },
    ]);
  });

  it("sums concurrent flushes of many instances exactly", async () => {
    const buckets = ["api:key:1", "api:key:2", "ingest:we_1"];
    await Promise.all(
      Array.from({ length: 20 }, () => store.add(buckets.map((bucket) => ({ bucket, windowStart: T0, count: 3 })))),
    );
    expect((await rows()).map((row) => row.count)).toEqual([60, 60, 60]);
  });

  it("prunes windows that started before the cutoff", async () => {
    await store.add([
      { bucket: "a", windowStart: T0, count: 1 },
      { bucket: "a", windowStart: T0 + 60_000, count: 1 },
      { bucket: "b", windowStart: T0 + 120_000, count: 1 },
    ]);
    await store.prune(T0 + 60_000);
    expect((await rows()).map((row) => row.windowStart)).toEqual([T0 + 60_000, T0 + 120_000]);
  });
});

describe("two limiters on one database", () => {
  it("share one limit: together they admit it, within the documented bound, and then both refuse", async () => {
    const limiters = [0, 1].map(() => {
      const limiter = createWindowLimiter({ store, windowMs: 60_000, flushIntervalMs: 20, now: () => T0 + 30_000 });
      open.push(limiter);
      return limiter;
    });
    const limit = 40;
    let allowed = 0;
    // 100 requests, alternating between the instances, a few at a time.
    for (let round = 0; round < 25; round++) {
      const decisions = await Promise.all([0, 1, 0, 1].map((index) => limiters[index]!.take("api:key:shared", limit)));
      allowed += decisions.filter((decision) => decision.allowed).length;
    }
    expect(allowed).toBeGreaterThanOrEqual(limit);
    expect(allowed).toBeLessThanOrEqual(worstCaseAdmissions(limit, 2));
    await Promise.all(limiters.map((limiter) => limiter.flush()));
    const [row] = await rows();
    expect(row?.count).toBe(allowed);
    for (const limiter of limiters) expect((await limiter.take("api:key:shared", limit)).allowed).toBe(false);
    // Another bucket is untouched.
    expect((await limiters[0]!.take("api:key:other", limit)).allowed).toBe(true);
  });
});
