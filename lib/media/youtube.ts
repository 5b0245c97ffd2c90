import { OutboundError, OutboundRefusedError, type OutboundClient, type OutboundResponse } from "@/lib/outbound/types";
import { isVideoId } from "@/lib/contracts/video-id";

/*
 * Video details from YouTube's public player data: the InnerTube endpoint `POST /youtubei/v1/player` that YouTube's
 * own web player calls, with the public WEB client context. No key, no cookies, no account.
 *
 * Mapping (player response -> spec §2.5):
 *   video_id        videoDetails.videoId (must equal the id asked for)
 *   title, author   videoDetails.title, videoDetails.author
 *   number_of_views videoDetails.viewCount, a digit string -> integer (absent on an upcoming video -> 0)
 *   video_length    videoDetails.lengthSeconds kept as text: seconds ("0" for live and upcoming)
 *   description     videoDetails.shortDescription, the full text with its newlines ("" when absent)
 *   is_live_content videoDetails.isLiveContent -> "True" / "False" (absent -> "False")
 *   published_time  microformat.playerMicroformatRenderer.publishDate, else .uploadDate; both are ISO dates,
 *                   lately with a time and offset ("2024-03-14T09:30:01-07:00"): the date part as written, no
 *                   time-zone conversion -> "2024-03-14"
 *   channel_id      videoDetails.channelId
 *   category        microformat.playerMicroformatRenderer.category
 *   keywords        videoDetails.keywords; absent -> []
 *   thumbnails      videoDetails.thumbnail.thumbnails, every size, in YouTube's order
 *   type            see VideoType
 *
 * A required field that is missing or of the wrong type is an unexpected shape -> `upstream`.
 */

/**
 * The kind of video, decided in this order (the first rule that holds wins):
 * - "live":      a stream on air now: microformat liveBroadcastDetails.isLiveNow or videoDetails.isLive is true.
 * - "premiere":  not yet started (see "upcoming") and either videoDetails.isLiveContent is false (a premiere is an
 *                uploaded video shown at a set time) or the playability reason announces a premiere ("Premieres in
 *                ...", "Premiere will begin shortly").
 * - "upcoming":  a scheduled live stream not yet started: videoDetails.isUpcoming is true, or playability status
 *                LIVE_STREAM_OFFLINE with a scheduled start (liveBroadcastDetails.startTimestamp, or the offline
 *                slate's scheduledStartTime) and no liveBroadcastDetails.endTimestamp.
 * - "short":     a YouTube Short. The player data has no explicit "is a Short" flag, so: lengthSeconds <= 180 (the
 *                Shorts maximum) and either microformat isShortsEligible is true or the microformat embed is
 *                vertical (height > width).
 * - "video":     everything else, including a live stream that has ended (is_live_content stays "True").
 */
export type VideoType = "video" | "short" | "live" | "upcoming" | "premiere";

export interface VideoThumbnail {
  url: string;
  width: number;
  height: number;
}

export interface VideoDetails {
  video_id: string;
  title: string;
  author: string;
  number_of_views: number;
  video_length: string;
  description: string;
  is_live_content: "True" | "False";
  published_time: string;
  channel_id: string;
  category: string;
  type: VideoType;
  keywords: string[];
  thumbnails: VideoThumbnail[];
}

/**
 * Why the details could not be had:
 * - not_found:      no such video, or it was removed (also: the id is not a well-formed video id);
 * - private:        the video is private;
 * - members_only:   only the channel's paying members may watch it, and YouTube gave no usable details;
 * - age_restricted: YouTube asks to sign in to confirm the viewer's age, and gave no usable details;
 * - region_blocked: the video is not available in the country YouTube sees, and gave no usable details;
 * - unreachable:    YouTube could not be reached at all (its name did not resolve, or the connection failed);
 * - upstream:       YouTube failed or answered unexpectedly (429, 5xx, other 4xx, timeout, non-JSON, unexpected
 *                   shape, an unknown playability status).
 */
export type VideoFailure =
  "not_found" | "private" | "members_only" | "age_restricted" | "region_blocked" | "unreachable" | "upstream";

export class VideoError extends Error {
  constructor(
    readonly failure: VideoFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "VideoError";
  }
}

export interface FetchVideoDetailsOptions {
  /**
   * The SSRF-safe outbound client every outbound call goes through (lib/outbound): the base URL is checked
   * like any other address, so a YOUTUBE_BASE_URL pointing at a private or loopback address is refused.
   */
  http: OutboundClient;
  /** Default https://www.youtube.com. */
  baseUrl?: string;
  /** Per attempt; default 8000. */
  timeoutMs?: number;
  /** The caller's cancellation; an aborted call fails with `upstream` and is not retried. */
  signal?: AbortSignal;
}

export const DEFAULT_YOUTUBE_BASE_URL = "https://www.youtube.com";
export const DEFAULT_TIMEOUT_MS = 8_000;
/** A player response is a few hundred kilobytes; a far larger answer is not one. */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** The public WEB client context YouTube's own web player sends. */
export const INNERTUBE_CLIENT = { clientName: "WEB", clientVersion: "2.20240101.00.00", hl: "en", gl: "US" } as const;

/**
 * Playability decisions:
 * - OK, and LIVE_STREAM_OFFLINE (an upcoming stream or premiere): map the details.
 * - ERROR: not_found (removed, unavailable, does not exist, or no videoDetails at all).
 * - LOGIN_REQUIRED with a reason about a private video: private (always, even if some details are present).
 * - ERROR / UNPLAYABLE / LOGIN_REQUIRED with the channel-membership offer (errorScreen
 *   playerLegacyDesktopYpcOfferRenderer or ypcOfferRenderer with offerId "sponsors_only_video") or a reason about
 *   members-only content ("Join this channel to get access to members-only content…"): members_only.
 * - LOGIN_REQUIRED / AGE_VERIFICATION_REQUIRED / AGE_CHECK_REQUIRED / CONTENT_CHECK_REQUIRED / UNPLAYABLE asking to
 *   confirm the viewer's age: age_restricted; UNPLAYABLE "not available in your country": region_blocked.
 *   For these three the restriction is on playback, not on the public metadata: when the response still carries
 *   complete details (every field we map), they are returned; otherwise the failure is thrown.
 * - Anything else (another status or reason, e.g. a bot check): upstream.
 */
export async function fetchVideoDetails(videoId: string, options: FetchVideoDetailsOptions): Promise<VideoDetails> {
  try {
    if (!isVideoId(videoId)) throw new VideoError("not_found", "not a valid video id");
    const body = await requestPlayer(videoId, options);
    return interpret(videoId, body);
  } catch (error) {
    if (error instanceof VideoError) throw error;
    throw new VideoError("upstream", "video details could not be fetched", { cause: error });
  }
}

/** Marks a failed attempt that may be retried once (network error, timeout, 5xx). */
class RetryableError extends VideoError {}

async function requestPlayer(videoId: string, options: FetchVideoDetailsOptions): Promise<unknown> {
  try {
    return await attempt(videoId, options);
  } catch (error) {
    if (!(error instanceof RetryableError) || options.signal?.aborted) throw plain(error);
  }
  try {
    return await attempt(videoId, options);
  } catch (error) {
    throw plain(error);
  }
}

function plain(error: unknown): VideoError {
  if (error instanceof RetryableError) return new VideoError(error.failure, error.message, { cause: error.cause });
  if (error instanceof VideoError) return error;
  return new VideoError("upstream", "video details could not be fetched", { cause: error });
}

async function attempt(videoId: string, options: FetchVideoDetailsOptions): Promise<unknown> {
  const baseUrl = (options.baseUrl ?? DEFAULT_YOUTUBE_BASE_URL).replace(/\/+$/, "");

  let response: OutboundResponse;
  try {
    response = await options.http.request(`${baseUrl}/youtubei/v1/player?prettyPrint=false`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ videoId, context: { client: { ...INNERTUBE_CLIENT } } }),
      // A redirect is not an answer we understand: the 3xx itself comes back and fails below.
      maxRedirects: 0,
      maxBytes: MAX_RESPONSE_BYTES,
      overflow: "error",
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw new VideoError("upstream", "video details request aborted", { cause: error });
    // Refused (a blocked address or URL) or too large: trying again cannot help.
    if (error instanceof OutboundRefusedError)
      throw new VideoError("upstream", "video details request refused", { cause: error });
    if (error instanceof OutboundError && error.reason === "too_large")
      throw new VideoError("upstream", "video details answer too large", { cause: error });
    if (error instanceof OutboundError && error.reason === "timeout")
      throw new RetryableError("upstream", "video details request timed out", { cause: error });
    // No answer at all (DNS, refused or reset connection, failed TLS): YouTube is unreachable from here, not misbehaving.
    if (error instanceof OutboundError && ["dns", "connect", "tls"].includes(error.reason))
      throw new RetryableError("unreachable", "YouTube could not be reached", { cause: error });
    throw new RetryableError("upstream", "video details request failed", { cause: error });
  }

  const { status } = response;
  if (status >= 500) throw new RetryableError("upstream", `video details upstream answered ${status}`);
  if (status === 429) throw new VideoError("upstream", "video details upstream is rate limiting");
  if (status < 200 || status >= 300) throw new VideoError("upstream", `video details upstream answered ${status}`);
  try {
    return JSON.parse(response.text()) as unknown;
  } catch (error) {
    throw new VideoError("upstream", "video details upstream answered with something other than JSON", {
      cause: error,
    });
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectAt(value: unknown, ...path: string[]): Json | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return isObject(current) ? current : undefined;
}

/** All human-readable reason text of a playability status, lower-cased. */
function reasonText(status: Json): string {
  const parts: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === "string") parts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (isObject(value)) {
      if (typeof value.simpleText === "string") parts.push(value.simpleText);
      if (Array.isArray(value.runs))
        for (const run of value.runs) if (isObject(run) && typeof run.text === "string") parts.push(run.text);
    }
  };
  collect(status.reason);
  collect(status.messages);
  const error = objectAt(status, "errorScreen", "playerErrorMessageRenderer");
  if (error) {
    collect(error.reason);
    collect(error.subreason);
  }
  for (const offer of membershipOffers(status)) {
    collect(offer.itemTitle);
    collect(offer.offerDescription);
  }
  return parts.join(" ").toLowerCase();
}

/** The paid-content offers of an error screen (the desktop player's and the generic renderer). */
function membershipOffers(status: Json): Json[] {
  return [
    objectAt(status, "errorScreen", "playerLegacyDesktopYpcOfferRenderer"),
    objectAt(status, "errorScreen", "ypcOfferRenderer"),
  ].filter((offer): offer is Json => offer !== undefined);
}

const MEMBERS_ONLY_OFFER_ID = "sponsors_only_video";

function isMembersOnly(status: string, playability: Json, reason: string): boolean {
  if (!["ERROR", "UNPLAYABLE", "LOGIN_REQUIRED"].includes(status)) return false;
  if (membershipOffers(playability).some((offer) => offer.offerId === MEMBERS_ONLY_OFFER_ID)) return true;
  // Anonymous clients sometimes get only the prose, in either of YouTube's wordings (plain or with a level).
  return /members-only content|channel's members on level/.test(reason);
}

/** A restriction on playback rather than on the public details, or undefined when the status is no such one. */
function playbackRestriction(status: string, playability: Json, reason: string): RestrictedFailure | undefined {
  if (isMembersOnly(status, playability, reason)) return "members_only";
  if (
    ["AGE_VERIFICATION_REQUIRED", "AGE_CHECK_REQUIRED", "CONTENT_CHECK_REQUIRED"].includes(status) ||
    ((status === "LOGIN_REQUIRED" || status === "UNPLAYABLE") &&
      /confirm your age|age-restricted|age restricted|inappropriate for some users/.test(reason))
  )
    return "age_restricted";
  if (
    status === "UNPLAYABLE" &&
    /not available in your country|not made this video available in your country|your country/.test(reason)
  )
    return "region_blocked";
  return undefined;
}

type RestrictedFailure = Extract<VideoFailure, "members_only" | "age_restricted" | "region_blocked">;

const RESTRICTION_MESSAGES: Record<RestrictedFailure, string> = {
  members_only: "video is for channel members only",
  age_restricted: "video is age restricted",
  region_blocked: "video is not available in this region",
};

function interpret(videoId: string, body: unknown): VideoDetails {
  if (!isObject(body)) throw new VideoError("upstream", "unexpected video details shape");
  const playability = objectAt(body, "playabilityStatus");
  if (!playability || typeof playability.status !== "string")
    throw new VideoError("upstream", "unexpected video details shape");
  const status = playability.status;
  const reason = reasonText(playability);
  const hasDetails = isObject(body.videoDetails);

  if (status === "OK" || status === "LIVE_STREAM_OFFLINE") return mapDetails(videoId, body, playability, reason);

  if (status === "LOGIN_REQUIRED" && reason.includes("private")) throw new VideoError("private", "video is private");

  const restriction = playbackRestriction(status, playability, reason);
  if (restriction) {
    if (hasDetails) {
      try {
        return mapDetails(videoId, body, playability, reason);
      } catch {
        // Partial details: report the restriction itself.
      }
    }
    throw new VideoError(restriction, RESTRICTION_MESSAGES[restriction]);
  }

  if (status === "ERROR") {
    if (!hasDetails || /unavailable|does not exist|removed|terminated|no longer available/.test(reason)) {
      throw new VideoError("not_found", "video not found");
    }
    throw new VideoError("upstream", "video details upstream reported an error");
  }
  throw new VideoError("upstream", "video details are not available");
}

function shapeError(field: string): VideoError {
  return new VideoError("upstream", `unexpected video details shape (${field})`);
}

function requiredString(object: Json, key: string): string {
  const value = object[key];
  if (typeof value !== "string") throw shapeError(key);
  return value;
}

function digits(object: Json, key: string, fallback?: string): string {
  const value = object[key] ?? fallback;
  if (typeof value !== "string" || !/^\d{1,16}$/.test(value)) throw shapeError(key);
  return value;
}

function mapDetails(videoId: string, body: Json, playability: Json, reason: string): VideoDetails {
  const details = objectAt(body, "videoDetails");
  if (!details) throw shapeError("videoDetails");
  const micro = objectAt(body, "microformat", "playerMicroformatRenderer");
  if (!micro) throw shapeError("microformat");

  const id = requiredString(details, "videoId");
  if (id !== videoId) throw shapeError("videoId");
  const isLiveContent = details.isLiveContent === true;
  if (details.isLiveContent !== undefined && typeof details.isLiveContent !== "boolean")
    throw shapeError("isLiveContent");

  const broadcast = objectAt(micro, "liveBroadcastDetails");
  const isLiveNow = broadcast?.isLiveNow === true || details.isLive === true;
  const scheduledStart =
    typeof broadcast?.startTimestamp === "string" ||
    typeof objectAt(
      playability,
      "liveStreamability",
      "liveStreamabilityRenderer",
      "offlineSlate",
      "liveStreamOfflineSlateRenderer",
    )?.scheduledStartTime === "string";
  const ended = typeof broadcast?.endTimestamp === "string";
  const upcoming =
    !isLiveNow &&
    (details.isUpcoming === true || (playability.status === "LIVE_STREAM_OFFLINE" && scheduledStart && !ended));

  const lengthSeconds = digits(details, "lengthSeconds", upcoming || isLiveNow ? "0" : undefined);
  const viewCount = digits(details, "viewCount", upcoming ? "0" : undefined);

  const rawDate = micro.publishDate ?? micro.uploadDate;
  if (typeof rawDate !== "string") throw shapeError("publishDate");
  const date = /^(\d{4}-\d{2}-\d{2})(?:$|T)/.exec(rawDate)?.[1];
  if (!date) throw shapeError("publishDate");

  const description = details.shortDescription ?? "";
  if (typeof description !== "string") throw shapeError("shortDescription");

  const rawKeywords = details.keywords ?? [];
  if (!Array.isArray(rawKeywords) || !rawKeywords.every((keyword) => typeof keyword === "string"))
    throw shapeError("keywords");

  const rawThumbnails = objectAt(details, "thumbnail")?.thumbnails;
  if (!Array.isArray(rawThumbnails)) throw shapeError("thumbnails");
  const thumbnails = rawThumbnails.map((thumbnail): VideoThumbnail => {
    if (
      !isObject(thumbnail) ||
      typeof thumbnail.url !== "string" ||
      !Number.isInteger(thumbnail.width) ||
      !Number.isInteger(thumbnail.height)
    ) {
      throw shapeError("thumbnails");
    }
    return { url: thumbnail.url, width: thumbnail.width as number, height: thumbnail.height as number };
  });

  let type: VideoType;
  if (isLiveNow) type = "live";
  else if (upcoming) type = !isLiveContent || /premiere/.test(reason) ? "premiere" : "upcoming";
  else if (isShort(micro, Number(lengthSeconds))) type = "short";
  else type = "video";

  return {
    video_id: id,
    title: requiredString(details, "title"),
    author: requiredString(details, "author"),
    number_of_views: Number(viewCount),
    video_length: lengthSeconds,
    description,
    is_live_content: isLiveContent ? "True" : "False",
    published_time: date,
    channel_id: requiredString(details, "channelId"),
    category: requiredString(micro, "category"),
    type,
    keywords: rawKeywords as string[],
    thumbnails,
  };
}

const SHORTS_MAX_SECONDS = 180;

function isShort(micro: Json, lengthSeconds: number): boolean {
  if (lengthSeconds <= 0 || lengthSeconds > SHORTS_MAX_SECONDS) return false;
  if (micro.isShortsEligible === true) return true;
  const embed = objectAt(micro, "embed");
  return typeof embed?.width === "number" && typeof embed.height === "number" && embed.height > embed.width;
}
