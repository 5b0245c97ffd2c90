import { ApiError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { createPgRateLimitStore } from "./pg-store";
import { createWindowLimiter, limitPerWindow, type RateDecision, type WindowLimiter } from "./window-limiter";

/*
 * The app's limits, per minute and shared by every instance through PostgreSQL (./window-limiter.ts explains how
 * and the bound): RATE_LIMIT_API_PER_MINUTE per API key on /v1 (a dashboard session counts per user),
 * RATE_LIMIT_WORKSPACE_PER_MINUTE per workspace on /v1, and
 * RATE_LIMIT_INGEST_PER_MINUTE per webhook endpoint on ingest. 0 turns a limit off. Over the limit: 429
 * `rate_limited` with `Retry-After` (seconds until the window ends).
 */

// The launcher (tsx) and the route handlers (bundled by Next) load this module separately: one limiter per process,
// kept on globalThis, so that one timer flushes the counts of both.
const SLOT = Symbol.for("signalbox.rateLimiter");
const FORWARD_SLOT = Symbol.for("signalbox.forwardRateLimiter");
type GlobalWithLimiter = typeof globalThis & {
  [SLOT]?: { limiter: WindowLimiter; windowMs: number };
  [FORWARD_SLOT]?: WindowLimiter;
};

let lastStoreWarning = 0;

function sharedLimiter(windowMs: number): WindowLimiter {
  return createWindowLimiter({
    store: createPgRateLimitStore(db),
    windowMs,
    onStoreError: (error) => {
      // Once a minute at most: while the database is away every flush fails.
      if (Date.now() - lastStoreWarning < 60_000) return;
      lastStoreWarning = Date.now();
      console.warn(
        `Rate limits: counts could not be shared through the database, limiting per instance meanwhile (${(error as { code?: string }).code ?? String(error)}).`,
      );
    },
  });
}

function limiter(): { limiter: WindowLimiter; windowMs: number } {
  const holder = globalThis as GlobalWithLimiter;
  if (!holder[SLOT]) {
    const windowMs = env().RATE_LIMIT_WINDOW_SECONDS * 1000;
    holder[SLOT] = { limiter: sharedLimiter(windowMs), windowMs };
  }
  return holder[SLOT];
}

async function enforce(bucket: string, perMinute: number, what: string): Promise<void> {
  if (perMinute === 0) return;
  const { limiter: instance, windowMs } = limiter();
  const decision = await instance.take(bucket, limitPerWindow(perMinute, windowMs));
  if (decision.allowed) return;
  throw new ApiError(
    "rate_limited",
    `Too many requests ${what}: the limit is ${perMinute} a minute. Retry after ${decision.retryAfterSeconds} s.`,
    {
      headers: { "Retry-After": String(decision.retryAfterSeconds) },
    },
  );
}

/**
 * Counts a `/v1` request against its API key (or, for a dashboard session, its user), then against its workspace, so
 * that many keys of one workspace do not multiply its share; throws 429 over either limit.
 */
export async function enforceApiRateLimit(caller: {
  apiKeyId: string | null;
  userId: string | null;
  workspace: { id: string };
}): Promise<void> {
  const bucket = caller.apiKeyId !== null ? `api:key:${caller.apiKeyId}` : `api:user:${caller.userId ?? "unknown"}`;
  await enforce(
    bucket,
    env().RATE_LIMIT_API_PER_MINUTE,
    caller.apiKeyId !== null ? "for this API key" : "for this user",
  );
  await enforce(`api:workspace:${caller.workspace.id}`, env().RATE_LIMIT_WORKSPACE_PER_MINUTE, "for this workspace");
}

/** Counts a delivery against its webhook endpoint (an existing, enabled one); throws 429 over the limit. */
export function enforceIngestRateLimit(endpointId: string): Promise<void> {
  return enforce(`ingest:${endpointId}`, env().RATE_LIMIT_INGEST_PER_MINUTE, "for this webhook endpoint");
}

/**
 * Counts one forwarding attempt against its destination's `rateLimitPerSecond`, in one-second windows shared by every
 * instance like the limits above. Over it: how long to wait; the attempt is not made.
 */
export function takeForwardSlot(destinationId: string, perSecond: number): Promise<RateDecision> {
  const holder = globalThis as GlobalWithLimiter;
  holder[FORWARD_SLOT] ??= sharedLimiter(1_000);
  return holder[FORWARD_SLOT].take(`forward:${destinationId}`, perSecond);
}
