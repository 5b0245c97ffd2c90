import type pg from "pg";
import { db } from "@/lib/db/client";

/*
 * Pending and total deliveries per endpoint. Statement triggers on webhook_deliveries append one row of changes per
 * endpoint a statement touched (migration 20261129010000), so reading an endpoint's counts sums its rows instead of
 * counting its deliveries, and no writer waits on another's counter row. Folding keeps the rows per endpoint few.
 */

const FOLD_LOCK_KEY = "signalbox.endpoint_delivery_counts";

/** Pending and total deliveries of each of `endpointIds` (endpoints of `workspaceId`). */
export async function countEndpointDeliveries(
  workspaceId: string,
  endpointIds: string[],
): Promise<Map<string, { pending: number; total: number }>> {
  if (endpointIds.length === 0) return new Map();
  const rows = await db().$queryRaw<{ endpoint_id: string; pending: bigint; total: bigint }[]>`
    SELECT webhook_endpoint_id AS endpoint_id, sum(pending)::bigint AS pending, sum(total)::bigint AS total
    FROM endpoint_delivery_counts
    WHERE workspace_id = ${workspaceId} AND webhook_endpoint_id = ANY(${endpointIds})
    GROUP BY webhook_endpoint_id`;
  return new Map(rows.map((row) => [row.endpoint_id, { pending: Number(row.pending), total: Number(row.total) }]));
}

/**
 * Folds each endpoint's rows into one, in one statement: rows appended meanwhile are not in its snapshot and stay for
 * the next fold. One instance at a time (an advisory lock; another finds it taken and skips). Returns the rows folded
 * away, or null when skipped.
 */
export async function foldEndpointDeliveryCounts(pool: pg.Pool): Promise<number | null> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{ taken: boolean }>(
      "SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS taken",
      [FOLD_LOCK_KEY],
    );
    if (!rows[0]?.taken) {
      await client.query("ROLLBACK");
      return null;
    }
    const { rows: folded } = await client.query<{ removed: number; kept: number }>(
      `WITH removed AS (DELETE FROM endpoint_delivery_counts RETURNING workspace_id, webhook_endpoint_id, pending, total),
       kept AS (
         INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
         SELECT workspace_id, webhook_endpoint_id, sum(pending), sum(total) FROM removed
         GROUP BY workspace_id, webhook_endpoint_id
         HAVING sum(pending) <> 0 OR sum(total) <> 0
         RETURNING 1)
       SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM kept)::int AS kept`,
    );
    await client.query("COMMIT");
    return folded[0]!.removed - folded[0]!.kept;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
