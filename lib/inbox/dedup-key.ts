import { createHash } from "node:crypto";
import { senderMessageId } from "./sender-message-id";
import type { SignatureResult } from "./signatures";

/**
 * The claim a delivery makes in its endpoint's dedup index (`dedup_key`, unique per endpoint), or null for none. A
 * later request with the same claim is a retry: it is answered with the first delivery's id and not stored again.
 *
 * - No signature checking on the endpoint: the sender's message id, as before; anyone with the URL is the sender.
 * - Signature failed: no claim. Anyone can send such a request, so it must never take a message id away from the
 *   sender who can sign it (forged first), nor be answered with that sender's delivery (forged after). It is stored
 *   as a delivery of its own, marked `valid: false`, every time it is sent.
 * - Signature verified: the message id together with the SHA-256 of the body. Only Standard Webhooks signs the id;
 *   the others sign the body alone, so a genuine body replayed under another message id verifies too, and binding
 *   the claim to the signed bytes keeps it from taking that id. A sender's retry repeats its body, so it still
 *   matches. The `verified:` prefix keeps these apart from the claims made while an endpoint checked nothing.
 */
export function dedupKey(
  headers: Record<string, string>,
  body: Uint8Array,
  signature: SignatureResult | null,
): string | null {
  const messageId = senderMessageId(headers);
  if (messageId === null || signature === null) return messageId;
  if (!signature.valid) return null;
  return `verified:${messageId}:body-sha256:${createHash("sha256").update(body).digest("hex")}`;
}
