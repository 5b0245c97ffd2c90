import { createHash } from "node:crypto";
import { millisecondCeiling } from "@/lib/contracts/instant";
import { canonicalPayloadFilter } from "@/lib/contracts/payload-filter";
import { Prisma } from "@/lib/db/generated/client";

/** What selects deliveries within a workspace: the listing's filters, shared by every operation over a listing. */
export interface DeliveryFilter {
  endpointId?: string;
  /** `true`: pending only; `false`: acknowledged only. */
  unacknowledged?: boolean;
  /** Only deliveries received at or after this ISO 8601 date-time (with a zone, as the contract checked). */
  since?: string;
  /** Only deliveries received before this ISO 8601 date-time (exclusive). */
  until?: string;
  /** Text anywhere in the body, a header or the query string (substring; ASCII letters case-insensitive). */
  q?: string;
  /** A JSON object (text, checked by the contract) the JSON body contains (jsonb `@>`). */
  payload?: string;
  /** Only deliveries of this event type (exact). */
  eventType?: string;
}

/** The WHERE conditions of a filter over `webhook_deliveries`, the workspace first (every query on tenant data). */
export function deliveryFilterConditions(workspaceId: string, filter: DeliveryFilter): Prisma.Sql[] {
  return [...deliveryRangeConditions(workspaceId, filter), ...deliveryContentConditions(filter)];
}

/**
 * Whether the filter matches content (`q`, `payload`), which no index serves: a listing looks at a bounded window of
 * deliveries per page (deliveryPageQuery) instead of reading until `limit` match, however rare they are.
 */
export function scanBounded(filter: DeliveryFilter): boolean {
  return filter.q !== undefined || filter.payload !== undefined;
}

/** The conditions an index range scan serves: the workspace, endpoint, state and receipt times. */
export function deliveryRangeConditions(workspaceId: string, filter: DeliveryFilter): Prisma.Sql[] {
  const conditions = [Prisma.sql`workspace_id = ${workspaceId}`];
  if (filter.endpointId !== undefined) conditions.push(Prisma.sql`webhook_endpoint_id = ${filter.endpointId}`);
  if (filter.unacknowledged === true) conditions.push(Prisma.sql`acknowledged_at IS NULL`);
  if (filter.unacknowledged === false) conditions.push(Prisma.sql`acknowledged_at IS NOT NULL`);
  // Bounds on the index's leading column after workspace or endpoint: they narrow the same range scan a keyset walk
  // takes. Rounded up to the millisecond, which on created_at (milliseconds) selects exactly the same rows.
  if (filter.since !== undefined)
    conditions.push(Prisma.sql`created_at >= ${millisecondCeiling(filter.since)}::timestamptz`);
  if (filter.until !== undefined)
    conditions.push(Prisma.sql`created_at < ${millisecondCeiling(filter.until)}::timestamptz`);
  // An equality after the workspace on webhook_deliveries_workspace_event_type_idx, whose walk is then in
  // (created_at, id) order; with `endpointId` as well, one of the two indexes serves and the other is a filter.
  if (filter.eventType !== undefined) conditions.push(Prisma.sql`event_type = ${filter.eventType}`);
  return conditions;
}

/** A body the stored bytes of which are its content: not compressed (no Content-Encoding but `identity`). */
const PLAIN_BODY = Prisma.sql`(headers->>'content-encoding' IS NULL OR headers->>'content-encoding' ~* '^[\\s,]*(identity[\\s,]*)*$')`;

/** `application/json` and `application/*+json`, as lib/inbox/payload.ts `isJsonContentType` reads them. */
const JSON_CONTENT_TYPE = Prisma.sql`content_type ~* '^\\s*application/([\\w.!#$&^-]+\\+)?json\\s*(;|$)'`;

/**
 * The conditions on content, which read every row they are asked about (see `scanBounded`). Each is guarded so that
 * no stored body makes it fail: CASE runs a conversion only on bodies it cannot fail on.
 */
export function deliveryContentConditions(filter: DeliveryFilter): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (filter.q !== undefined) {
    const needle = asciiLowerCase(filter.q);
    // The body is searched as bytes: read as Latin-1 (one character per byte, any bytes but NUL), so invalid UTF-8
    // matches too, and the needle is the same reading of the search text's UTF-8. Lower-casing under "C" folds ASCII
    // letters only, the same on both sides. `strpos` takes `%`, `_` and `\` as themselves.
    const bodyNeedle = Buffer.from(needle, "utf8").toString("latin1");
    conditions.push(Prisma.sql`(
      strpos(lower(query COLLATE "C"), ${needle}) > 0
      OR EXISTS (SELECT FROM jsonb_each_text(headers) AS header
                 WHERE strpos(lower((header.key || ': ' || header.value) COLLATE "C"), ${needle}) > 0)
      OR CASE WHEN position('\\x00'::bytea IN raw_body) = 0 AND ${PLAIN_BODY}
              THEN strpos(lower(convert_from(raw_body, 'LATIN1') COLLATE "C"), ${bodyNeedle}) > 0
              ELSE false END)`);
  }
  if (filter.payload !== undefined) {
    // delivery_json_body (migration 20261128020000) is NULL for bytes that are not UTF-8 JSON.
    conditions.push(Prisma.sql`CASE WHEN ${JSON_CONTENT_TYPE} AND ${PLAIN_BODY}
      THEN coalesce(delivery_json_body(raw_body) @> ${filter.payload}::jsonb, false) ELSE false END`);
  }
  return conditions;
}

/** ASCII letters lower-cased and nothing else, as PostgreSQL's `lower` under the "C" collation does. */
export function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** A value a cursor binds without carrying it: the cursor has a length limit, search texts and JSON do not fit. */
function scopeDigest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/**
 * A filter as a cursor binds it: a cursor is only good for the filter it came from. The bounds are the instants they
 * select, not as spelled (`…T01:00:00+01:00` continues a walk begun with `…T00:00:00Z`), and are present only when
 * given, so cursors issued before a filter existed stay valid.
 */
export function deliveryFilterScope(filter: DeliveryFilter) {
  return {
    endpointId: filter.endpointId,
    unacknowledged: filter.unacknowledged,
    ...(filter.since !== undefined && { since: millisecondCeiling(filter.since).toISOString() }),
    ...(filter.until !== undefined && { until: millisecondCeiling(filter.until).toISOString() }),
    ...(filter.q !== undefined && { q: scopeDigest(filter.q) }),
    ...(filter.payload !== undefined && { payload: scopeDigest(canonicalPayloadFilter(filter.payload)) }),
    ...(filter.eventType !== undefined && { eventType: filter.eventType }),
  };
}
