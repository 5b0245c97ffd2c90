import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_SCHEMES = ["standard-webhooks", "stripe", "github", "shopify", "slack"] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];
export type SignatureFailure =
  "missing_header" | "malformed_header" | "timestamp_out_of_tolerance" | "mismatch" | "invalid_secret";
export interface SignatureResult {
  scheme: SignatureScheme;
  valid: boolean;
  reason: SignatureFailure | null;
}
export interface VerifySignatureOptions {
  scheme: SignatureScheme;
  secret: string;
  /** The exact request body bytes. */
  body: Uint8Array;
  /** Request headers with lower-cased names, values as received. */
  headers: Record<string, string>;
  /** Defaults to the current time; tests pass a fixed one. */
  now?: Date;
  /** Allowed clock skew for timestamped schemes; default 300 s. */
  toleranceSeconds?: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const WHSEC_PREFIX = "whsec_";
// Strict: the signatures and Standard Webhooks secrets we read are padded standard base64.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
// 15 digits stay exact as a double; a longer "timestamp" is garbage, not a time.
const UNIX_SECONDS = /^[0-9]{1,15}$/;

interface Context {
  secret: string;
  body: Uint8Array;
  headers: Record<string, string>;
  nowSeconds: number;
  toleranceSeconds: number;
}

/**
 * Checks a delivery's signature the way its sender documents it. Never throws: hostile headers and unusable secrets
 * become a failed result with a reason. When the signature matches but the timestamp is stale, the reason is
 * `timestamp_out_of_tolerance`, so that reason always means "authentic but too old or too new" (a replay), never forged.
 */
export function verifySignature(options: VerifySignatureOptions): SignatureResult {
  const context: Context = {
    secret: options.secret,
    body: options.body,
    headers: options.headers,
    nowSeconds: Math.floor((options.now ?? new Date()).getTime() / 1000),
    toleranceSeconds: options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
  };
  const reason = options.secret === "" ? "invalid_secret" : CHECKS[options.scheme](context);
  return { scheme: options.scheme, valid: reason === null, reason };
}

/** Checks a secret's format for a scheme when an endpoint is configured; returns a message or null. */
export function secretProblem(scheme: SignatureScheme, secret: string): string | null {
  if (secret === "") return "The signing secret is empty.";
  // Almost always a copy-paste accident, and it silently breaks every signature.
  if (secret.trim() !== secret) return "The signing secret starts or ends with whitespace.";
  if (scheme === "standard-webhooks" && standardWebhooksKey(secret) === null) {
    return "A Standard Webhooks secret is base64, optionally prefixed with whsec_.";
  }
  if (scheme === "stripe" && !secret.startsWith(WHSEC_PREFIX)) {
    return "A Stripe signing secret starts with whsec_ (it is the endpoint's secret, not an API key).";
  }
  return null;
}

const CHECKS: Record<SignatureScheme, (context: Context) => SignatureFailure | null> = {
  "standard-webhooks": checkStandardWebhooks,
  stripe: checkStripe,
  github: checkGitHub,
  shopify: checkShopify,
  slack: checkSlack,
};

// https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (Svix uses svix- names)
function checkStandardWebhooks(context: Context): SignatureFailure | null {
  const key = standardWebhooksKey(context.secret);
  if (key === null) return "invalid_secret";
  // A sender uses one naming; prefer the standard one as soon as any of its headers is present.
  const prefix = ["id", "timestamp", "signature"].some((name) => `webhook-${name}` in context.headers)
    ? "webhook-"
    : "svix-";
  const id = header(context, `${prefix}id`);
  const timestamp = header(context, `${prefix}timestamp`);
  const signature = header(context, `${prefix}signature`);
  if (id === null || timestamp === null || signature === null) return "missing_header";
  const candidates = signature
    .split(" ")
    .map((entry) => splitOnce(entry, ","))
    .filter(([version, value]) => version === "v1" && BASE64_SHA256.test(value))
    .map(([, value]) => Buffer.from(value, "base64"));
  if (!UNIX_SECONDS.test(timestamp) || candidates.length === 0) return "malformed_header";
  const expected = hmacSha256(key, `${id}.${timestamp}.`, context.body);
  return judge(context, expected, candidates, timestamp);
}

// https://docs.stripe.com/webhooks#verify-manually
function checkStripe(context: Context): SignatureFailure | null {
  const signature = header(context, "stripe-signature");
  if (signature === null) return "missing_header";
  const timestamps: string[] = [];
  const candidates: Buffer[] = [];
  for (const item of signature.split(",")) {
    const [key, value] = splitOnce(item.trim(), "=");
    if (key === "t") timestamps.push(value);
    else if (key === "v1" && HEX_SHA256.test(value)) candidates.push(Buffer.from(value, "hex"));
  }
  // Two t= values would leave the signed payload ambiguous.
  const timestamp = timestamps.length === 1 ? timestamps[0] : undefined;
  if (timestamp === undefined || !UNIX_SECONDS.test(timestamp) || candidates.length === 0) return "malformed_header";
  // The whsec_… string itself is the key; Stripe does not decode it.
  const expected = hmacSha256(context.secret, `${timestamp}.`, context.body);
  return judge(context, expected, candidates, timestamp);
}

// https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries
function checkGitHub(context: Context): SignatureFailure | null {
  const signature = header(context, "x-hub-signature-256");
  if (signature === null) return "missing_header";
  const [algorithm, hex] = splitOnce(signature, "=");
  if (algorithm !== "sha256" || !HEX_SHA256.test(hex)) return "malformed_header";
  return judge(context, hmacSha256(context.secret, context.body), [Buffer.from(hex, "hex")], null);
}

// https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify
function checkShopify(context: Context): SignatureFailure | null {
  const signature = header(context, "x-shopify-hmac-sha256");
  if (signature === null) return "missing_header";
  if (!BASE64_SHA256.test(signature)) return "malformed_header";
  return judge(context, hmacSha256(context.secret, context.body), [Buffer.from(signature, "base64")], null);
}

// https://docs.slack.dev/authentication/verifying-requests-from-slack
function checkSlack(context: Context): SignatureFailure | null {
  const signature = header(context, "x-slack-signature");
  const timestamp = header(context, "x-slack-request-timestamp");
  if (signature === null || timestamp === null) return "missing_header";
  const [version, hex] = splitOnce(signature, "=");
  if (version !== "v0" || !HEX_SHA256.test(hex) || !UNIX_SECONDS.test(timestamp)) return "malformed_header";
  const expected = hmacSha256(context.secret, `v0:${timestamp}:`, context.body);
  return judge(context, expected, [Buffer.from(hex, "hex")], timestamp);
}

/** The HMAC key for a Standard Webhooks secret, or null when the secret cannot be one. */
function standardWebhooksKey(secret: string): Buffer | null {
  const encoded = secret.startsWith(WHSEC_PREFIX) ? secret.slice(WHSEC_PREFIX.length) : secret;
  if (encoded === "" || !BASE64.test(encoded)) return null;
  return Buffer.from(encoded, "base64");
}

function header(context: Context, name: string): string | null {
  const value = context.headers[name]?.trim();
  return value ? value : null;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, ""] : [text.slice(0, at), text.slice(at + separator.length)];
}

/** HMAC-SHA256 over the parts in order; the body goes in as bytes so non-UTF-8 bodies are signed exactly. */
function hmacSha256(key: string | Buffer, ...parts: (string | Uint8Array)[]): Buffer {
  const hmac = createHmac("sha256", key);
  for (const part of parts) hmac.update(part);
  return hmac.digest();
}

/** The signature is checked before the timestamp, see `verifySignature`. */
function judge(
  context: Context,
  expected: Buffer,
  candidates: Buffer[],
  timestamp: string | null,
): SignatureFailure | null {
  if (!candidates.some((candidate) => constantTimeEqual(expected, candidate))) return "mismatch";
  if (timestamp !== null && Math.abs(context.nowSeconds - Number(timestamp)) > context.toleranceSeconds) {
    return "timestamp_out_of_tolerance";
  }
  return null;
}

function constantTimeEqual(a: Buffer, b: Buffer): boolean {
  // Digest lengths are public, so checking them first leaks nothing about the content.
  return a.length === b.length && timingSafeEqual(a, b);
}
