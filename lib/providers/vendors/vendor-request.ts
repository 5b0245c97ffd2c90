import { parseRetryAfter } from "@/lib/outbound/retry-after";
import { OutboundError, OutboundRefusedError, type OutboundClient, type OutboundResponse } from "@/lib/outbound/types";
import { VendorError } from "./vendor-error";

/*
 * The one way an adapter calls a vendor's JSON API: through the SSRF-safe outbound client, with redirects off (a
 * redirect would carry the key to wherever it points), a body cap that refuses rather than truncates, and the retry
 * policy every vendor gets: a 429 is retried once when the wait it asks for is short and the call still has time; a
 * 5xx, a network failure or a timed-out attempt is retried once, quickly; everything else fails at once. A vendor
 * whose documentation gives a status another meaning (a 403 for its rate limit) says so through `statusMeaning`.
 */

/** Long enough for an answer of any JSON API we call; anything larger is not buffered. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;
/** The waterfall's default per-provider limit: the whole call, retries and waits included, fits in it. */
export const DEFAULT_VENDOR_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_WAIT_MS = 2_000;
const DEFAULT_ATTEMPTS = 2;
/** The pause before retrying a 5xx or a network failure: a blip, not an outage, is what a retry can fix. */
const QUICK_RETRY_MS = 200;
/** A retry is not started with less time than this left: it could only time out, and it may cost a credit. */
const MIN_ATTEMPT_MS = 500;

export interface VendorRequest {
  http: OutboundClient;
  url: string | URL;
  method?: "GET" | "POST";
  /** The key goes here wherever the vendor allows it; `accept: application/json` is added unless given. */
  headers: Record<string, string>;
  body?: string;
  /** The caller's signal (the waterfall aborts it when the provider's time is up or the request went away). */
  signal: AbortSignal;
  /** The whole call, retries and waits included; default 10 s. */
  timeoutMs?: number;
  /** Default 4 MiB; a larger answer is refused. */
  maxBytes?: number;
  retry?: {
    /** The longest Retry-After we wait for rather than fail; default 2 s. */
    maxWaitMs?: number;
    /** Attempts in all, the first included; default 2. */
    attempts?: number;
  };
  /** Seconds a 429 or 503 asks us to wait; default: the Retry-After header. For vendors that say it elsewhere. */
  retryAfter?: (headers: Headers) => number | undefined;
  /** Where a vendor documents a status with another meaning than HTTP's usual one (e.g. 403 for its rate limit). */
  statusMeaning?: StatusMeaning;
  /** The wait before retrying a rate-limited call that stated none; default: no retry (fail fast). */
  rateLimitBackoffMs?: number;
  /**
   * Values that must never leave in an error, such as a key a vendor only accepts in the URL: a failure whose cause
   * mentions one keeps a scrubbed copy of that cause instead.
   */
  secrets?: readonly string[];
}

/** A vendor-specific reading of a non-2xx status: `undefined` keeps the usual one. */
export type StatusMeaning = (
  status: number,
  retryAfterSeconds: number | undefined,
) => "rate_limited" | "quota" | undefined;

export type VendorAnswer =
  | { found: true; status: number; headers: Headers; body: unknown }
  /** 404: the vendor has no record for what we asked. An answer, not a failure. */
  | { found: false; status: 404 };

/** A failed attempt, and how long to wait before the next one when another attempt could help. */
interface Failure {
  error: VendorError;
  retryInMs?: number;
}

/** Calls a vendor JSON API; resolves with its parsed answer or "not found", rejects with a `VendorError`. */
export async function requestVendorJson(request: VendorRequest): Promise<VendorAnswer> {
  const { signal, secrets = [] } = request;
  const attempts = request.retry?.attempts ?? DEFAULT_ATTEMPTS;
  const maxWaitMs = request.retry?.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const deadline = performance.now() + (request.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS);

  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptOnce(request, Math.max(1, Math.floor(deadline - performance.now())));
    if (!("error" in outcome)) return outcome;
    const { error, retryInMs } = outcome;
    const canRetry =
      attempt < attempts &&
      retryInMs !== undefined &&
      retryInMs <= maxWaitMs &&
      deadline - performance.now() - retryInMs >= MIN_ATTEMPT_MS &&
      !signal.aborted;
    if (!canRetry) throw scrubbed(error, secrets);
    try {
      await sleep(retryInMs, signal);
    } catch {
      throw scrubbed(abortError(signal), secrets);
    }
  }
}

async function attemptOnce(request: VendorRequest, timeoutMs: number): Promise<VendorAnswer | Failure> {
  const { signal } = request;
  let response: OutboundResponse;
  try {
    response = await request.http.request(request.url, {
      method: request.method ?? "GET",
      headers: { accept: "application/json", ...request.headers },
      body: request.body,
      signal,
      maxBytes: request.maxBytes ?? DEFAULT_MAX_BYTES,
      overflow: "error",
      timeoutMs,
      maxRedirects: 0,
    });
  } catch (error) {
    return transportFailure(error, signal);
  }

  const { status, headers } = response;
  if (status === 404) return { found: false, status };
  if (status >= 200 && status < 300) {
    try {
      return { found: true, status, headers, body: response.json() };
    } catch (error) {
      return {
        error: new VendorError("invalid_body", "upstream answered with a body that is not JSON", {
          status,
          cause: error,
        }),
      };
    }
  }
  return statusFailure(request, status, (request.retryAfter ?? retryAfterHeader)(headers));
}

function statusFailure(request: VendorRequest, status: number, retryAfterSeconds: number | undefined): Failure {
  const message = `upstream answered ${status}`;
  const details = { status, retryAfterSeconds };
  const meaning = request.statusMeaning?.(status, retryAfterSeconds) ?? (status === 429 ? "rate_limited" : undefined);
  if (meaning === "rate_limited") {
    // No stated wait and no known window: another request now would most likely be refused too.
    const retryInMs = retryAfterSeconds === undefined ? request.rateLimitBackoffMs : retryAfterSeconds * 1000;
    return { error: new VendorError("rate_limited", message, details), retryInMs };
  }
  if (meaning === "quota") return { error: new VendorError("quota", message, details) };
  if (status >= 500) {
    const retryInMs = Math.max(QUICK_RETRY_MS, (retryAfterSeconds ?? 0) * 1000);
    return { error: new VendorError("unavailable", message, details), retryInMs };
  }
  if (status === 401 || status === 403) return { error: new VendorError("unauthorized", message, details) };
  if (status === 402) return { error: new VendorError("quota", message, details) };
  if (status >= 300 && status < 400) return { error: new VendorError("redirected", message, details) };
  return { error: new VendorError("rejected", message, details) };
}

/** A request that got no answer. Network errors name the host in their cause: it stays there, out of the message. */
function transportFailure(error: unknown, signal: AbortSignal): Failure {
  if (signal.aborted) return { error: abortError(signal) };
  if (error instanceof OutboundRefusedError)
    return { error: new VendorError("refused", "upstream request refused", { cause: error }) };
  if (error instanceof OutboundError) {
    switch (error.reason) {
      case "timeout":
        return {
          error: new VendorError("timeout", "upstream request timed out", { cause: error }),
          retryInMs: QUICK_RETRY_MS,
        };
      case "too_large":
        return { error: new VendorError("too_large", "upstream answer is too large", { cause: error }) };
      case "invalid_body":
        return {
          error: new VendorError("invalid_body", "upstream answered with a body that is not JSON", { cause: error }),
        };
      case "aborted":
        return { error: new VendorError("aborted", "upstream request aborted", { cause: error }) };
      case "dns":
      case "connect":
      case "tls":
      case "protocol":
        break;
    }
  }
  return {
    error: new VendorError("unavailable", "upstream request failed", { cause: error }),
    retryInMs: QUICK_RETRY_MS,
  };
}

/** The caller's signal fired: its own time limit (a TimeoutError) or the caller going away. */
function abortError(signal: AbortSignal): VendorError {
  const timedOut = signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
  return timedOut
    ? new VendorError("timeout", "upstream request timed out", { cause: signal.reason })
    : new VendorError("aborted", "upstream request aborted", { cause: signal.reason });
}

function retryAfterHeader(headers: Headers): number | undefined {
  return parseRetryAfter(headers.get("retry-after"));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The error itself when nothing in its cause chain mentions a secret; otherwise a copy whose cause is scrubbed. */
function scrubbed(error: VendorError, secrets: readonly string[]): VendorError {
  const present = secrets.filter((secret) => secret !== "");
  if (present.length === 0 || !mentionsAny(error.cause, present)) return error;
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const redact = (text: string) => present.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
  const safeCause = new Error(redact(cause?.message ?? "upstream failure"));
  safeCause.name = cause?.name ?? "Error";
  return new VendorError(error.reason, error.message, {
    status: error.status,
    retryAfterSeconds: error.retryAfterSeconds,
    cause: safeCause,
  });
}

function mentionsAny(value: unknown, secrets: readonly string[], depth = 0): boolean {
  if (value === undefined || value === null || depth > 5) return false;
  const text = value instanceof Error ? `${value.name} ${value.message} ${value.stack ?? ""}` : String(value);
  if (secrets.some((secret) => text.includes(secret))) return true;
  return value instanceof Error && mentionsAny(value.cause, secrets, depth + 1);
}
