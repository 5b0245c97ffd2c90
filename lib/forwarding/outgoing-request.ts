import { createHmac, randomBytes } from "node:crypto";
import { headersToForward, isHopByHopHeader } from "@/lib/contracts/forwarded-headers";

/*
 * What a destination receives for a stored delivery (README "Forwarding: what a destination receives"):
 *
 *   const request = buildOutgoingRequest(delivery, destination, new Date());
 *   await forwardClientFromEnv().sendWebhook({ ...request, timeoutMs: destination.timeoutMs });
 *
 * - the exact body bytes as they arrived (still in the sender's content-encoding, which travels with them);
 * - the sender's headers, minus hop-by-hop and framing ones (they described the sender's connection to us, not ours
 *   to the destination) and minus the sender's own `webhook-id`/`-timestamp`/`-signature`: ours replace them, since a
 *   receiver cannot tell two signatures in one header apart (the original sender's other headers, `stripe-signature`
 *   or `x-hub-signature-256`, travel untouched, so a receiver can still check the sender too);
 * - then the destination's own headers (`authorization` for the receiver, say), which win over the sender's;
 * - then Standard Webhooks headers (standardwebhooks.com): `webhook-id` (the delivery id, the same on every retry and
 *   replay, so a receiver can deduplicate), `webhook-timestamp` (seconds, at send time) and `webhook-signature`
 *   (`v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.` followed by the body bytes, keyed with the base64-decoded
 *   part of the destination's `whsec_` secret).
 */

/** The stored delivery, as lib/inbox keeps it. */
export interface ForwardedDelivery {
  id: string;
  /** The exact request bytes (`raw_body`). */
  body: Uint8Array;
  contentType: string | null;
  /** The sender's request headers: lower-case names, repeated ones joined with ", ". */
  headers: Record<string, string>;
}

export interface ForwardingDestination {
  url: string;
  /** Extra headers, checked with `destinationHeaderProblems` when the destination was saved. */
  headers: Record<string, string>;
  /** `whsec_` + base64 (`newDestinationSecret`). */
  secret: string;
}

/** What `sendWebhook` takes, less the time limit. */
export interface OutgoingRequest {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
}

const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 24;

/** The headers we set to sign what we send. */
const SIGNATURE_HEADERS: ReadonlySet<string> = new Set(["webhook-id", "webhook-timestamp", "webhook-signature"]);

/** RFC 9110 §5.6.2 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/i;
/** Visible characters, spaces and tabs (Latin-1 obs-text included): no CR, LF or other controls. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The request for one attempt to deliver `delivery` to `destination`, signed at `now`. */
export function buildOutgoingRequest(
  delivery: ForwardedDelivery,
  destination: ForwardingDestination,
  now: Date,
): OutgoingRequest {
  const body = Buffer.from(delivery.body.buffer, delivery.body.byteOffset, delivery.body.byteLength);
  const headers = headersToForward(delivery.headers);
  for (const name of SIGNATURE_HEADERS) delete headers[name];
  if (headers["content-type"] === undefined && delivery.contentType !== null)
    headers["content-type"] = delivery.contentType;
  for (const [name, value] of Object.entries(destination.headers)) {
    const lower = name.toLowerCase();
    // Checked when the destination was saved; skipped here too, so framing and our signature stay ours.
    if (headerProblem(lower, value) === undefined) headers[lower] = value;
  }
  const timestamp = Math.floor(now.getTime() / 1000);
  headers["webhook-id"] = delivery.id;
  headers["webhook-timestamp"] = String(timestamp);
  headers["webhook-signature"] = signWebhook({ id: delivery.id, timestamp, body, secret: destination.secret });
  return { url: destination.url, body, headers };
}

/** `v1,<base64>`: HMAC-SHA256 over `${id}.${timestamp}.` and the body bytes (Standard Webhooks, over bytes). */
export function signWebhook(input: { id: string; timestamp: number; body: Uint8Array; secret: string }): string {
  const hmac = createHmac("sha256", signingKey(input.secret));
  hmac.update(`${input.id}.${input.timestamp}.`);
  hmac.update(input.body);
  return `v1,${hmac.digest("base64")}`;
}

/** A new signing secret: `whsec_` + base64 of 24 random bytes (192 bits), the form Standard Webhooks libraries read. */
export function newDestinationSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** Why each of a destination's extra headers cannot be saved; empty when all can. */
export function destinationHeaderProblems(headers: Record<string, string>): string[] {
  return Object.entries(headers).flatMap(([name, value]) => {
    const problem = headerProblem(name.toLowerCase(), value);
    return problem === undefined ? [] : [`header "${name}" ${problem}`];
  });
}

function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "is not a valid header name";
  if (isHopByHopHeader(name)) return "is set by the connection and cannot be configured";
  if (SIGNATURE_HEADERS.has(name)) return "is set by Signalbox to sign each request";
  if (!HEADER_VALUE.test(value)) return "has a value with control characters or characters beyond Latin-1";
  return undefined;
}

/** The HMAC key: the base64 after `whsec_`. A secret without the prefix is read as base64 too, as the libraries do. */
function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("the destination's signing secret is empty");
  return key;
}
