import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/api/errors";
import { db } from "@/lib/db/client";
import { toRawPayload } from "./payload";
import { senderMessageId } from "./sender-message-id";
import { verifySignature, type SignatureResult } from "./signatures";
import { toSignatureSchemeName } from "./webhook-endpoints";

export interface IngestDeliveryOptions {
  hookId: string;
  /** Request headers: lower-cased names, values as received. */
  headers: Record<string, string>;
  /** Reads the exact request bytes (bounded by MAX_DELIVERY_BYTES); called only once the endpoint is known. */
  readBody: () => Promise<Buffer>;
  sourceIp: string;
  /** Query string without the leading "?". */
  query: string;
}

export interface IngestedDelivery {
  deliveryId: string;
  /** True when the sender's message id was seen before on this endpoint: nothing new was stored. */
  duplicate: boolean;
}

const notFound = () => new ApiError("not_found", "No webhook endpoint at this address.");

function isForeignKeyViolation(error: unknown): boolean {
  return /23503|foreign key/i.test(`${(error as { code?: string }).code ?? ""} ${(error as { meta?: { code?: string } }).meta?.code ?? ""} ${String(error)}`);
}

/**
 * Stores one webhook request as a pending delivery and returns its id once the row is committed. Unknown or
 * disabled endpoints → 404; an invalid signature on an endpoint that rejects them → 401; a repeated sender message
 * id → the first delivery's id, nothing stored (also under concurrent duplicates, via the unique index).
 */
export async function ingestDelivery(options: IngestDeliveryOptions): Promise<IngestedDelivery> {
  if (!/^we_[0-9A-Za-z]{1,64}$/.test(options.hookId)) throw notFound();
  const endpoint = await db().webhookEndpoint.findUnique({
    where: { id: options.hookId },
    select: { id: true, workspaceId: true, enabled: true, signingScheme: true, signingSecret: true, rejectInvalidSignatures: true },
  });
  if (!endpoint?.enabled) throw notFound();

  const body = await options.readBody();
  const { headers } = options;
  let signature: SignatureResult | null = null;
  if (endpoint.signingScheme && endpoint.signingSecret) {
    signature = verifySignature({ scheme: toSignatureSchemeName(endpoint.signingScheme), secret: endpoint.signingSecret, body, headers });
    if (!signature.valid && endpoint.rejectInvalidSignatures) {
      throw new ApiError("unauthorized", `Invalid webhook signature (${signature.reason}).`);
    }
  }

  const dedupKey = senderMessageId(headers);
  const contentType = headers["content-type"] ?? null;
  let inserted: { id: string }[];
  try {
    inserted = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO webhook_deliveries
        (id, workspace_id, webhook_endpoint_id, raw_payload, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature)
      VALUES
        (${randomUUID()}::uuid, ${endpoint.workspaceId}, ${endpoint.id}, ${JSON.stringify(toRawPayload(body, contentType))}::jsonb,
         ${body}, ${contentType}, ${JSON.stringify(headers)}::jsonb, ${options.sourceIp}, ${options.query},
         ${body.byteLength}, ${dedupKey}, ${signature ? JSON.stringify(signature) : null}::jsonb)
      ON CONFLICT (webhook_endpoint_id, dedup_key) DO NOTHING
      RETURNING id::text`;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound(); // the endpoint was deleted a moment ago
    throw error;
  }
  if (inserted[0]) return { deliveryId: inserted[0].id, duplicate: false };

  // ON CONFLICT waited for the first insert of this message id to commit; answer with that delivery.
  const first = await db().webhookDelivery.findFirst({ where: { webhookEndpointId: endpoint.id, dedupKey }, select: { id: true } });
  if (!first) throw new Error("Duplicate delivery vanished before it could be read");
  return { deliveryId: first.id, duplicate: true };
}
