import type { z } from "zod";
import { decodeCursor, encodeCursor, type KeysetPosition } from "@/lib/cursor";
import { ApiError } from "@/lib/errors";
import {
  DELIVERY_PAGE_BYTES,
  DELIVERY_PAGE_DECODED_BYTES,
  MAX_DECODED_BYTES,
  type deliverySchema,
} from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { decodeContent, type DecodedBody } from "./content-encoding";
import { deliveryFilterConditions, deliveryFilterScope, type DeliveryFilter } from "./delivery-filter";
import { toFormFields } from "./form-fields";
import { toRawPayload } from "./payload";

export type DeliveryResource = z.infer<typeof deliverySchema>;

/** A delivery resource without its payload (listings asked for `withPayload=false`). */
const SUMMARY_COLUMNS = Prisma.sql`
  id::text, workspace_id, webhook_endpoint_id, headers, source_ip, created_at, acknowledged_at, content_type,
  size_bytes, query, signature, event_type`;

/** Everything a delivery resource shows: the parsed view (`rawPayload`) is made from the stored bytes. */
export const DELIVERY_COLUMNS = Prisma.sql`${SUMMARY_COLUMNS}, raw_body`;

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  webhook_endpoint_id: string;
  /** Absent when the payload was left out. */
  raw_body?: Uint8Array;
  headers: Record<string, string>;
  source_ip: string;
  created_at: Date;
  acknowledged_at: Date | null;
  content_type: string | null;
  size_bytes: number;
  query: string;
  signature: DeliveryResource["signature"];
  event_type: string | null;
}

/** The stored body decoded by its Content-Encoding (undefined when the payload was left out). Read time only. */
export function decodeDeliveryBody(row: DeliveryRow, maxBytes = MAX_DECODED_BYTES): DecodedBody | undefined {
  return row.raw_body === undefined
    ? undefined
    : decodeContent(row.raw_body, row.headers["content-encoding"], maxBytes);
}

/** The resource of a row; the parsed view (`rawPayload`, `formFields`) is made from the decoded body. */
export async function toDeliveryResource(
  row: DeliveryRow,
  decoded: DecodedBody | undefined = decodeDeliveryBody(row),
): Promise<DeliveryResource> {
  return {
    id: row.id,
    webhookEndpointId: row.webhook_endpoint_id,
    workspaceId: row.workspace_id,
    rawPayload: decoded && toRawPayload(decoded.body, row.content_type),
    formFields: decoded && (await toFormFields(decoded.body, row.content_type)),
    contentDecoding: decoded?.decoding,
    headers: row.headers,
    sourceIp: row.source_ip,
    createdAt: row.created_at.toISOString(),
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
    contentType: row.content_type,
    sizeBytes: row.size_bytes,
    query: row.query,
    signature: row.signature,
    eventType: row.event_type,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string can be a delivery id at all; anything else is simply not found (no 400 that leaks the format). */
export function isDeliveryId(id: string): boolean {
  return UUID.test(id);
}

export const deliveryNotFound = () => new ApiError("not_found", "No such delivery.");

export interface ListDeliveriesOptions extends DeliveryFilter {
  workspaceId: string;
  limit: number;
  cursor?: string;
  order: "asc" | "desc";
  /** `false` leaves `rawPayload` out of every delivery (and the page is then cut by `limit` alone). Default `true`. */
  withPayload?: boolean;
  /** Body bytes per page; DELIVERY_PAGE_BYTES unless a test wants small pages. */
  pageBytes?: number;
  /** Bytes decoded from compressed bodies per page; DELIVERY_PAGE_DECODED_BYTES unless a test wants small pages. */
  pageDecodedBytes?: number;
}

/**
 * The SQL of one page: a keyset scan over (created_at, id) — the row comparison is an index range condition, so a
 * page deep in ten million rows costs what the first page costs. `limit + 1` rows tell whether another page exists.
 * ORDER BY names the table's columns: a bare `id` would mean the selected `id::text` and force a sort.
 * A running sum of body sizes marks the rows within the byte budget; only those are returned, with `page_rows` (how
 * many the scan found) telling whether the page was cut. Payloads of the rows left out are never read (their TOAST
 * pointers are carried, not followed).
 */
export function deliveryPageQuery(options: ListDeliveriesOptions, after: KeysetPosition | null): Prisma.Sql {
  const conditions = deliveryFilterConditions(options.workspaceId, options);
  if (after) {
    conditions.push(
      options.order === "desc"
        ? Prisma.sql`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : Prisma.sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const direction = options.order === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const order = Prisma.sql`webhook_deliveries.created_at ${direction}, webhook_deliveries.id ${direction}`;
  // Within the budget, or the first row (a lone delivery larger than the budget still gets a page of its own): the
  // page stops before the delivery that would go over it, and `nextCursor` continues from there.
  const fits =
    options.withPayload === false
      ? Prisma.sql`true`
      : Prisma.sql`bytes_through <= ${options.pageBytes ?? DELIVERY_PAGE_BYTES} OR bytes_through = size_bytes`;
  // Three levels: the index scan and LIMIT; the running sum and the row count over those rows only (the window
  // ordered by the scan's own columns, so it reuses the scan's order instead of sorting); the cut.
  return Prisma.sql`
    SELECT * FROM (
      SELECT limited.*,
             sum(size_bytes) OVER (ORDER BY created_at ${direction}, key ${direction} ROWS UNBOUNDED PRECEDING) AS bytes_through,
             count(*) OVER () AS page_rows
      FROM (
        SELECT ${options.withPayload === false ? SUMMARY_COLUMNS : DELIVERY_COLUMNS}, webhook_deliveries.id AS key
        FROM webhook_deliveries
        WHERE ${Prisma.join(conditions, " AND ")}
        ORDER BY ${order}
        LIMIT ${options.limit + 1}
      ) AS limited
    ) AS page
    WHERE ${fits}`;
}

export async function listDeliveries(options: ListDeliveriesOptions) {
  // The cursor is only good for the listing it came from: same workspace, filters and order.
  const scope = {
    workspaceId: options.workspaceId,
    list: "deliveries",
    ...deliveryFilterScope(options),
    order: options.order,
  };
  const after = options.cursor ? decodeCursor(options.cursor, scope) : null;
  const rows = await db().$queryRaw<(DeliveryRow & { page_rows: bigint })[]>(deliveryPageQuery(options, after));
  const scanned = Number(rows[0]?.page_rows ?? 0);
  // Compressed bodies are decoded against a page budget too: the page is built whole before its answer streams, so a
  // hundred bodies that each decode to 4 MiB would otherwise be held at once. Decoding lazily as the answer streams
  // would hold one at a time, but would move decoding out of this function into the HTTP layer and still inflate
  // 400 MiB for a page of bombs; a budget bounds memory and work per page alike. Like the bytes budget in SQL, the page
  // stops before the delivery that does not fit (the first always gets the full per-delivery limit), so no delivery
  // is shown undecoded for its neighbours' sake, and `nextCursor` continues from there.
  let budget = options.pageDecodedBytes ?? DELIVERY_PAGE_DECODED_BYTES;
  const deliveries: DeliveryResource[] = [];
  for (const row of rows.slice(0, options.limit)) {
    const limit = deliveries.length === 0 ? MAX_DECODED_BYTES : Math.min(MAX_DECODED_BYTES, budget);
    const decoded = decodeDeliveryBody(row, limit);
    if (decoded?.decoding?.status === "too_large" && limit < MAX_DECODED_BYTES) break;
    budget -= decoded?.spentBytes ?? 0;
    deliveries.push(await toDeliveryResource(row, decoded));
  }
  const last = rows[deliveries.length - 1];
  return {
    deliveries,
    // More rows exist when the scan found more than the page keeps, whether `limit` or a budget cut it.
    nextCursor:
      scanned > deliveries.length && last ? encodeCursor({ createdAt: last.created_at, id: last.id }, scope) : null,
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
