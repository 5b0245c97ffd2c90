/**
 * The slow-body rate checks of every ingest body being read, run by one timer rather than an interval per request: at
 * thousands of small bodies a second, making and clearing a timer for each cost more than the check ever does (nearly
 * every body ends long before its first check). The sweep runs every SWEEP_MS while any body is watched, so a stretch
 * lasts from `graceMs` to `graceMs + SWEEP_MS` (longer when the process stalls); it must bring a grace period's share
 * of the minimum rate, as with a timer per body.
 */

import { ArraySet } from "@/lib/array-set";

/** At most the smallest INGEST_BODY_RATE_GRACE_MS (lib/env.ts). */
const SWEEP_MS = 100;

interface Watched {
  check: (now: number) => void;
}

// An ArraySet, not a Set: entries come and go at the request rate and hold their request (lib/array-set.ts).
const watched = new ArraySet<Watched>();
let sweeper: NodeJS.Timeout | undefined;

function sweep(): void {
  const now = Date.now();
  for (const entry of watched) entry.check(now);
  // Stopped here rather than when the last body leaves: under load the set empties and fills many times a sweep.
  if (watched.size === 0) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

export interface RateWatch {
  /** Bytes arrived (counted towards the current stretch). */
  arrived: (bytes: number) => void;
  /** The reader was held back by the body budget during the current stretch: the stretch does not count. */
  heldBack: () => void;
  stop: () => void;
}

/**
 * Watches one body: over every stretch of at least `graceMs`, at least `minBytesPerSecond` must have arrived on
 * average unless the reader was held back (`isHeldBack` says whether it still is when a stretch starts); otherwise
 * `tooSlow` is called once and the watch stops.
 */
export function watchBodyRate(
  minBytesPerSecond: number,
  graceMs: number,
  isHeldBack: () => boolean,
  tooSlow: () => void,
): RateWatch {
  let stretchStart = Date.now();
  let arrived = 0;
  let heldBack = false;
  const entry: Watched = {
    check(now) {
      const elapsed = now - stretchStart;
      if (elapsed < graceMs) return;
      // A stretch that ran long because this process stalled (the sweep came late) asks no more than a whole grace
      // period's bytes: the chunks of a stall are read late, and that is not the sender's doing.
      if (!heldBack && arrived < (minBytesPerSecond * graceMs) / 1000) {
        watched.delete(entry);
        return tooSlow();
      }
      stretchStart = now;
      arrived = 0;
      heldBack = isHeldBack();
    },
  };
  watched.add(entry);
  if (!sweeper) {
    sweeper = setInterval(sweep, SWEEP_MS);
    sweeper.unref();
  }
  return {
    arrived: (bytes) => (arrived += bytes),
    heldBack: () => (heldBack = true),
    stop: () => watched.delete(entry),
  };
}
