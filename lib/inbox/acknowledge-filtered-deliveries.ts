import { ACK_BY_FILTER_LIMIT } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { deliveryFilterConditions, type DeliveryFilter } from "./delivery-filter";

export interface FilteredAcknowledgement {
  /** Deliveries this call acknowledged. */
  acknowledgedCount: number;
  /** More matching deliveries were pending beyond the bound when the statement ran: call again. */
  hasMore: boolean;
}

/**
 * Acknowledges the oldest `limit` pending deliveries a filter selects, in one atomic statement. Only pending rows are
 * touched (whatever `unacknowledged` says), so an acknowledged delivery keeps its first `acknowledgedAt`.
 *
 * The oldest are chosen first (the pending partial index, in (created_at, id) order), then locked in id order, as the
 * ids variant locks them: two calls over overlapping deliveries queue behind each other instead of deadlocking. A row
 * acknowledged by another call while this one waited for its lock is re-checked and left out (READ COMMITTED
 * re-evaluates `acknowledged_at IS NULL` on the row's new version), so it is counted by exactly one call.
 */
export async function acknowledgeFilteredDeliveries(options: {
  workspaceId: string;
  filter: DeliveryFilter;
  /** ACK_BY_FILTER_LIMIT unless a test wants a small bound. */
  limit?: number;
}): Promise<FilteredAcknowledgement> {
  const limit = options.limit ?? ACK_BY_FILTER_LIMIT;
  const conditions = [
    ...deliveryFilterConditions(options.workspaceId, options.filter),
    Prisma.sql`acknowledged_at IS NULL`,
  ];
  const [outcome] = await db().$queryRaw<{ acknowledged: number; has_more: boolean }[]>`
    WITH oldest AS (
      SELECT id, created_at FROM webhook_deliveries
      WHERE ${Prisma.join(conditions, " AND ")}
      ORDER BY webhook_deliveries.created_at, webhook_deliveries.id
      LIMIT ${limit + 1}
    ),
    chosen AS (SELECT id FROM oldest ORDER BY created_at, id LIMIT ${limit}),
    locked AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (SELECT id FROM chosen) AND d.workspace_id = ${options.workspaceId} AND d.acknowledged_at IS NULL
      ORDER BY d.id
      FOR UPDATE
    ),
    updated AS (
      UPDATE webhook_deliveries d SET acknowledged_at = now()
      FROM locked l
      WHERE d.id = l.id AND d.acknowledged_at IS NULL
      RETURNING d.id
    )
    SELECT (SELECT count(*) FROM updated)::int AS acknowledged, (SELECT count(*) FROM oldest) > ${limit} AS has_more`;
  return { acknowledgedCount: outcome!.acknowledged, hasMore: outcome!.has_more };
}
