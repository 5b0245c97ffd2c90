import { ApiError } from "@/lib/errors";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { getBalances, paymentRequired, recordUsage, type Balances } from "@/lib/billing/balances";
import { PRICES } from "@/lib/billing/prices";
import { inputHash, readCachedResult, writeCachedResult } from "@/lib/enrichment/cache";
import { env } from "@/lib/env";
import { createOutboundClient } from "@/lib/providers/outbound/outbound-client";
import { outboundFromEnv } from "@/lib/providers/outbound/from-env";
import type { OutboundClient } from "@/lib/providers/outbound/types";
import { fetchVideoDetails, VideoError, type VideoDetails, type VideoFailure } from "./youtube";

const OPERATION = "media_video_details" as const;
// View counts move, the rest hardly: an hour keeps repeated calls cheap without going stale.
const CACHE_TTL_SECONDS = 3600;
/** Player requests in flight at once, per process. */
const YOUTUBE_CONCURRENCY = 16;

let youtubeHttp: OutboundClient | undefined;

/**
 * The outbound client for YouTube: the process's client settings (resolver, user agent, the test-only loopback and
 * port knobs), with more requests at once to the one host than the shared client's polite 2, since these are API
 * calls made for many callers. The same SSRF checks apply: YOUTUBE_BASE_URL at a private address is refused.
 */
function youtubeClient(): OutboundClient {
  if (youtubeHttp) return youtubeHttp;
  const config = env();
  const shared = outboundFromEnv();
  youtubeHttp = createOutboundClient({
    userAgent: shared.http.userAgent,
    resolver: shared.dns.resolveHost,
    allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK,
    portOverrides: config.OUTBOUND_TEST_PORTS,
    perHostConcurrency: YOUTUBE_CONCURRENCY,
  });
  return youtubeHttp;
}

const FAILURES: Record<VideoFailure, () => ApiError> = {
  not_found: () => new ApiError("not_found", "Video not found: it does not exist, was removed, or is not public."),
  private: () => new ApiError("not_found", "Video not found: it does not exist, was removed, or is not public."),
  age_restricted: () => new ApiError("forbidden", "This video is age-restricted; its details are not public."),
  region_blocked: () => new ApiError("unavailable_for_legal_reasons", "This video is not available in the service's region."),
  upstream: () => new ApiError("upstream_unavailable", "YouTube did not answer as expected. Retry shortly."),
};

export interface PricedVideoDetails {
  details: VideoDetails;
  costCents: number;
  cached: boolean;
  balances: Balances;
}

/**
 * GET /v1/data/media/video/details: a video's public details, priced like the other data endpoints (catalogue,
 * 402 before upstream, ledger entry, cache at no cost). Failures are not charged and not cached.
 */
export async function getVideoDetails(options: { principal: ApiKeyPrincipal; videoId: string }): Promise<PricedVideoDetails> {
  const started = performance.now();
  const { principal, videoId } = options;
  const price = PRICES.media_video_details;
  const hash = inputHash(OPERATION, { videoId });
  const live = principal.mode === "live";

  let details = await readCachedResult<VideoDetails>(hash);
  const cached = details !== null;
  if (!details) {
    if (live) {
      const balances = await getBalances(principal.workspace.id);
      if (balances.subscriptionRemainingCents + balances.purchasedBalanceCents < price) throw paymentRequired(price);
    }
    try {
      details = await fetchVideoDetails(videoId, { http: youtubeClient(), baseUrl: env().YOUTUBE_BASE_URL });
    } catch (error) {
      if (error instanceof VideoError) throw FAILURES[error.failure]();
      throw error;
    }
  }

  const costCents = cached ? 0 : price;
  const balances = await recordUsage({
    workspaceId: principal.workspace.id,
    apiKeyId: principal.apiKeyId,
    keyMode: principal.mode,
    operation: OPERATION,
    inputHash: hash,
    costCents,
    debit: live,
    cached,
    latencyMs: Math.round(performance.now() - started),
    providersAttempted: cached ? 0 : 1,
    records: null,
  });
  if (!cached) await writeCachedResult({ key: hash, operation: OPERATION, result: details, ttlSeconds: CACHE_TTL_SECONDS });
  return { details, costCents, cached, balances };
}
