import type { z } from "zod";
import { decodeCursor, encodeCursor, type KeysetPosition } from "@/lib/cursor";
import { ApiError } from "@/lib/errors";
import type { deliverySchema } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

export type DeliveryResource = z.infer<typeof deliverySchema>;

/** Everything a delivery resource shows; the raw bytes are left out and served on their own. */
export const DELIVERY_COLUMNS = Prisma.sql`
  id::text, workspace_id, webhook_endpoint_id, raw_payload, headers, source_ip, created_at, acknowledged_at,
  content_type, size_bytes, query, signature`;

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  webhook_endpoint_id: string;
  raw_payload: unknown;
  headers: Record<string, string>;
  source_ip: string;
  created_at: Date;
  acknowledged_at: Date | null;
  content_type: string | null;
  size_bytes: number;
  query: string;
  signature: DeliveryResource["signature"];
}

export function toDeliveryResource(row: DeliveryRow): DeliveryResource {
  return {
    id: row.id,
    webhookEndpointId: row.webhook_endpoint_id,
    workspaceId: row.workspace_id,
    rawPayload: row.raw_payload,
    headers: row.headers,
    sourceIp: row.source_ip,
    createdAt: row.created_at.toISOString(),
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    query: row.query,
    signature: row.signature,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string can be a delivery id at all; anything else is simply not found (no 400 that leaks the format). */
export function isDeliveryId(id: string): boolean {
  return UUID.test(id);
}

export const deliveryNotFound = () => new ApiError("not_found", "No such delivery.");

export interface ListDeliveriesOptions {
  workspaceId: string;
  endpointId?: string;
  unacknowledged?: boolean;
  limit: number;
  cursor?: string;
  order: "asc" | "desc";
}

/**
 * The SQL of one page: a keyset scan over (created_at, id) — the row comparison is an index range condition, so a
 * page deep in ten million rows costs what the first page costs. `limit + 1` rows tell whether another page exists.
 * ORDER BY names the table's columns: a bare `id` would mean the selected `id::text` and force a sort.
 */
export function deliveryPageQuery(options: ListDeliveriesOptions, after: KeysetPosition | null): Prisma.Sql {
  const conditions = [Prisma.sql`workspace_id = ${options.workspaceId}`];
  if (options.endpointId !== undefined) conditions.push(Prisma.sql`webhook_endpoint_id = ${options.endpointId}`);
  if (options.unacknowledged === true) conditions.push(Prisma.sql`acknowledged_at IS NULL`);
  if (options.unacknowledged === false) conditions.push(Prisma.sql`acknowledged_at IS NOT NULL`);
  if (after) {
    conditions.push(
      options.order === "desc"
        ? Prisma.sql`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : Prisma.sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const direction = options.order === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  return Prisma.sql`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE ${Prisma.join(conditions, " AND ")}
    ORDER BY webhook_deliveries.created_at ${direction}, webhook_deliveries.id ${direction}
    LIMIT ${options.limit + 1}`;
}

export async function listDeliveries(options: ListDeliveriesOptions) {
  // The cursor is only good for the listing it came from: same workspace, filters and order.
  const scope = {
    workspaceId: options.workspaceId,
    list: "deliveries",
    endpointId: options.endpointId,
    unacknowledged: options.unacknowledged,
    order: options.order,
  };
  const after = options.cursor ? decodeCursor(options.cursor, scope) : null;
  const rows = await db().$queryRaw<DeliveryRow[]>(deliveryPageQuery(options, after));
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map(toDeliveryResource),
    nextCursor:
      rows.length > options.limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, scope) : null,
  };
}

export async function getDelivery(options: { workspaceId: string; deliveryId: string }): Promise<DeliveryResource> {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const [row] = await db().$queryRaw<DeliveryRow[]>`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ${options.deliveryId}::uuid AND workspace_id = ${options.workspaceId}`;
  if (!row) throw deliveryNotFound();
  return toDeliveryResource(row);
}

/** The exact bytes a delivery arrived with, and the Content-Type it was sent with. */
export async function getDeliveryRawBody(options: { workspaceId: string; deliveryId: string }) {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const row = await db().webhookDelivery.findFirst({
    where: { id: options.deliveryId, workspaceId: options.workspaceId },
    select: { rawBody: true, contentType: true },
  });
  if (!row) throw deliveryNotFound();
  return { body: row.rawBody, contentType: row.contentType };
}
