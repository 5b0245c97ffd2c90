import { decodeCursor, encodeCursor, type CursorScope, type KeysetPosition } from "@/lib/cursor";
import { DELIVERY_SCAN_BYTES, DELIVERY_SCAN_ROWS } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  deliveryContentConditions,
  deliveryFilterScope,
  deliveryRangeConditions,
  scanBounded,
  type DeliveryFilter,
} from "./delivery-filter";

export interface FilteredDeliveryWalkOptions {
  workspaceId: string;
  filter: DeliveryFilter;
  /** The previous call's `nextCursor`. */
  cursor?: string;
  /** Deliveries one call acts on at most. */
  limit: number;
  /** A content filter's window, in deliveries and body bytes; DELIVERY_SCAN_* unless a test wants small ones. */
  scanRows?: number;
  scanBytes?: number;
}

/** What a walking operation adds: its name and inputs (bound into its cursors), its conditions and its action. */
export interface FilteredDeliveryAction {
  /** Names the operation in the cursor scope, beside the workspace and the filter: `list: "ack"`, `list: "replay"`. */
  scope: CursorScope;
  /** Conditions beyond the filter's that a delivery must meet to be walked (ack: pending only). */
  conditions?: Prisma.Sql[];
  /** CTEs (comma-separated) acting on `chosen` (`id`, `created_at`): the deliveries of this call. */
  act: Prisma.Sql;
  /** An integer expression over those CTEs: what the call did (deliveries acknowledged, replayed). */
  count: Prisma.Sql;
}

export interface FilteredDeliveryStep {
  count: number;
  /** More deliveries may match beyond this call's bound: call again from `nextCursor`. */
  hasMore: boolean;
  nextCursor: string | null;
}

interface StepOutcome {
  count: number;
  /** More matches in the window than the bound took. */
  more_matches: boolean;
  last_chosen_at: Date | null;
  last_chosen_id: string | null;
  /** Deliveries in range lie past the window this call looked at (content filters only). */
  more_beyond: boolean;
  window_end_at: Date | null;
  window_end_id: string | null;
}

/**
 * One step of a walk over the deliveries a listing filter selects, oldest first, acting on at most `limit` of them in
 * one statement (acknowledging by filter, replaying by filter). The cursor is the last delivery acted on, or the end of
 * the window looked at, signed for the workspace, the operation and the filter: each match is visited by one call.
 *
 * A filter on content (`q`, `payload`) reads every row it is asked about, so a step looks at a window of the next
 * `scanRows` deliveries in range (and `scanBytes` of their bodies) like a listing page does: the rows that do not match
 * are passed over, and the cursor, not their state, carries the next call past them.
 */
export async function walkFilteredDeliveries(
  options: FilteredDeliveryWalkOptions,
  action: FilteredDeliveryAction,
): Promise<FilteredDeliveryStep> {
  const scope = { workspaceId: options.workspaceId, ...action.scope, ...deliveryFilterScope(options.filter) };
  const after = options.cursor ? decodeCursor(options.cursor, scope) : null;
  const range = [
    ...deliveryRangeConditions(options.workspaceId, options.filter),
    ...(action.conditions ?? []),
    ...(after ? [Prisma.sql`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`] : []),
  ];
  const [outcome] = await db().$queryRaw<StepOutcome[]>(
    scanBounded(options.filter) ? windowedStep(options, range, action) : rangeStep(options, range, action),
  );
  const next: KeysetPosition | null =
    outcome!.more_matches && outcome!.last_chosen_id
      ? { createdAt: outcome!.last_chosen_at!, id: outcome!.last_chosen_id }
      : outcome!.more_beyond && outcome!.window_end_id
        ? { createdAt: outcome!.window_end_at!, id: outcome!.window_end_id }
        : null;
  return { count: outcome!.count, hasMore: next !== null, nextCursor: next && encodeCursor(next, scope) };
}

/** The `chosen` rows, the action on them, and the answer's columns; shared by both statements. */
function actOnChosen(limit: number, action: FilteredDeliveryAction, windowEnd: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    chosen AS (SELECT id, created_at FROM matched ORDER BY created_at, id LIMIT ${limit}),
    ${action.act},
    last_chosen AS (SELECT created_at, id::text AS id FROM chosen ORDER BY created_at DESC, id DESC LIMIT 1)
    SELECT (${action.count})::int AS count,
           (SELECT count(*) FROM matched) > ${limit} AS more_matches,
           (SELECT created_at FROM last_chosen) AS last_chosen_at,
           (SELECT id FROM last_chosen) AS last_chosen_id,
           ${windowEnd}`;
}

/** Filters an index serves: the oldest `limit + 1` matches tell whether more remain. */
function rangeStep(options: FilteredDeliveryWalkOptions, range: Prisma.Sql[], action: FilteredDeliveryAction) {
  return Prisma.sql`
    WITH matched AS (
      SELECT id, created_at FROM webhook_deliveries
      WHERE ${Prisma.join(range, " AND ")}
      ORDER BY webhook_deliveries.created_at, webhook_deliveries.id
      LIMIT ${options.limit + 1}
    ),
    ${actOnChosen(options.limit, action, Prisma.sql`false AS more_beyond, NULL::timestamptz AS window_end_at, NULL::text AS window_end_id`)}`;
}

/**
 * Filters on content: the window is the next `scanRows` deliveries in range and at most `scanBytes` of their bodies
 * (the first always), read from the index without their bodies; the content conditions run on the window only.
 */
function windowedStep(options: FilteredDeliveryWalkOptions, range: Prisma.Sql[], action: FilteredDeliveryAction) {
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
      LIMIT ${options.limit + 1}
    ),
    ${actOnChosen(
      options.limit,
      action,
      Prisma.sql`(SELECT count(*) FROM candidates) > (SELECT count(*) FROM scan_window) AS more_beyond,
                 (SELECT created_at FROM window_end) AS window_end_at,
                 (SELECT id FROM window_end) AS window_end_id`,
    )}`;
}
