/**
 * Why a vendor call failed, in our words. The waterfall skips a provider whatever the reason; the reason says whether
 * trying again later can help (`rate_limited`, `unavailable`, `timeout`) or an operator must act (`unauthorized`,
 * `quota`), and is what logs and metrics group by.
 */
export type VendorFailure =
  /** The key was refused (401/403): no retry until the operator fixes it. */
  | "unauthorized"
  /** The account is out of credits (402). */
  | "quota"
  /** Too many requests (429) and the wait it asked for was longer than we could afford. */
  | "rate_limited"
  /** Any other 4xx: our request was refused as it stands. */
  | "rejected"
  /** A redirect: vendor APIs do not redirect, and following one would send the key elsewhere. */
  | "redirected"
  /** 5xx, or the network failed, on every attempt. */
  | "unavailable"
  | "timeout"
  /** The caller went away. */
  | "aborted"
  /** The answer was larger than any answer of that API can be. */
  | "too_large"
  /** The answer was not JSON, or not the documented shape. */
  | "invalid_body"
  /** The outbound client would not make the request (address or URL policy). */
  | "refused";

/**
 * A failed vendor call. Messages are neutral ("upstream answered 429"): they never name the vendor, repeat its wording
 * or carry the key, so the error can be logged or surfaced anywhere. The underlying failure, when there is one, stays
 * in `cause` for the server's own logs.
 */
export class VendorError extends Error {
  readonly reason: VendorFailure;
  /** The HTTP status of a non-2xx answer. */
  readonly status?: number;
  /** Set when the vendor said how long to wait before trying again. */
  readonly retryAfterSeconds?: number;

  constructor(
    reason: VendorFailure,
    message: string,
    options: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "VendorError";
    this.reason = reason;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
