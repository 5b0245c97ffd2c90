import { ApiError } from "@/lib/errors";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { runPricedCall } from "@/lib/billing/priced-call";
import { PRICES } from "@/lib/billing/prices";
import { env } from "@/lib/env";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { outboundFromEnv } from "@/lib/outbound/from-env";
import type { OutboundClient } from "@/lib/outbound/types";
import { fetchVideoDetails, VideoError, type VideoDetails, type VideoFailure } from "./youtube";

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
  members_only: () =>
    new ApiError("forbidden", "This video is for the channel's members only; its details are not public."),
  age_restricted: () => new ApiError("forbidden", "This video is age-restricted; its details are not public."),
  region_blocked: () =>
    new ApiError("unavailable_for_legal_reasons", "This video is not available in the service's region."),
  unreachable: () => new ApiError("upstream_unavailable", "Could not reach YouTube. Retry shortly."),
  upstream: () => new ApiError("upstream_unavailable", "YouTube did not answer as expected. Retry shortly."),
};

/**
 * GET /v1/data/media/video/details: a video's public details, through the same priced call as the enrichment
 * operations (catalogue price, 402 before upstream, ledger entry, cache at no cost for live keys). Failures are not
 * charged and not cached. There is no sandbox for video: test keys ask YouTube too, free and never from the cache.
 */
export async function getVideoDetails(options: { principal: ApiKeyPrincipal; videoId: string }) {
  const price = PRICES.media_video_details;
  return runPricedCall({
    principal: options.principal,
    operation: "media_video_details",
    normalizedInput: { videoId: options.videoId },
    priceRange: { minCents: price, maxCents: price },
    bypassCache: false,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: () => fetchDetails(options.videoId),
    summarize: (details) => ({ providersAttempted: 1, fieldsReturned: Object.keys(details), fieldsMissing: [] }),
    shape: (details) => ({ data: details, costCents: price }),
  });
}

async function fetchDetails(videoId: string): Promise<VideoDetails> {
  try {
    return await fetchVideoDetails(videoId, { http: youtubeClient(), baseUrl: env().YOUTUBE_BASE_URL });
  } catch (error) {
    if (error instanceof VideoError) throw FAILURES[error.failure]();
    throw error;
  }
}
