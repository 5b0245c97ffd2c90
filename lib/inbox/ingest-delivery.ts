import { randomUUID } from "node:crypto";
import { ApiError, isDatabaseUnavailable } from "@/lib/errors";
import { db, dbPool } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { createBatchQueue, type BatchQueue } from "./batch-queue";
import { dedupKey } from "./dedup-key";
import { toRawPayload } from "./payload";
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
  /** True when this was a retry of a stored delivery (see `dedupKey`): nothing new was stored. */
  duplicate: boolean;
}

const notFound = () => new ApiError("not_found", "No webhook endpoint at this address.");

function isForeignKeyViolation(error: unknown): boolean {
  return /23503|foreign key/i.test(
    `${(error as { code?: string }).code ?? ""} ${(error as { meta?: { code?: string } }).meta?.code ?? ""} ${String(error)}`,
  );
}

/** One delivery ready to be written: every column, serialized. */
interface DeliveryRowInput {
  id: string;
  workspaceId: string;
  endpointId: string;
  /** `rawPayload` in jsonb's binary wire format (see `jsonbBinary`). */
  payload: Buffer;
  body: Buffer;
  contentType: string | null;
  /** Headers as JSON text. */
  headers: string;
  sourceIp: string;
  query: string;
  dedupKey: string | null;
  /** The signature check as JSON text, or null. */
  signature: string | null;
}

type WriteOutcome = IngestedDelivery | { error: unknown };

const contentTypeOf = (headers: Record<string, string>) => headers["content-type"] ?? null;

async function settle(work: Promise<IngestedDelivery>): Promise<WriteOutcome> {
  try {
    return await work;
  } catch (error) {
    return { error };
  }
}

/** After ON CONFLICT … DO NOTHING skipped a row: the delivery that first made its dedup claim. */
async function firstDelivery(row: DeliveryRowInput): Promise<IngestedDelivery> {
  // ON CONFLICT waited for the first insert of this dedup key to commit; answer with that delivery.
  const first = await db().webhookDelivery.findFirst({
    where: { webhookEndpointId: row.endpointId, dedupKey: row.dedupKey },
    select: { id: true },
  });
  if (!first) throw new Error("Duplicate delivery vanished before it could be read");
  return { deliveryId: first.id, duplicate: true };
}

/**
 * Writes rows with distinct message ids in one multi-row INSERT: one statement, one transaction, one commit (and one
 * pass through the NOTIFY queue's commit lock for the whole batch). A row skipped by ON CONFLICT answers with the
 * delivery that first carried its message id. If one row spoils the statement (its endpoint was deleted a moment
 * ago, say), every row is written again on its own, so only that row's sender gets the error.
 */
async function writeRows(rows: DeliveryRowInput[]): Promise<WriteOutcome[]> {
  let inserted: Set<string>;
  try {
    // Rows go in in message-id order, so two batches in flight that carry the same ids (retries) wait for each other
    // instead of deadlocking; the outcomes below are matched by id, whatever the order.
    const ordered = rows.length > 1 ? [...rows].sort(byMessageId) : rows;
    const { rows: returned } = await dbPool().query<{ id: string }>(
      insertStatement(rows.length),
      ordered.flatMap(rowParameters),
    );
    inserted = new Set(returned.map((row) => row.id));
  } catch (error) {
    if (rows.length > 1 && !isDatabaseUnavailable(error))
      return Promise.all(rows.map(async (row) => (await writeRows([row]))[0]!));
    return rows.map(() => ({ error: isForeignKeyViolation(error) ? notFound() : error }));
  }
  return Promise.all(
    rows.map((row) => (inserted.has(row.id) ? { deliveryId: row.id, duplicate: false } : settle(firstDelivery(row)))),
  );
}

/**
 * A JSON document as jsonb's binary input (a version byte, 1, then the UTF-8 text): node-postgres sends a Buffer
 * parameter in binary format. Kept as bytes outside the JavaScript heap while the row waits for its batch, the payload
 * of a large body does not get promoted into (and linger in) the old generation.
 */
function jsonbBinary(json: string): Buffer {
  const text = Buffer.from(json, "utf8");
  const wire = Buffer.allocUnsafe(text.byteLength + 1);
  wire[0] = 1;
  text.copy(wire, 1);
  return wire;
}

function byMessageId(a: DeliveryRowInput, b: DeliveryRowInput): number {
  const left = `${a.endpointId}\u0000${a.dedupKey ?? ""}`;
  const right = `${b.endpointId}\u0000${b.dedupKey ?? ""}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

const COLUMNS =
  "id, workspace_id, webhook_endpoint_id, raw_payload, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature";
const CASTS = ["::uuid", "", "", "::jsonb", "::bytea", "", "::jsonb", "", "", "::int", "", "::jsonb"];

/** `INSERT … VALUES ($1::uuid, …), (…) ON CONFLICT … DO NOTHING RETURNING id` for `count` rows. */
function insertStatement(count: number): string {
  const tuples = Array.from(
    { length: count },
    (_, row) => `(${CASTS.map((cast, column) => `$${row * CASTS.length + column + 1}${cast}`).join(", ")})`,
  );
  return `INSERT INTO webhook_deliveries (${COLUMNS}) VALUES ${tuples.join(", ")}
    ON CONFLICT (webhook_endpoint_id, dedup_key) DO NOTHING RETURNING id::text`;
}

function rowParameters(row: DeliveryRowInput): unknown[] {
  return [
    row.id,
    row.workspaceId,
    row.endpointId,
    row.payload,
    row.body,
    row.contentType,
    row.headers,
    row.sourceIp,
    row.query,
    row.body.byteLength,
    row.dedupKey,
    row.signature,
  ];
}

/**
 * One group-commit batch. Requests in it that repeat the dedup key of an earlier request in it (same endpoint) are
 * not written: they answer with that request's delivery, as they would have after waiting for its commit.
 */
async function flushDeliveries(rows: DeliveryRowInput[]): Promise<WriteOutcome[]> {
  const leaders: DeliveryRowInput[] = [];
  const leaderOf = new Map<string, number>();
  const slots = rows.map((row) => {
    const key = row.dedupKey === null ? null : `${row.endpointId}\u0000${row.dedupKey}`;
    const leader = key === null ? undefined : leaderOf.get(key);
    if (leader !== undefined) return { leader, follower: true };
    leaders.push(row);
    if (key !== null) leaderOf.set(key, leaders.length - 1);
    return { leader: leaders.length - 1, follower: false };
  });
  const written = await writeRows(leaders);
  return slots.map(({ leader, follower }) => {
    const outcome = written[leader]!;
    return follower && !("error" in outcome) ? { deliveryId: outcome.deliveryId, duplicate: true } : outcome;
  });
}

const ENDPOINT_COLUMNS = {
  id: true,
  workspaceId: true,
  enabled: true,
  signingScheme: true,
  signingSecret: true,
  rejectInvalidSignatures: true,
} as const;
type IngestEndpoint = Prisma.WebhookEndpointGetPayload<{ select: typeof ENDPOINT_COLUMNS }>;

interface Queues {
  endpoints: BatchQueue<string, IngestEndpoint | null>;
  deliveries: BatchQueue<DeliveryRowInput, WriteOutcome>;
}

// One pair of queues per process (the launcher is the only caller). Endpoint lookups: up to 100 ids per query, each
// query started after every request in it arrived, so a disabled or deleted endpoint is never served from the past.
// Deliveries: up to 100 rows (1,200 bind parameters) or 4 MiB of bodies and payloads per INSERT; two batches in
// flight, so the database commits one while the next is being sent. A body near the 1 MiB limit goes in a batch of
// one or two.
const QUEUES_SLOT = Symbol.for("signalbox.ingestQueues");

function queues(): Queues {
  const holder = globalThis as typeof globalThis & { [QUEUES_SLOT]?: Queues };
  holder[QUEUES_SLOT] ??= {
    endpoints: createBatchQueue({
      flush: async (ids: string[]) => {
        const rows = await db().webhookEndpoint.findMany({
          where: { id: { in: [...new Set(ids)] } },
          select: ENDPOINT_COLUMNS,
        });
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      maxInFlight: 2,
      maxItems: 100,
      maxWeight: 100,
      weight: () => 1,
    }),
    deliveries: createBatchQueue({
      flush: flushDeliveries,
      maxInFlight: 2,
      maxItems: 100,
      maxWeight: 4 * 1024 * 1024,
      weight: (row) => row.body.byteLength + row.payload.byteLength,
    }),
  };
  return holder[QUEUES_SLOT];
}

/**
 * Stores one webhook request as a pending delivery and returns its id once the row is committed. Unknown or
 * disabled endpoints → 404; an invalid signature on an endpoint that rejects them → 401; a retry (a repeated sender
 * message id; on a signed endpoint only among verified deliveries, see `dedupKey`) → the first delivery's id, nothing
 * stored (also under concurrent duplicates, via the unique index).
 */
export async function ingestDelivery(options: IngestDeliveryOptions): Promise<IngestedDelivery> {
  if (!/^we_[0-9A-Za-z]{1,64}$/.test(options.hookId)) throw notFound();
  const endpoint = await queues().endpoints.submit(options.hookId);
  if (!endpoint?.enabled) throw notFound();

  const body = await options.readBody();
  const { headers } = options;
  let signature: SignatureResult | null = null;
  if (endpoint.signingScheme && endpoint.signingSecret) {
    signature = verifySignature({
      scheme: toSignatureSchemeName(endpoint.signingScheme),
      secret: endpoint.signingSecret,
      body,
      headers,
    });
    if (!signature.valid && endpoint.rejectInvalidSignatures) {
      throw new ApiError("unauthorized", `Invalid webhook signature (${signature.reason}).`);
    }
  }

  const outcome = await queues().deliveries.submit({
    id: randomUUID(),
    workspaceId: endpoint.workspaceId,
    endpointId: endpoint.id,
    payload: jsonbBinary(JSON.stringify(toRawPayload(body, contentTypeOf(headers)))),
    body,
    contentType: contentTypeOf(headers),
    headers: JSON.stringify(headers),
    sourceIp: options.sourceIp,
    query: options.query,
    dedupKey: dedupKey(headers, body, signature),
    signature: signature ? JSON.stringify(signature) : null,
  });
  if ("error" in outcome) throw outcome.error;
  return outcome;
}
