export interface BackoffPolicy {
  /** The delay after the first failure. */
  firstMs: number;
  /** The longest delay: each failure doubles the last one until this. */
  capMs: number;
}

/** Between a receiver's failed answers for one delivery: quick while a dev server restarts, then every 30 s. */
export const FORWARD_BACKOFF: BackoffPolicy = { firstMs: 250, capMs: 30_000 };

/** Between attempts to reach the service (the event stream, a listing, an acknowledgement). */
export const SERVICE_BACKOFF: BackoffPolicy = { firstMs: 1_000, capMs: 30_000 };

/**
 * The delay before retry `failures` (1 after the first failure): `firstMs` doubled per further failure, capped, then
 * drawn from its upper half ("equal jitter") so relays restarted together do not retry in step. `random` returns a
 * number in [0, 1), like Math.random.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(failures, 1) - 1, 30); // 2 ** 30 already passes any cap
  const ceiling = Math.min(policy.capMs, policy.firstMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller checks `signal.aborted`). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
