/**
 * Which refused requests of an endpoint get recorded: a token bucket per endpoint (`perSecond` tokens a second, up
 * to `burst` saved up), so a flood of refusals costs a few recordings a second, not one each. Requests without a
 * token are counted against their endpoint (`skipped`) until the count is taken to be written.
 *
 * Written here rather than taken from a library: the decision must be synchronous, allocation-free and per process
 * (lib/ratelimit's limiter is asynchronous and shared through PostgreSQL, the wrong trade for a sampling decision),
 * and the npm token buckets (limiter, …) keep one object per bucket without a bound on how many buckets there are.
 * At most `maxEndpoints` endpoints are tracked: the one tracked longest is dropped first, with its count of skipped
 * requests (an endpoint flooded with refusals is tracked again at its next one).
 */
export interface RejectionSampler {
  /** True when this refusal is to be recorded; false counts it as skipped. */
  take: (endpoint: EndpointRef, now: number) => boolean;
  /** Counts a refusal as skipped after all (a token was taken, but there was no room to record it). */
  skip: (endpoint: EndpointRef) => void;
  /** The skipped counts since the last call, and forgets them. */
  takeSkipped: () => SkippedCount[];
}

/** Which endpoint a refused request was addressed to. */
export interface EndpointRef {
  id: string;
  workspaceId: string;
}

export interface SkippedCount {
  endpoint: EndpointRef;
  count: number;
}

interface Bucket {
  endpoint: EndpointRef;
  tokens: number;
  at: number;
  skipped: number;
}

export function createRejectionSampler(options: {
  perSecond: number;
  burst: number;
  maxEndpoints: number;
}): RejectionSampler {
  const buckets = new Map<string, Bucket>();
  const skippedKeys = new Set<string>();
  return {
    take(endpoint, now) {
      const key = endpoint.id;
      let bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= options.maxEndpoints) {
          const oldest = buckets.keys().next().value!;
          buckets.delete(oldest);
          skippedKeys.delete(oldest);
        }
        // Only the two ids are kept (an endpoint's other settings, its secret, are not held on to).
        bucket = {
          endpoint: { id: endpoint.id, workspaceId: endpoint.workspaceId },
          tokens: options.burst,
          at: now,
          skipped: 0,
        };
        buckets.set(key, bucket);
      } else {
        bucket.tokens = Math.min(options.burst, bucket.tokens + ((now - bucket.at) / 1000) * options.perSecond);
        bucket.at = now;
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return true;
      }
      bucket.skipped += 1;
      skippedKeys.add(key);
      return false;
    },
    skip(endpoint) {
      const bucket = buckets.get(endpoint.id);
      if (!bucket) return;
      bucket.skipped += 1;
      skippedKeys.add(endpoint.id);
    },
    takeSkipped() {
      const counts: SkippedCount[] = [];
      for (const key of skippedKeys) {
        const bucket = buckets.get(key);
        if (!bucket?.skipped) continue;
        counts.push({ endpoint: bucket.endpoint, count: bucket.skipped });
        bucket.skipped = 0;
      }
      skippedKeys.clear();
      return counts;
    },
  };
}
