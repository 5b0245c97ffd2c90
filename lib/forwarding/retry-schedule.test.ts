import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  attemptVerdict,
  nextAttemptAt,
  RETRY_MAX_DELAY_SECONDS,
  retryDelayBounds,
  type NextAttemptInput,
} from "@/lib/forwarding/retry-schedule";
import type { WebhookAttemptResult, WebhookFailureKind } from "@/lib/outbound/webhook-sender";

const NOW = new Date("2026-11-28T12:00:00Z");

function response(status: number, headers: Record<string, string> = {}): WebhookAttemptResult {
  return { kind: "response", status, headers, bodyPrefix: Buffer.alloc(0), bodyTruncated: false, durationMs: 5 };
}

function failure(error: WebhookFailureKind): WebhookAttemptResult {
  return { kind: "failure", error, message: error, durationMs: 5 };
}

describe("attemptVerdict", () => {
  it.each([200, 201, 202, 204, 299])("%i is delivered", (status) => {
    expect(attemptVerdict(response(status), NOW)).toEqual({ kind: "delivered" });
  });

  it("410 means the destination is gone", () => {
    expect(attemptVerdict(response(410), NOW)).toEqual({ kind: "destination_gone" });
  });

  it.each([100, 199, 301, 302, 308, 400, 401, 404, 408, 413, 429, 500, 502, 503, 504])("%i is retried", (status) => {
    expect(attemptVerdict(response(status), NOW)).toEqual({ kind: "retry" });
  });

  it.each(["timeout", "connection", "dns", "tls", "protocol", "aborted"] as const)(
    "a %s failure is retried",
    (error) => {
      expect(attemptVerdict(failure(error), NOW)).toEqual({ kind: "retry" });
    },
  );

  it("a refusal by the address policy is a misconfigured destination, not retried", () => {
    expect(attemptVerdict(failure("refused"), NOW)).toEqual({ kind: "misconfigured" });
  });

  it("reads Retry-After on 429 and 503 only, in seconds or as a date", () => {
    expect(attemptVerdict(response(429, { "retry-after": "120" }), NOW)).toEqual({
      kind: "retry",
      retryAfterSeconds: 120,
    });
    expect(attemptVerdict(response(503, { "retry-after": "Sat, 28 Nov 2026 12:05:00 GMT" }), NOW)).toEqual({
      kind: "retry",
      retryAfterSeconds: 300,
    });
    expect(attemptVerdict(response(500, { "retry-after": "120" }), NOW)).toEqual({ kind: "retry" });
    expect(attemptVerdict(response(429, { "retry-after": "later" }), NOW)).toEqual({ kind: "retry" });
  });
});

describe("nextAttemptAt", () => {
  const generous = { maxAttempts: 100, maxAgeSeconds: 7 * 86_400 };
  const since = NOW;
  const delaySeconds = (input: Omit<NextAttemptInput, "since" | "now">) => {
    const at = nextAttemptAt({ since, now: NOW, ...input });
    return at === null ? null : (at.getTime() - NOW.getTime()) / 1000;
  };

  it("waits 10 s, then three times as long each time up to an hour, at the middle of its jitter", () => {
    const middle = () => 0.5;
    const schedule = Array.from({ length: 9 }, (_, index) =>
      delaySeconds({ attemptsMade: index + 1, retry: generous, random: middle }),
    );
    expect(schedule).toEqual([10, 30, 90, 270, 810, 2430, 3600, 3600, 3600]);
  });

  it("draws each wait within ±25%", () => {
    expect(delaySeconds({ attemptsMade: 2, retry: generous, random: () => 0 })).toBe(22.5);
    expect(delaySeconds({ attemptsMade: 2, retry: generous, random: () => 0.999_999 })).toBeCloseTo(37.5, 3);
    expect(delaySeconds({ attemptsMade: 50, retry: generous, random: () => 0 })).toBe(2700);
  });

  it("stops after maxAttempts", () => {
    const retry = { maxAttempts: 3, maxAgeSeconds: 86_400 };
    expect(nextAttemptAt({ attemptsMade: 2, since, now: NOW, retry })).not.toBeNull();
    expect(nextAttemptAt({ attemptsMade: 3, since, now: NOW, retry })).toBeNull();
    expect(nextAttemptAt({ attemptsMade: 1, since, now: NOW, retry: { ...retry, maxAttempts: 1 } })).toBeNull();
  });

  it("stops when the next attempt would be later than maxAge after the delivery", () => {
    const retry = { maxAttempts: 100, maxAgeSeconds: 600 };
    const late = new Date(since.getTime() + 595_000);
    expect(nextAttemptAt({ attemptsMade: 1, since, now: late, retry, random: () => 0 })).toBeNull();
    const early = new Date(since.getTime() + 500_000);
    expect(nextAttemptAt({ attemptsMade: 1, since, now: early, retry, random: () => 0 })).toEqual(
      new Date(early.getTime() + 7_500),
    );
  });

  it("waits at least what Retry-After asks, up to the one-hour cap", () => {
    expect(delaySeconds({ attemptsMade: 1, retry: generous, retryAfterSeconds: 120, random: () => 0.5 })).toBe(120);
    // A shorter wait than the schedule's does not make us come back sooner.
    expect(delaySeconds({ attemptsMade: 4, retry: generous, retryAfterSeconds: 1, random: () => 0.5 })).toBe(270);
    expect(delaySeconds({ attemptsMade: 1, retry: generous, retryAfterSeconds: 86_400, random: () => 0.5 })).toBe(
      RETRY_MAX_DELAY_SECONDS,
    );
    // Still bounded by maxAge.
    const short = { maxAttempts: 10, maxAgeSeconds: 60 };
    expect(delaySeconds({ attemptsMade: 1, retry: short, retryAfterSeconds: 120 })).toBeNull();
  });
});

describe("retry schedule properties", () => {
  const policy = fc.record({
    maxAttempts: fc.integer({ min: 1, max: 60 }),
    maxAgeSeconds: fc.integer({ min: 0, max: 30 * 86_400 }),
  });
  const randoms = fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }));
  const retryAfter = fc.option(fc.integer({ min: 0, max: 10 * 86_400 }), { nil: undefined });

  it("has bounds that never decrease from one attempt to the next and never pass the cap's jitter", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000 }), (attempts) => {
        const current = retryDelayBounds(attempts);
        const next = retryDelayBounds(attempts + 1);
        expect(next.minMs).toBeGreaterThanOrEqual(current.minMs);
        expect(next.maxMs).toBeGreaterThanOrEqual(current.maxMs);
        expect(current.minMs).toBeLessThanOrEqual(current.maxMs);
        expect(current.maxMs).toBeLessThanOrEqual(RETRY_MAX_DELAY_SECONDS * 1.25 * 1000);
      }),
    );
  });

  it("draws each wait within its bounds, and no sooner than Retry-After up to the cap", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        retryAfter,
        (attemptsMade, draw, retryAfterSeconds) => {
          const at = nextAttemptAt({
            attemptsMade,
            since: NOW,
            now: NOW,
            retry: { maxAttempts: 1_000, maxAgeSeconds: 10 * 86_400 },
            retryAfterSeconds,
            random: () => draw,
          });
          const delayMs = at!.getTime() - NOW.getTime();
          const { minMs, maxMs } = retryDelayBounds(attemptsMade);
          const asked = Math.min(retryAfterSeconds ?? 0, RETRY_MAX_DELAY_SECONDS) * 1000;
          expect(delayMs).toBeGreaterThanOrEqual(Math.max(Math.floor(minMs), asked));
          expect(delayMs).toBeLessThanOrEqual(Math.max(Math.ceil(maxMs), asked));
        },
      ),
    );
  });

  it("over a whole run, never schedules past maxAge nor more than maxAttempts attempts, always later than before", () => {
    fc.assert(
      fc.property(
        policy,
        randoms,
        fc.array(retryAfter, { maxLength: 60 }),
        fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 60 }),
        (retry, draws, retryAfters, attemptDurationsMs) => {
          const since = NOW;
          const deadline = since.getTime() + retry.maxAgeSeconds * 1000;
          let attemptsMade = 1;
          let now = new Date(since.getTime() + (attemptDurationsMs[0] ?? 0));
          const random = () => draws.next().value as number;
          for (;;) {
            const at = nextAttemptAt({
              attemptsMade,
              since,
              now,
              retry,
              retryAfterSeconds: retryAfters[attemptsMade - 1],
              random,
            });
            if (at === null) break;
            expect(at.getTime()).toBeLessThanOrEqual(deadline);
            expect(at.getTime()).toBeGreaterThan(now.getTime());
            attemptsMade += 1;
            // The attempt runs at `at` and takes a while before it fails again.
            now = new Date(at.getTime() + (attemptDurationsMs[attemptsMade - 1] ?? 0));
          }
          expect(attemptsMade).toBeLessThanOrEqual(retry.maxAttempts);
        },
      ),
    );
  });
});
