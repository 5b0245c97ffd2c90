import { parseRetryAfter } from "@/lib/outbound/retry-after";
import type { WebhookAttemptResult } from "@/lib/outbound/webhook-sender";

/*
 * What an attempt's result means, and when the next attempt runs. Pure: the clock and the random source come in.
 *
 *   const verdict = attemptVerdict(result, now);
 *   if (verdict.kind === "retry") {
 *     const at = nextAttemptAt({ attemptsMade, since: delivery.createdAt, now, retry: destination.retry,
 *                                retryAfterSeconds: verdict.retryAfterSeconds });
 *     // at === null: exhausted, mark the delivery failed for this destination (replay starts a new schedule)
 *   }
 *
 * The schedule: 10 s after the first failure, then ×3 each time (30 s, 1 min 30, 4 min 30, 13 min 30, 40 min 30),
 * capped at 1 h, each delay drawn within ±25% of that. Svix waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; Stripe
 * backs off over 3 days; Convoy doubles from its interval up to a cap with a few seconds of jitter. Ours starts
 * alike but caps at an hour rather than Svix's ten: destinations here are mostly the operator's own services and
 * developers' machines, whose outages are deploys and laptops asleep, so a receiver that comes back gets its
 * deliveries within the hour, not the next morning; an attempt at a host that is down costs a refused connection.
 * The jitter spreads the retries of everything that failed together in one outage so they do not all come back in
 * the same second; ±25% (rather than "full" jitter, anywhere from 0) keeps each wait close to what the schedule
 * shows a user. The destination's `maxAttempts` and `maxAgeSeconds` end it.
 */

export interface RetryPolicy {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** No attempt later than this long after `since`. */
  maxAgeSeconds: number;
}

export type AttemptVerdict =
  /** A 2xx: done. */
  | { kind: "delivered" }
  /** Anything else the destination or the network did; a 429 or 503 may say how long to wait. */
  | { kind: "retry"; retryAfterSeconds?: number }
  /** A 410 Gone: the receiver asks to be left alone. Disable the destination; no retry. */
  | { kind: "destination_gone" }
  /** The address policy or the URL refused the destination: retrying cannot help until its URL changes. */
  | { kind: "misconfigured" };

export const RETRY_FIRST_DELAY_SECONDS = 10;
export const RETRY_GROWTH = 3;
export const RETRY_MAX_DELAY_SECONDS = 3600;
/** Each delay lies within this fraction either side of the nominal one. */
export const RETRY_JITTER = 0.25;

/** What the result of one attempt means for the delivery and the destination. */
export function attemptVerdict(result: WebhookAttemptResult, now: Date): AttemptVerdict {
  if (result.kind === "failure") return result.error === "refused" ? { kind: "misconfigured" } : { kind: "retry" };
  const { status } = result;
  if (status >= 200 && status < 300) return { kind: "delivered" };
  if (status === 410) return { kind: "destination_gone" };
  if (status === 429 || status === 503) {
    const retryAfterSeconds = parseRetryAfter(result.headers["retry-after"] ?? null, now.getTime());
    if (retryAfterSeconds !== undefined) return { kind: "retry", retryAfterSeconds };
  }
  return { kind: "retry" };
}

/** The range the wait after the `attemptsMade`-th failed attempt is drawn from, in milliseconds. */
export function retryDelayBounds(attemptsMade: number): { minMs: number; maxMs: number } {
  const exponent = Math.max(0, attemptsMade - 1);
  const nominalMs = Math.min(RETRY_FIRST_DELAY_SECONDS * RETRY_GROWTH ** exponent, RETRY_MAX_DELAY_SECONDS) * 1000;
  return { minMs: nominalMs * (1 - RETRY_JITTER), maxMs: nominalMs * (1 + RETRY_JITTER) };
}

export interface NextAttemptInput {
  /** Attempts made so far, the one that just failed included (1 after the first). */
  attemptsMade: number;
  /** Where `maxAgeSeconds` counts from: the delivery's arrival, or the replay that started this schedule. */
  since: Date;
  /** When the failed attempt ended. */
  now: Date;
  retry: RetryPolicy;
  /** From a 429 or 503 (`attemptVerdict`): the next attempt is no sooner, unless that is past the 1 h cap. */
  retryAfterSeconds?: number;
  /** Uniform in [0, 1); default Math.random. */
  random?: () => number;
}

/** When to make the next attempt, or null when there is none: `maxAttempts` made, or it would be past `maxAgeSeconds`. */
export function nextAttemptAt(input: NextAttemptInput): Date | null {
  if (input.attemptsMade >= input.retry.maxAttempts) return null;
  const { minMs, maxMs } = retryDelayBounds(input.attemptsMade);
  let delayMs = minMs + (maxMs - minMs) * (input.random ?? Math.random)();
  // A server's wait is honoured up to our cap: a Retry-After of a day must not spend a delivery's whole maxAge.
  if (input.retryAfterSeconds !== undefined)
    delayMs = Math.max(delayMs, Math.min(input.retryAfterSeconds, RETRY_MAX_DELAY_SECONDS) * 1000);
  const at = input.now.getTime() + Math.round(delayMs);
  if (at > input.since.getTime() + input.retry.maxAgeSeconds * 1000) return null;
  return new Date(at);
}
