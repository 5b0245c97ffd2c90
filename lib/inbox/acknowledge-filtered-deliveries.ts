import { ACK_BY_FILTER_LIMIT } from "@/lib/contracts/webhooks";
import { Prisma } from "@/lib/db/generated/client";
import { lockAndAcknowledge } from "./acknowledge-deliveries";
import type { DeliveryFilter } from "./delivery-filter";
import { walkFilteredDeliveries } from "./filtered-delivery-walk";

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

/**
 * Acknowledges the oldest `limit` pending deliveries a filter selects, in one atomic statement (one step of
 * walkFilteredDeliveries). Only pending rows are walked and touched (whatever `unacknowledged` says), so an
 * acknowledged delivery keeps its first `acknowledgedAt`.
 *
 * The chosen rows are locked in id order, as the ids variant locks them: two calls over overlapping deliveries queue
 * behind each other instead of deadlocking. A row acknowledged by another call while this one waited for its lock is
 * re-checked and left out (READ COMMITTED re-evaluates `acknowledged_at IS NULL` on the row's new version), so it is
 * counted by exactly one call.
 */
export async function acknowledgeFilteredDeliveries(
  options: AcknowledgeFilteredOptions,
): Promise<FilteredAcknowledgement> {
  const step = await walkFilteredDeliveries(
    { ...options, limit: options.limit ?? ACK_BY_FILTER_LIMIT },
    {
      scope: { list: "ack" },
      conditions: [Prisma.sql`acknowledged_at IS NULL`],
      act: lockAndAcknowledge(options.workspaceId, Prisma.sql`chosen`),
      count: Prisma.sql`(SELECT count(*) FROM updated)`,
    },
  );
  return { acknowledgedCount: step.count, hasMore: step.hasMore, nextCursor: step.nextCursor };
}
