import { afterEach, describe, expect, it } from "vitest";
import {
  createWindowLimiter,
  limitPerWindow,
  type RateLimitStore,
  retryAfterSeconds,
  syncSlice,
  type WindowCount,
  type WindowLimiter,
  windowStartOf,
  worstCaseAdmissions,
} from "./window-limiter";

// The limiter's arithmetic and its sharing protocol, against an in-memory stand-in for the shared table (the real one
// on PostgreSQL is exercised by pg-store.integration.test.ts and the HTTP tests in test/security).

/** What rate_limit_windows does: add and answer the totals. `hold` lets a test keep a flush in flight. */
function memoryStore() {
  const counts = new Map<string, number>();
  const calls: WindowCount[][] = [];
  let gate: Promise<void> | undefined;
  let failing = false;
  const store: RateLimitStore & {
    counts: Map<string, number>;
    calls: WindowCount[][];
    hold(): () => void;
    fail(on: boolean): void;
    pruned: number[];
  } = {
    counts,
    calls,
    pruned: [],
    hold() {
      let release: () => void = () => undefined;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
    fail(on) {
      failing = on;
    },
    async add(entries) {
      calls.push(entries.map((entry) => ({ ...entry })));
      if (gate) await gate;
      if (failing) throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      return entries.map((entry) => {
        const key = `${entry.bucket}@${entry.windowStart}`;
        const total = (counts.get(key) ?? 0) + entry.count;
        counts.set(key, total);
        return { bucket: entry.bucket, windowStart: entry.windowStart, count: total };
      });
    },
    async prune(before) {
      store.pruned.push(before);
      for (const key of [...counts.keys()]) if (Number(key.split("@")[1]) < before) counts.delete(key);
    },
  };
  return store;
}

const WINDOW = 60_000;
const T0 = 1_800_000_000_000; // a window boundary: a multiple of 60 000
const open: WindowLimiter[] = [];

afterEach(() => {
  for (const limiter of open.splice(0)) limiter.close();
});

function limiterOn(
  store: RateLimitStore,
  clock: { now: number },
  extra: { onStoreError?: (error: unknown) => void; syncWaitMs?: number } = {},
) {
  // A long flush interval: tests flush by hand, so nothing depends on timers.
  const limiter = createWindowLimiter({
    store,
    windowMs: WINDOW,
    flushIntervalMs: 3_600_000,
    now: () => clock.now,
    ...extra,
  });
  open.push(limiter);
  return limiter;
}

async function admitted(limiter: WindowLimiter, bucket: string, limit: number, requests: number): Promise<number> {
  let count = 0;
  for (let index = 0; index < requests; index++) if ((await limiter.take(bucket, limit)).allowed) count++;
  return count;
}

describe("window arithmetic", () => {
  it("aligns windows to multiples of their length since the epoch", () => {
    expect(windowStartOf(T0, WINDOW)).toBe(T0);
    expect(windowStartOf(T0 + 59_999, WINDOW)).toBe(T0);
    expect(windowStartOf(T0 + 60_000, WINDOW)).toBe(T0 + 60_000);
    expect(windowStartOf(T0 + 1_500, 1_000)).toBe(T0 + 1_000);
  });

  it("answers Retry-After as whole seconds to the window's end, never 0", () => {
    expect(retryAfterSeconds(T0, WINDOW)).toBe(60);
    expect(retryAfterSeconds(T0 + 100, WINDOW)).toBe(60);
    expect(retryAfterSeconds(T0 + 58_001, WINDOW)).toBe(2);
    expect(retryAfterSeconds(T0 + 59_999, WINDOW)).toBe(1);
    expect(retryAfterSeconds(T0 + 999, 1_000)).toBe(1);
  });

  it("scales a per-minute limit to the window, rounding up, at least 1", () => {
    expect(limitPerWindow(600, 60_000)).toBe(600);
    expect(limitPerWindow(600, 10_000)).toBe(100);
    expect(limitPerWindow(100, 10_000)).toBe(17);
    expect(limitPerWindow(1, 1_000)).toBe(1);
    expect(limitPerWindow(600, 120_000)).toBe(1_200);
  });

  it("lets an instance admit a quarter of what is left before it must sync, at least one", () => {
    expect(syncSlice(100, 0)).toBe(25);
    expect(syncSlice(100, 90)).toBe(3);
    expect(syncSlice(100, 99)).toBe(1);
    expect(syncSlice(100, 100)).toBe(1);
    expect(worstCaseAdmissions(100, 1)).toBe(100);
    expect(worstCaseAdmissions(100, 3)).toBe(150);
  });
});

describe("one instance", () => {
  it("admits exactly the limit in a window, refuses the rest with Retry-After, and starts over in the next window", async () => {
    const store = memoryStore();
    const clock = { now: T0 + 15_000 };
    const limiter = limiterOn(store, clock);

    expect(await admitted(limiter, "api:key:a", 10, 10)).toBe(10);
    const refused = await limiter.take("api:key:a", 10);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 45 });

    clock.now = T0 + 60_000;
    expect(await admitted(limiter, "api:key:a", 10, 12)).toBe(10);
  });

  it("keeps buckets apart", async () => {
    const store = memoryStore();
    const limiter = limiterOn(store, { now: T0 });

    expect(await admitted(limiter, "ingest:we_1", 3, 5)).toBe(3);
    expect(await admitted(limiter, "ingest:we_2", 3, 5)).toBe(3);
    expect(await admitted(limiter, "api:key:a", 3, 1)).toBe(1);
  });

  it("sends its counts in one batch per flush and learns the totals", async () => {
    const store = memoryStore();
    const limiter = limiterOn(store, { now: T0 });

    await admitted(limiter, "b", 1_000, 3);
    await admitted(limiter, "a", 1_000, 2);
    await limiter.flush();

    expect(store.calls).toEqual([
      [
        { bucket: "a", windowStart: T0, count: 2 },
        { bucket: "b", windowStart: T0, count: 3 },
      ],
    ]);
    await limiter.flush();
    expect(store.calls).toHaveLength(1); // nothing pending, nothing sent
  });

  it("does not wait for the store far from the limit", async () => {
    const store = memoryStore();
    const limiter = limiterOn(store, { now: T0 });
    const release = store.hold();

    // A quarter of 1 000 may be admitted on the last known count (0) before the store must be heard.
    expect(await admitted(limiter, "a", 1_000, 250)).toBe(250);
    expect(store.calls).toHaveLength(0);
    release();
  });

  it("waits for the store once it has admitted its slice, then goes on", async () => {
    const store = memoryStore();
    const limiter = limiterOn(store, { now: T0 });

    expect(await admitted(limiter, "a", 8, 2)).toBe(2); // slice of 8 with nothing known: 2
    const release = store.hold();
    const third = limiter.take("a", 8);
    await Promise.resolve();
    expect(store.calls).toEqual([[{ bucket: "a", windowStart: T0, count: 2 }]]);
    release();
    expect(await third).toEqual({ allowed: true });
  });
});

describe("instances sharing one store", () => {
  it("refuses on one instance what the others have used, once it has synced", async () => {
    const store = memoryStore();
    const clock = { now: T0 };
    const first = limiterOn(store, clock);
    const second = limiterOn(store, clock);

    expect(await admitted(first, "k", 20, 20)).toBe(20);
    await first.flush();
    // The second instance has not heard yet: it may spend at most one slice before it must sync, and then refuses.
    const late = await admitted(second, "k", 20, 20);
    expect(late).toBeLessThanOrEqual(Math.ceil(20 / 4));
    expect(20 + late).toBeLessThanOrEqual(worstCaseAdmissions(20, 2));
    expect((await second.take("k", 20)).allowed).toBe(false);
    expect(store.counts.get(`k@${T0}`)).toBe(20 + late);
  });

  it("never admits more than the documented bound, whatever the interleaving", async () => {
    for (const instances of [2, 3, 5]) {
      for (const limit of [1, 7, 40, 200]) {
        const store = memoryStore();
        const clock = { now: T0 };
        const limiters = Array.from({ length: instances }, () => limiterOn(store, clock));
        let allowed = 0;
        let seed = instances * 1_000 + limit;
        const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
        // Concurrent requests spread over the instances, with flushes at random moments.
        const requests: Promise<void>[] = [];
        for (let index = 0; index < limit * 3; index++) {
          const limiter = limiters[Math.floor(random() * instances)]!;
          requests.push(limiter.take("shared", limit).then((decision) => void (decision.allowed && allowed++)));
          if (random() < 0.1) void limiters[Math.floor(random() * instances)]!.flush();
          if (random() < 0.3) await Promise.resolve();
        }
        await Promise.all(requests);
        expect(allowed, `${instances} instances, limit ${limit}`).toBeGreaterThanOrEqual(limit);
        expect(allowed, `${instances} instances, limit ${limit}`).toBeLessThanOrEqual(
          worstCaseAdmissions(limit, instances),
        );
      }
    }
  });

  it("never refuses before the window holds the limit", async () => {
    const store = memoryStore();
    const clock = { now: T0 };
    const [first, second] = [limiterOn(store, clock), limiterOn(store, clock)];

    // Alternating, with syncs: 30 requests under a limit of 30 must all pass.
    let allowed = 0;
    for (let index = 0; index < 30; index++) {
      if ((await (index % 2 === 0 ? first : second).take("k", 30)).allowed) allowed++;
      if (index % 7 === 0) await Promise.all([first.flush(), second.flush()]);
    }
    expect(allowed).toBe(30);
  });
});

describe("when the store fails", () => {
  it("limits on local counts, reports the failure, and shares again once the store is back", async () => {
    const store = memoryStore();
    const clock = { now: T0 };
    const errors: unknown[] = [];
    const limiter = limiterOn(store, clock, { onStoreError: (error) => errors.push(error) });
    store.fail(true);

    expect(await admitted(limiter, "k", 10, 15)).toBe(10);
    expect(errors.length).toBeGreaterThan(0);

    store.fail(false);
    clock.now = T0 + WINDOW;
    expect(await admitted(limiter, "k", 10, 3)).toBe(3);
    await limiter.flush();
    expect(store.counts.get(`k@${T0 + WINDOW}`)).toBe(3);
  });

  it("prunes windows older than the previous one", async () => {
    const store = memoryStore();
    const clock = { now: T0 };
    const limiter = limiterOn(store, clock);
    await admitted(limiter, "k", 10, 1);
    await limiter.flush();

    clock.now = T0 + 3 * WINDOW;
    await admitted(limiter, "k", 10, 1);
    await limiter.flush();

    expect(store.pruned).toEqual([T0 + 2 * WINDOW]);
    expect([...store.counts.keys()]).toEqual([`k@${T0 + 3 * WINDOW}`]);
  });
});

describe("when the store hangs", () => {
  it("does not hold a request longer than its wait allowance: it is decided on local counts", async () => {
    const store = memoryStore();
    const limiter = limiterOn(store, { now: T0 }, { syncWaitMs: 20 });
    expect(await admitted(limiter, "k", 3, 1)).toBe(1); // slice of 3 with nothing known: 1
    store.hold(); // never released: every flush from here on hangs

    // Each request past the slice must sync first; with the store hanging it is decided on this instance's own
    // count after its waits: admitted up to the limit, then refused, never left hanging.
    expect(await admitted(limiter, "k", 3, 3)).toBe(2);
    expect(store.calls.length).toBeGreaterThan(0);
  });
});
