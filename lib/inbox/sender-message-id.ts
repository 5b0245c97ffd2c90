import { createHash } from "node:crypto";

/**
 * Headers in which senders put an id that stays the same when they retry a message, in order of preference.
 * A repeat of the same id on the same endpoint is a retry: it gets the first delivery's id and is not stored again.
 */
export const SENDER_MESSAGE_ID_HEADERS = [
  "webhook-id", // Standard Webhooks
  "svix-id", // Svix (Clerk, Resend, …)
  "idempotency-key", // IETF draft, GitLab
  "x-idempotency-key",
  "x-github-delivery", // GitHub
  "x-shopify-webhook-id", // Shopify
  "x-shopify-event-id",
  "x-twilio-idempotency-token", // Twilio
  "x-gitlab-event-uuid", // GitLab
] as const;

const MAX_STORED_LENGTH = 200;

/** The dedup key of a request: `<header>:<value>` (hashed when long), or null when the sender gave no message id. */
export function senderMessageId(headers: Record<string, string>): string | null {
  for (const name of SENDER_MESSAGE_ID_HEADERS) {
    const value = headers[name]?.trim();
    if (!value) continue;
    const key = `${name}:${value}`;
    return key.length <= MAX_STORED_LENGTH ? key : `${name}:sha256:${createHash("sha256").update(value).digest("hex")}`;
  }
  return null;
}
