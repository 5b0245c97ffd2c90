import { createHash } from "node:crypto";
import type { QueryConfig } from "pg";
import type { z } from "zod";
import { decodeCursor, encodeCursor, type KeysetPosition } from "@/lib/cursor";
import { ApiError } from "@/lib/errors";
import {
  DELIVERY_PAGE_BYTES,
  DELIVERY_PAGE_DECODED_BYTES,
  DELIVERY_SCAN_BYTES,
  DELIVERY_SCAN_ROWS,
  MAX_DECODED_BYTES,
  MAX_PAGE_LIMIT,
  type deliverySchema,
} from "@/lib/contracts/webhooks";
import { db, dbPool } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { decodeContent, type DecodedBody } from "./content-encoding";
import { lookUpByDeliveryId } from "./delivery-ids";
import { deliveryPreview, PREVIEW_SOURCE_BYTES } from "./delivery-preview";
import {
  deliveryContentConditions,
  deliveryFilterScope,
  deliveryRangeConditions,
  scanBounded,
  type DeliveryFilter,
} from "./delivery-filter";
import { toFormFields } from "./form-fields";
import { toRawPayload } from "./payload";

export type DeliveryResource = z.infer<typeof deliverySchema>;

/** The columns of a delivery resource besides its id and body. */
const SUMMARY_FIELDS = Prisma.raw(
  "workspace_id, webhook_endpoint_id, headers, source_ip, created_at, acknowledged_at, content_type, size_bytes, query, signature, event_type",
);

const BASE_COLUMNS = Prisma.sql`id::text, ${SUMMARY_FIELDS}`;

/**
 * A delivery resource without its payload (listings asked for `withPayload=false`): of the body, only the slice its
 * `preview` is made from (a TOASTed body's first chunk, not the whole of it).
 */
const SUMMARY_COLUMNS = Prisma.sql`${BASE_COLUMNS},
  substring(raw_body from 1 for ${Prisma.raw(String(PREVIEW_SOURCE_BYTES))}) AS raw_body_head`;

/** Everything a delivery resource shows: the parsed view (`rawPayload`) is made from the stored bytes. */
export const DELIVERY_COLUMNS = Prisma.sql`${BASE_COLUMNS}, raw_body`;

export interface DeliveryRow {
  id: string;
  workspace_id: string;
  webhook_endpoint_id: string;
  /** Absent when the payload was left out. */
  raw_body?: Uint8Array;
  /** The body's first PREVIEW_SOURCE_BYTES, read instead of `raw_body` when the payload was left out. */
  raw_body_head?: Uint8Array;
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
    preview: deliveryPreview({
      // Always the same slice, whatever the row carries: the preview does not depend on `withPayload`.
      head: (row.raw_body ?? row.raw_body_head ?? new Uint8Array()).subarray(0, PREVIEW_SOURCE_BYTES),
      sizeBytes: row.size_bytes,
      contentType: row.content_type,
      contentEncoding: row.headers["content-encoding"],
    }),
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
  /** A content-filtered page's window, in deliveries and body bytes; DELIVERY_SCAN_* unless a test wants small ones. */
  scanRows?: number;
  scanBytes?: number;
}

/**
 * The rows a page's scan reads, written into the statement rather than bound: with a bound LIMIT PostgreSQL costs a
 * generic plan as if it read a tenth of the table and never keeps one (see `deliveryPageStatement`). One size serves
 * every API page (`limit` ≤ 100), so the statement's text does not change with `limit`; an export's larger chunks
 * get theirs. The page is cut to `limit` after the scan.
 */
function pageScanRows(limit: number): number {
  return Math.max(limit, MAX_PAGE_LIMIT) + 1;
}

/**
 * The SQL of one page: a keyset scan over (created_at, id) — the row comparison is an index range condition, so a
 * page deep in ten million rows costs what the first page costs. Reading past `limit` tells whether another page
 * exists. ORDER BY names the table's columns: a bare `id` would mean the selected `id::text` and force a sort.
 * A running sum of body sizes marks the rows within the byte budget; only those are returned, at most `limit`, with
 * `page_rows` (how many the scan found) telling whether the page was cut. Payloads of the rows left out are never
 * read (their TOAST pointers are carried, not followed). A filter on content takes `scanBoundedPageQuery` instead.
 */
export function deliveryPageQuery(options: ListDeliveriesOptions, after: KeysetPosition | null): Prisma.Sql {
  const conditions = deliveryRangeConditions(options.workspaceId, options);
  if (after) {
    conditions.push(
      options.order === "desc"
        ? Prisma.sql`(created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`
        : Prisma.sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const direction = options.order === "desc" ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const order = Prisma.sql`webhook_deliveries.created_at ${direction}, webhook_deliveries.id ${direction}`;
  if (scanBounded(options)) return scanBoundedPageQuery(options, conditions, direction, order);
  // Three levels: the index scan and LIMIT; the running sum, position and row count over those rows only (the window
  // ordered by the scan's own columns, so it reuses the scan's order instead of sorting); the cut.
  return Prisma.sql`
    SELECT * FROM (
      SELECT limited.*,
             sum(size_bytes) OVER scanned AS bytes_through,
             row_number() OVER scanned AS page_row,
             count(*) OVER () AS page_rows
      FROM (
        SELECT ${options.withPayload === false ? SUMMARY_COLUMNS : DELIVERY_COLUMNS}, webhook_deliveries.id AS key
        FROM webhook_deliveries
        WHERE ${Prisma.join(conditions, " AND ")}
        ORDER BY ${order}
        LIMIT ${Prisma.raw(String(pageScanRows(options.limit)))}
      ) AS limited
      WINDOW scanned AS (ORDER BY created_at ${direction}, key ${direction} ROWS UNBOUNDED PRECEDING)
    ) AS page
    WHERE page_row <= ${options.limit} AND (${pageFits(options)})`;
}

/**
 * Within the page's byte budget, or the first row (a lone delivery larger than the budget still gets a page of its
 * own): the page stops before the delivery that would go over it, and `nextCursor` continues from there.
 */
function pageFits(options: ListDeliveriesOptions): Prisma.Sql {
  return options.withPayload === false
    ? Prisma.sql`true`
    : Prisma.sql`bytes_through <= ${options.pageBytes ?? DELIVERY_PAGE_BYTES} OR bytes_through = size_bytes`;
}

/**
 * A page filtered by content, which no index serves: reading until `limit` deliveries match would read the whole
 * workspace for a rare match. The page looks at a window instead — the next `DELIVERY_SCAN_ROWS` deliveries of the
 * index range scan and at most `DELIVERY_SCAN_BYTES` of their bodies (the first always) — and returns the matches in
 * it, cut as any page is. One pass in the scan's order: the window's running row number and body bytes, the content
 * conditions on the rows within it, and LIMIT, which stops the scan as soon as the page is full (a common match reads
 * about `limit` rows, not the window). Bodies are read only there, and for the matches returned.
 * When the page is not full, `edge` finds where its window ended (the next page starts there) by the same range scan
 * without reading bodies, in the same snapshot; a full page never runs it. The answer is
 * the page's rows, each carrying the edge, or one row of nulls carrying it when nothing matched.
 */
function scanBoundedPageQuery(
  options: ListDeliveriesOptions,
  conditions: Prisma.Sql[],
  direction: Prisma.Sql,
  order: Prisma.Sql,
): Prisma.Sql {
  const body = options.withPayload === false ? Prisma.sql`, raw_body_head` : Prisma.sql`, raw_body`;
  const scanRows = options.scanRows ?? DELIVERY_SCAN_ROWS;
  const scanBytes = options.scanBytes ?? DELIVERY_SCAN_BYTES;
  const range = Prisma.join(conditions, " AND ");
  const scanOrder = Prisma.sql`created_at ${direction}, key ${direction}`;
  return Prisma.sql`
    WITH page AS MATERIALIZED (
      SELECT * FROM (
        SELECT matched.*,
               sum(size_bytes) OVER (ORDER BY ${scanOrder} ROWS UNBOUNDED PRECEDING) AS bytes_through,
               count(*) OVER () AS page_rows
        FROM (
          SELECT id, ${SUMMARY_FIELDS}${body}, key
          FROM (
            SELECT fetched.*, row_number() OVER scan AS scan_rows, sum(size_bytes) OVER scan AS scan_bytes
            FROM (
              SELECT ${SUMMARY_COLUMNS}, raw_body, webhook_deliveries.id AS key
              FROM webhook_deliveries
              WHERE ${range}
              ORDER BY ${order}
              LIMIT ${scanRows}
            ) AS fetched
            WINDOW scan AS (ORDER BY ${scanOrder} ROWS UNBOUNDED PRECEDING)
          ) AS numbered
          WHERE (scan_bytes <= ${scanBytes} OR scan_rows = 1)
            AND ${Prisma.join(deliveryContentConditions(options), " AND ")}
          ORDER BY ${scanOrder}
          LIMIT ${options.limit + 1}
        ) AS matched
      ) AS counted
      WHERE ${pageFits(options)}
    ),
    edge AS (
      SELECT created_at AS scan_end_at, key::text AS scan_end_id, next_key IS NOT NULL AS scan_more
      FROM (
        SELECT fetched.*,
               row_number() OVER scan AS scan_rows,
               sum(size_bytes) OVER scan AS scan_bytes,
               lead(size_bytes) OVER scan AS next_size,
               lead(key) OVER scan AS next_key
        FROM (
          SELECT created_at, webhook_deliveries.id AS key, size_bytes
          FROM webhook_deliveries
          WHERE ${range}
          ORDER BY ${order}
          -- Nothing when the page is full: LIMIT 0 reads no row at all.
          LIMIT CASE WHEN (SELECT coalesce(max(page_rows), 0) FROM page) <= ${options.limit} THEN ${scanRows + 1} ELSE 0 END
        ) AS fetched
        WINDOW scan AS (ORDER BY ${scanOrder} ROWS UNBOUNDED PRECEDING)
      ) AS numbered
      WHERE scan_rows <= ${scanRows} AND (scan_bytes <= ${scanBytes} OR scan_rows = 1)
        AND (next_key IS NULL OR scan_rows = ${scanRows} OR scan_bytes + next_size > ${scanBytes})
    )
    SELECT page.*, edge.* FROM (VALUES (true)) AS anchor (one) LEFT JOIN page ON true LEFT JOIN edge ON true
    ORDER BY page.created_at ${direction}, page.key ${direction}`;
}

/**
 * A page's statement. Planning it costs more than running it: the plan covers every day's partition of the
 * deliveries table (about 0.8 ms at forty, against 0.07 ms for one table, while the page itself runs in 0.2 ms). So a
 * page over the whole workspace — every delivery, or pending or acknowledged ones, from any cursor, in either order —
 * is a named statement: each connection prepares it once and, once PostgreSQL finds its generic plan no costlier than
 * a custom one, keeps that plan (the workspace index range, whatever the workspace and cursor). Pages narrowed by an
 * endpoint, receipt times, an event type or content are planned for their values every time: with the values
 * unknown, the planner guesses their share of the rows from averages and may pick another index, or sort
 * (deliveries-query-plan.integration.test.ts shows it). The named shapes are few, and so the names a connection holds.
 */
export function deliveryPageStatement(options: ListDeliveriesOptions, after: KeysetPosition | null): QueryConfig {
  const { text, values } = deliveryPageQuery(options, after);
  const narrowed = [options.endpointId, options.since, options.until, options.eventType].some((v) => v !== undefined);
  if (narrowed || scanBounded(options)) return { text, values };
  return { name: `delivery_page_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}`, text, values };
}

/** A row of a page's answer: a delivery (its id null when a content-filtered page matched nothing) and its counts. */
type PageRow = DeliveryRow & {
  /** int8, as node-postgres reads it: text. */
  page_rows: string;
  /** Filtering by content: the last delivery the page's window held, and whether any lie past it. */
  scan_end_at?: Date;
  scan_end_id?: string;
  scan_more?: boolean;
};

/** One page's rows as SQL cut them, and where the walk goes on once the caller kept the first `kept` of them. */
export interface DeliveryPageRows {
  rows: DeliveryRow[];
  /** The position the next page starts after, or null when the walk is done. */
  continueAfter: (kept: number) => KeysetPosition | null;
}

/** Reads one page (of the listing, or of a walk such as an export) from `after`. */
export async function readDeliveryPage(
  options: ListDeliveriesOptions,
  after: KeysetPosition | null,
): Promise<DeliveryPageRows> {
  const { rows: answer } = await dbPool().query<PageRow>(deliveryPageStatement(options, after));
  // A page filtered by content that found no match is one row of nulls carrying where its window ended.
  const rows = answer.filter((row) => row.id !== null);
  const scanned = Number(rows[0]?.page_rows ?? 0);
  const edge = answer[0];
  return {
    rows,
    // More rows exist when the scan found more than the page keeps, whether `limit` or a budget cut it; or, filtering
    // by content, when deliveries lie past the window this page looked at (the next page looks from its end).
    continueAfter(kept) {
      const last = rows[kept - 1];
      if (scanned > kept && last) return { createdAt: last.created_at, id: last.id };
      return edge?.scan_more ? { createdAt: edge.scan_end_at!, id: edge.scan_end_id! } : null;
    },
  };
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
  const page = await readDeliveryPage(options, after);
  const rows = page.rows;
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
  const next = page.continueAfter(deliveries.length);
  return { deliveries, nextCursor: next && encodeCursor(next, scope) };
}

/** The row of delivery `deliveryId` of a workspace among those received within `receivedWithin` (lookUpByDeliveryId). */
export async function readDeliveryRow(
  workspaceId: string,
  deliveryId: string,
  receivedWithin: Prisma.Sql,
): Promise<DeliveryRow | undefined> {
  const [found] = await db().$queryRaw<DeliveryRow[]>`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
    WHERE id = ${deliveryId}::uuid AND workspace_id = ${workspaceId} AND ${receivedWithin}`;
  return found;
}

export async function getDelivery(options: { workspaceId: string; deliveryId: string }): Promise<DeliveryResource> {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const row = await lookUpByDeliveryId(options.deliveryId, (receivedWithin) =>
    readDeliveryRow(options.workspaceId, options.deliveryId, receivedWithin),
  );
  if (!row) throw deliveryNotFound();
  return toDeliveryResource(row);
}

/** The exact bytes a delivery arrived with, and the Content-Type it was sent with. */
export async function getDeliveryRawBody(options: { workspaceId: string; deliveryId: string }) {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const row = await lookUpByDeliveryId(options.deliveryId, async (receivedWithin) => {
    const [found] = await db().$queryRaw<{ raw_body: Uint8Array; content_type: string | null }[]>`
      SELECT raw_body, content_type FROM webhook_deliveries
      WHERE id = ${options.deliveryId}::uuid AND workspace_id = ${options.workspaceId} AND ${receivedWithin}`;
    return found;
  });
  if (!row) throw deliveryNotFound();
  return { body: row.raw_body, contentType: row.content_type };
}
