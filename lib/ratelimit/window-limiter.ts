/*
 * Fixed-window request limits shared by every instance through a store (PostgreSQL in the app, see ./pg-store.ts),
 * without a store round trip per request.
 *
 * Windows are aligned to the clock: a window of W ms starts at every multiple of W since the epoch, so all instances
 * agree on which window a request falls in. Each instance keeps, per bucket (an API key, a webhook endpoint):
 *   known     the bucket's count in the store for this window as last seen (our own confirmed requests included);
 *   unsynced  requests this instance admitted that the store has not confirmed yet.
 * A request is admitted while `known + unsynced < limit`. Admissions are sent to the store in one batched upsert per
 * flush, which answers each bucket's new total (`known`). A flush runs every `flushIntervalMs` while anything is
 * pending, and at once when an instance's unsynced admissions reach a quarter of what `known` leaves of the limit:
 * the request that would go past that slice waits for the flush instead of being admitted on a stale count. Far
 * from the limit the slice is large and nothing waits; close to it, requests of that bucket wait for the store.
 *
 * The approximation ("shared within one flush interval"): an instance learns the other instances' requests only when
 * it flushes its own, so a window admits at most `limit + (N - 1) * ceil(limit / 4)` requests across N instances in
 * the worst case (every other instance spending one quarter-slice on a stale count at the same moment), and in
 * steady traffic a few requests over the limit at most. No request is refused before the window really holds
 * `limit` requests. While the store cannot be reached, each instance limits on its own counts.
 */

export interface WindowCount {
  bucket: string;
  /** Start of the window, in milliseconds since the epoch. */
  windowStart: number;
  count: number;
}

/** Where instances share their counts. */
export interface RateLimitStore {
  /** Adds each entry's count to its bucket's window and answers every bucket's new total. */
  add(entries: readonly WindowCount[]): Promise<WindowCount[]>;
  /** Forgets windows that started before `before` (ms since the epoch). */
  prune(before: number): Promise<void>;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface WindowLimiterOptions {
  store: RateLimitStore;
  windowMs: number;
  /** Default 250 ms. */
  flushIntervalMs?: number;
  /** How long a request waits for one flush when it must sync; default 1 s. */
  syncWaitMs?: number;
  /** Default `Date.now`. */
  now?: () => number;
  /** Called when the store fails (the limiter carries on with local counts). */
  onStoreError?: (error: unknown) => void;
}

export interface WindowLimiter {
  /** Counts one request against `bucket` when it is within `limit` for the current window. */
  take(bucket: string, limit: number): Promise<RateDecision>;
  /** Sends pending counts now; resolves when the store has answered. */
  flush(): Promise<void>;
  /** Stops the timer; pending counts are dropped. */
  close(): void;
}

/** Share of the remaining allowance an instance may admit before it must hear from the store again. */
export const SYNC_FRACTION = 0.25;
const DEFAULT_FLUSH_INTERVAL_MS = 250;
/**
 * A request waits for at most this many flushes (each for at most `syncWaitMs`, so a hung store cannot hold requests)
 * before it is decided on this instance's counts alone, which were just synced.
 */
const MAX_SYNC_WAITS = 4;
const DEFAULT_SYNC_WAIT_MS = 1_000;

/** Start of the window `now` falls in. */
export function windowStartOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

/** Whole seconds until the window that holds `now` ends; at least 1 (a Retry-After of 0 invites a hot loop). */
export function retryAfterSeconds(now: number, windowMs: number): number {
  return Math.max(1, Math.ceil((windowStartOf(now, windowMs) + windowMs - now) / 1000));
}

/** A per-minute limit as a limit per window of `windowMs`: scaled and rounded up, at least 1. */
export function limitPerWindow(perMinute: number, windowMs: number): number {
  return Math.max(1, Math.ceil((perMinute * windowMs) / 60_000));
}

/** How many more requests an instance may admit before syncing, given the bucket's last known count. */
export function syncSlice(limit: number, known: number): number {
  return Math.max(1, Math.ceil((limit - known) * SYNC_FRACTION));
}

/** The worst-case admissions of one window across `instances` instances (see the file comment). */
export function worstCaseAdmissions(limit: number, instances: number): number {
  return limit + (instances - 1) * Math.ceil(limit * SYNC_FRACTION);
}

interface Bucket {
  windowStart: number;
  known: number;
  unsynced: number;
  /** Admitted but not yet sent to the store (part of `unsynced`). */
  pending: number;
}

export function createWindowLimiter(options: WindowLimiterOptions): WindowLimiter {
  const { store, windowMs } = options;
  const now = options.now ?? Date.now;
  const flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  const syncWaitMs = options.syncWaitMs ?? DEFAULT_SYNC_WAIT_MS;
  // Windows older than this are dropped from the store; the newest two are kept.
  const pruneEveryMs = Math.max(60_000, 2 * windowMs);
  const buckets = new Map<string, Bucket>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  let lastPrune = now();
  let closed = false;

  function bucketFor(name: string, windowStart: number): Bucket {
    let bucket = buckets.get(name);
    if (bucket === undefined || bucket.windowStart !== windowStart) {
      bucket = { windowStart, known: 0, unsynced: 0, pending: 0 };
      buckets.set(name, bucket);
    }
    return bucket;
  }

  function schedule(): void {
    if (timer !== undefined || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush().catch((error: unknown) => options.onStoreError?.(error));
    }, flushIntervalMs);
    timer.unref();
  }

  /** One flush at a time; callers arriving while one waits to start share it. */
  function flush(): Promise<void> {
    if (queued) return queued;
    const next = running.then(() => {
      queued = undefined;
      return sendPending();
    });
    queued = next;
    running = next.catch(() => undefined);
    return next;
  }

  async function sendPending(): Promise<void> {
    const current = windowStartOf(now(), windowMs);
    const sent: { name: string; bucket: Bucket; count: number }[] = [];
    for (const [name, bucket] of buckets) {
      if (bucket.pending > 0) {
        sent.push({ name, bucket, count: bucket.pending });
        bucket.pending = 0;
      } else if (bucket.windowStart < current && bucket.unsynced === 0) {
        buckets.delete(name);
      }
    }
    const pruneDue = now() - lastPrune >= pruneEveryMs;
    if (sent.length === 0 && !pruneDue) return;
    // Sorted, so that concurrent upserts from several instances lock rows in one order and cannot deadlock.
    sent.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.bucket.windowStart - b.bucket.windowStart));
    try {
      if (sent.length > 0) {
        const totals = await store.add(
          sent.map(({ name, bucket, count }) => ({ bucket: name, windowStart: bucket.windowStart, count })),
        );
        const byKey = new Map(totals.map((total) => [`${total.bucket}\u0000${total.windowStart}`, total.count]));
        for (const { name, bucket, count } of sent) {
          bucket.unsynced -= count;
          const total = byKey.get(`${name}\u0000${bucket.windowStart}`);
          // Counts only grow within a window; an answer can never lower what we know.
          bucket.known = Math.max(bucket.known, total ?? bucket.known + count);
        }
      }
    } catch (error) {
      // The store did not hear of them: they stay counted here, and this instance limits on its own counts.
      for (const { bucket, count } of sent) {
        bucket.unsynced -= count;
        bucket.known += count;
      }
      options.onStoreError?.(error);
    }
    if (pruneDue) {
      lastPrune = now();
      await store.prune(current - windowMs).catch((error: unknown) => options.onStoreError?.(error));
    }
  }

  async function take(name: string, limit: number): Promise<RateDecision> {
    for (let waits = 0; ; waits++) {
      const at = now();
      const bucket = bucketFor(name, windowStartOf(at, windowMs));
      if (bucket.known + bucket.unsynced >= limit)
        return { allowed: false, retryAfterSeconds: retryAfterSeconds(at, windowMs) };
      if (bucket.unsynced < syncSlice(limit, bucket.known) || waits >= MAX_SYNC_WAITS) {
        bucket.unsynced++;
        bucket.pending++;
        schedule();
        return { allowed: true };
      }
      // This instance already admitted its slice on a count the others may have moved: hear from the store first.
      await untilSettledOr(flush(), syncWaitMs);
    }
  }

  return {
    take,
    flush,
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      buckets.clear();
    },
  };
}

/** Waits for `promise` to settle, or `ms` at most. */
function untilSettledOr(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}
