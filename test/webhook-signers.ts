import { createHmac, randomUUID } from "node:crypto";
import { sign as signGitHub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import type { SignatureScheme } from "@/lib/inbox/signatures";

/** Signs webhook requests as one sender does: with the sender's own library, or per its docs where it has none. */
export interface WebhookSigner {
  scheme: SignatureScheme;
  secret: string;
  /** Another secret of a valid format for the scheme: what a forger without the real one signs with. */
  wrongSecret: string;
  /** The header carrying the signature. */
  signatureHeader: string;
  /** The header carrying the sender's message id, the one a retry repeats. */
  messageIdHeader: string;
  /** Headers for `body` as message `messageId` (fresh when omitted), signed with `secret` (the sender's by default). */
  sign: (body: string, options?: { messageId?: string; secret?: string }) => Promise<Record<string, string>>;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

const STANDARD_WEBHOOKS_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const STRIPE_SECRET = "whsec_8a3bK2pQ9xR4tL7mN1vC6zY0wE5uH3jF";
const GITHUB_SECRET = "It's a Secret to Everybody";
const SHOPIFY_SECRET = "shpss_0123456789abcdef0123456789abcdef";
const SLACK_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";

export const WEBHOOK_SIGNERS: WebhookSigner[] = [
  {
    scheme: "standard-webhooks",
    secret: STANDARD_WEBHOOKS_SECRET,
    wrongSecret: "whsec_Zm9yZ2VkIGJ5IHNvbWVvbmUgZWxzZQ==",
    signatureHeader: "webhook-signature",
    // The only scheme whose signature covers the message id.
    messageIdHeader: "webhook-id",
    sign: async (body, { messageId = `msg_${randomUUID()}`, secret = STANDARD_WEBHOOKS_SECRET } = {}) => {
      const at = new Date(nowSeconds() * 1000);
      const signature = new Webhook(secret).sign(messageId, at, body);
      return {
        "webhook-id": messageId,
        "webhook-timestamp": String(at.getTime() / 1000),
        "webhook-signature": signature,
      };
    },
  },
  {
    scheme: "stripe",
    secret: STRIPE_SECRET,
    wrongSecret: "whsec_forgedforgedforgedforgedforged",
    signatureHeader: "stripe-signature",
    // Stripe sends no message id header; a relay in front of the inbox may add an idempotency key.
    messageIdHeader: "idempotency-key",
    sign: async (body, { messageId = `evt_${randomUUID()}`, secret = STRIPE_SECRET } = {}) => ({
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: body, secret }),
      "idempotency-key": messageId,
    }),
  },
  {
    scheme: "github",
    secret: GITHUB_SECRET,
    wrongSecret: "not the secret",
    signatureHeader: "x-hub-signature-256",
    messageIdHeader: "x-github-delivery",
    sign: async (body, { messageId = randomUUID(), secret = GITHUB_SECRET } = {}) => ({
      "x-hub-signature-256": await signGitHub(secret, body),
      "x-github-delivery": messageId,
    }),
  },
  {
    // Per shopify.dev: X-Shopify-Hmac-SHA256 = base64(HMAC-SHA256(client secret, raw body)).
    scheme: "shopify",
    secret: SHOPIFY_SECRET,
    wrongSecret: "shpss_forgedforgedforgedforgedforged",
    signatureHeader: "x-shopify-hmac-sha256",
    messageIdHeader: "x-shopify-webhook-id",
    sign: async (body, { messageId = randomUUID(), secret = SHOPIFY_SECRET } = {}) => ({
      "x-shopify-hmac-sha256": createHmac("sha256", secret).update(body).digest("base64"),
      "x-shopify-webhook-id": messageId,
      "x-shopify-topic": "orders/create",
    }),
  },
  {
    // Per docs.slack.dev: X-Slack-Signature = "v0=" + hex(HMAC-SHA256(secret, `v0:${timestamp}:` + raw body)).
    scheme: "slack",
    secret: SLACK_SECRET,
    wrongSecret: "00000000000000000000000000000000",
    signatureHeader: "x-slack-signature",
    // Slack sends no message id header either.
    messageIdHeader: "idempotency-key",
    sign: async (body, { messageId = randomUUID(), secret = SLACK_SECRET } = {}) => {
      const timestamp = String(nowSeconds());
      const digest = createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex");
      return {
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": `v0=${digest}`,
        "idempotency-key": messageId,
      };
    },
  },
];

export const signerFor = (scheme: SignatureScheme): WebhookSigner =>
  WEBHOOK_SIGNERS.find((signer) => signer.scheme === scheme)!;
