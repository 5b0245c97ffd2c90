import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";

/*
 * Caps on open event streams, per caller (API key, or dashboard user) and per workspace: EVENT_STREAMS_PER_KEY and
 * EVENT_STREAMS_PER_WORKSPACE, 0 for no cap. Counted per process: behind N instances a workspace may hold up to N
 * times the cap (each instance still serves every stream with one LISTEN connection and shared checks).
 */

/** How long a refused client is told to wait: places free up only as other streams close. */
const RETRY_AFTER_SECONDS = 30;

const open = new Map<string, number>();

function refuse(what: string, limit: number): never {
  throw new ApiError(
    "rate_limited",
    `Too many open event streams for this ${what}: the limit is ${limit}. Close one, or retry after ${RETRY_AFTER_SECONDS} s.`,
    { headers: { "Retry-After": String(RETRY_AFTER_SECONDS) } },
  );
}

/**
 * Takes a place for a new stream of `holder` (`key:<id>` or `user:<id>`) in `workspaceId`; throws 429 `rate_limited`
 * when either is full. Returns the function that gives the place back (calling it more than once is harmless).
 */
export function claimEventStreamSlot(options: { workspaceId: string; holder: string }): () => void {
  const { EVENT_STREAMS_PER_KEY: perHolder, EVENT_STREAMS_PER_WORKSPACE: perWorkspace } = env();
  const buckets = [`holder:${options.holder}`, `workspace:${options.workspaceId}`];
  const [holderCount = 0, workspaceCount = 0] = buckets.map((bucket) => open.get(bucket) ?? 0);
  if (perHolder > 0 && holderCount >= perHolder)
    refuse(options.holder.startsWith("key:") ? "API key" : "user", perHolder);
  if (perWorkspace > 0 && workspaceCount >= perWorkspace) refuse("workspace", perWorkspace);
  for (const bucket of buckets) open.set(bucket, (open.get(bucket) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const bucket of buckets) {
      const left = (open.get(bucket) ?? 1) - 1;
      if (left > 0) open.set(bucket, left);
      else open.delete(bucket);
    }
  };
}
