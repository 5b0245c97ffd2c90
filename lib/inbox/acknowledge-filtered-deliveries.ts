import { decodeCursor, encodeCursor, type KeysetPosition } from "@/lib/cursor";
import { ACK_BY_FILTER_LIMIT, DELIVERY_SCAN_BYTES, DELIVERY_SCAN_ROWS } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { lockAndAcknowledge } from "./acknowledge-deliveries";
import { Prisma } from "@/lib/db/generated/client";
import {
  deliveryContentConditions,
  deliveryFilterScope,
  deliveryRangeConditions,
  scanBounded,
  type DeliveryFilter,
} from "./delivery-filter";

export interface FilteredAcknowledgement {
  /** Deliveries this call acknowledged. */
  acknowledgedCount: number;
  /** More pending deliveries may match beyond this call's bound: call again from `nextCursor`. */
  hasMore: boolean;
  nextCursor: string | null;
}

export interface AcknowledgeFilteredOptions {
  workspaceId: string;
  filter: DeliveryFilter;
  /** The previous call's `nextCursor`. */
  cursor?: string;
  /** ACK_BY_FILTER_LIMIT unless a test wants a small bound. */
  limit?: number;
  /** A content filter's window, in deliveries and body bytes; DELIVERY_SCAN_* unless a test wants small ones. */
  scanRows?: number;
  scanBytes?: number;
}

interface AckOutcome {
  acknowledged: number;
  /** More matches in the window than the bound took. */
  more_matches: boolean;
  last_chosen_at: Date | null;
  last_chosen_id: string | null;
  /** Pending deliveries in range lie past the window this call looked at (content filters only). */
  more_beyond: boolean;
  window_end_at: Date | null;
  window_end_id: string | null;
}

/**
 * Acknowledges the oldest `limit` pending deliveries a filter selects, in one atomic statement. Only pending rows are
 * touched (whatever `unacknowledged` says), so an acknowledged delivery keeps its first `acknowledgedAt`.
 *
 * The oldest are chosen first (the pending partial index, in (created_at, id) order, from the cursor), then locked in id
 * order, as the ids variant locks them: two calls over overlapping deliveries queue behind each other instead of
 * deadlocking. A row acknowledged by another call while this one waited for its lock is re-checked and left out (READ
 * COMMITTED re-evaluates `acknowledged_at IS NULL` on the row's new version), so it is counted by exactly one call.
 *
 * A filter on content (`q`, `payload`) reads every row it is asked about, so the call looks at a window of the next
 * `scanRows` pending deliveries in range (and `scanBytes` of their bodies) like a listing page does: the rows that do
 * not match stay pending, and the cursor, not their state, carries the next call past them.
 */
export async function acknowledgeFilteredDeliveries(
  options: AcknowledgeFilteredOptions,
): Promise<FilteredAcknowledgement> {
  const limit = options.limit ?? ACK_BY_FILTER_LIMIT;
  const scope = { workspaceId: options.workspaceId, list: "ack", ...deliveryFilterScope(options.filter) };
  const after = options.cursor ? decodeCursor(options.cursor, scope) : null;
  const range = [
    ...deliveryRangeConditions(options.workspaceId, options.filter),
    Prisma.sql`acknowledged_at IS NULL`,
    ...(after ? [Prisma.sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`] : []),
  ];
  const [outcome] = await db().$queryRaw<AckOutcome[]>(
    scanBounded(options.filter)
      ? windowedAcknowledgement(options, range, limit)
      : rangeAcknowledgement(options.workspaceId, range, limit),
  );
  const next: KeysetPosition | null =
    outcome!.more_matches && outcome!.last_chosen_id
      ? { createdAt: outcome!.last_chosen_at!, id: outcome!.last_chosen_id }
      : outcome!.more_beyond && outcome!.window_end_id
        ? { createdAt: outcome!.window_end_at!, id: outcome!.window_end_id }
        : null;
  return {
    acknowledgedCount: outcome!.acknowledged,
    hasMore: next !== null,
    nextCursor: next && encodeCursor(next, scope),
  };
}

/** The lock and the update of the `chosen` rows, and the answer's columns; shared by both statements. */
function acknowledgeChosen(workspaceId: string, limit: number, windowEnd: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    chosen AS (SELECT id, created_at FROM matched ORDER BY created_at, id LIMIT ${limit}),
    ${lockAndAcknowledge(workspaceId, Prisma.sql`chosen`)},
    last_chosen AS (SELECT created_at, id::text AS id FROM chosen ORDER BY created_at DESC, id DESC LIMIT 1)
    SELECT (SELECT count(*) FROM updated)::int AS acknowledged,
           (SELECT count(*) FROM matched) > ${limit} AS more_matches,
           (SELECT created_at FROM last_chosen) AS last_chosen_at,
           (SELECT id FROM last_chosen) AS last_chosen_id,
           ${windowEnd}`;
}

/** Filters an index serves: the oldest `limit + 1` pending matches tell whether more remain. */
function rangeAcknowledgement(workspaceId: string, range: Prisma.Sql[], limit: number): Prisma.Sql {
  return Prisma.sql`
    WITH matched AS (
      SELECT id, created_at FROM webhook_deliveries
      WHERE ${Prisma.join(range, " AND ")}
      ORDER BY webhook_deliveries.created_at, webhook_deliveries.id
      LIMIT ${limit + 1}
    ),
    ${acknowledgeChosen(workspaceId, limit, Prisma.sql`false AS more_beyond, NULL::timestamptz AS window_end_at, NULL::text AS window_end_id`)}`;
}

/**
 * Filters on content: the window is the next `scanRows` pending deliveries in range and at most `scanBytes` of their
 * bodies (the first always), read from the index without their bodies; the content conditions run on the window only.
 */
function windowedAcknowledgement(options: AcknowledgeFilteredOptions, range: Prisma.Sql[], limit: number): Prisma.Sql {
  const scanRows = options.scanRows ?? DELIVERY_SCAN_ROWS;
  const scanBytes = options.scanBytes ?? DELIVERY_SCAN_BYTES;
  return Prisma.sql`
    WITH candidates AS (
      SELECT id, created_at,
             row_number() OVER (ORDER BY created_at, id) AS scan_rows,
             sum(size_bytes) OVER (ORDER BY created_at, id ROWS UNBOUNDED PRECEDING) AS scan_bytes
      FROM (
        SELECT id, created_at, size_bytes FROM webhook_deliveries
        WHERE ${Prisma.join(range, " AND ")}
        ORDER BY webhook_deliveries.created_at, webhook_deliveries.id
        LIMIT ${scanRows + 1}
      ) AS fetched
    ),
    scan_window AS (
      SELECT id, created_at FROM candidates
      WHERE scan_rows <= ${scanRows} AND (scan_bytes <= ${scanBytes} OR scan_rows = 1)
    ),
    window_end AS (SELECT created_at, id::text AS id FROM scan_window ORDER BY created_at DESC, id DESC LIMIT 1),
    matched AS (
      SELECT id, created_at FROM webhook_deliveries
      WHERE workspace_id = ${options.workspaceId} AND id IN (SELECT id FROM scan_window)
        AND ${Prisma.join(deliveryContentConditions(options.filter), " AND ")}
      ORDER BY webhook_deliveries.created_at, webhook_deliveries.id
      LIMIT ${limit + 1}
    ),
    ${acknowledgeChosen(
      options.workspaceId,
      limit,
      Prisma.sql`(SELECT count(*) FROM candidates) > (SELECT count(*) FROM scan_window) AS more_beyond,
                 (SELECT created_at FROM window_end) AS window_end_at,
                 (SELECT id FROM window_end) AS window_end_id`,
    )}`;
}
