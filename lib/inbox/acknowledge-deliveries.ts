import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { lookUpByDeliveryId, receiptTimeBounds } from "./delivery-ids";
import {
  DELIVERY_COLUMNS,
  deliveryNotFound,
  isDeliveryId,
  readDeliveryRow,
  toDeliveryResource,
  type DeliveryResource,
  type DeliveryRow,
} from "./deliveries";

/**
 * Acknowledges one delivery and returns it. Acknowledging again changes nothing: `acknowledged_at IS NULL` in the
 * UPDATE is re-checked after any concurrent ack commits, so the first timestamp stays.
 */
export async function acknowledgeDelivery(options: {
  workspaceId: string;
  deliveryId: string;
}): Promise<DeliveryResource> {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const row = await lookUpByDeliveryId(options.deliveryId, async (receivedWithin) => {
    const [updated] = await db().$queryRaw<DeliveryRow[]>`
      UPDATE webhook_deliveries SET acknowledged_at = now()
      WHERE id = ${options.deliveryId}::uuid AND workspace_id = ${options.workspaceId} AND acknowledged_at IS NULL
        AND ${receivedWithin}
      RETURNING ${DELIVERY_COLUMNS}`;
    return updated ?? readDeliveryRow(options.workspaceId, options.deliveryId, receivedWithin);
  });
  if (!row) throw deliveryNotFound();
  return toDeliveryResource(row);
}

/**
 * The `locked` and `updated` CTEs that acknowledge the pending deliveries the CTE `chosen` lists by `id` and
 * `created_at`. Rows are locked in id order before the update: concurrent acknowledgements over overlapping rows then
 * queue behind each other instead of deadlocking (a join would lock them in whatever order its hash table yields).
 * Each row is found by its whole key, receipt time included, so each lookup reads its own day's partition, not every
 * day's. `updated` returns the ids this statement acknowledged.
 */
export function lockAndAcknowledge(workspaceId: string, chosen: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    locked AS (
      SELECT d.id, d.created_at FROM webhook_deliveries d
      JOIN ${chosen} c ON d.id = c.id AND d.created_at = c.created_at
      WHERE d.workspace_id = ${workspaceId} AND d.acknowledged_at IS NULL
      ORDER BY d.id
      FOR UPDATE OF d
    ),
    updated AS (
      UPDATE webhook_deliveries d SET acknowledged_at = now()
      FROM locked l
      WHERE d.workspace_id = ${workspaceId} AND d.id = l.id AND d.created_at = l.created_at AND d.acknowledged_at IS NULL
      RETURNING d.id
    )`;
}

export interface BulkAcknowledgement {
  acknowledged: string[];
  alreadyAcknowledged: string[];
  notFound: string[];
}

/**
 * Acknowledges up to 100 deliveries in one atomic statement. Each requested id lands in exactly one list, in the
 * order given; ids of other workspaces are indistinguishable from unknown ones.
 */
export async function acknowledgeDeliveries(options: {
  workspaceId: string;
  ids: string[];
}): Promise<BulkAcknowledgement> {
  const result: BulkAcknowledgement = { acknowledged: [], alreadyAcknowledged: [], notFound: [] };
  const candidates = options.ids.filter(isDeliveryId).map((id) => id.toLowerCase());
  // Ids that tell their receipt time (UUIDv7) are looked up in those days only; any not found there, in every day (an
  // id from before UUIDv7 in the batch makes the whole batch look everywhere). One statement unless a clock was off.
  const bounds = receiptTimeBounds(candidates);
  const rows = await acknowledgeIds(options.workspaceId, candidates, bounds ?? Prisma.sql`true`);
  const unfound = rows.filter((row) => !row.found).map((row) => row.id);
  if (bounds && unfound.length) rows.push(...(await acknowledgeIds(options.workspaceId, unfound, Prisma.sql`true`)));
  const outcome = new Map(rows.filter((row) => row.found).map((row) => [row.id, row]));
  for (const id of options.ids) {
    const row = outcome.get(id.toLowerCase());
    if (row?.acknowledged) result.acknowledged.push(id);
    else if (row?.found) result.alreadyAcknowledged.push(id);
    else result.notFound.push(id);
  }
  return result;
}

/**
 * One statement acknowledging `ids` among the deliveries received within `receivedWithin`. The ids are looked up once,
 * in each partition the bound leaves; the rest goes by whole keys.
 */
async function acknowledgeIds(workspaceId: string, ids: string[], receivedWithin: Prisma.Sql) {
  return db().$queryRaw<{ id: string; acknowledged: boolean; found: boolean }[]>`
    WITH requested AS (SELECT DISTINCT unnest(${ids}::uuid[]) AS id),
    existing AS MATERIALIZED (
      SELECT id, created_at, acknowledged_at FROM webhook_deliveries
      WHERE workspace_id = ${workspaceId} AND id = ANY(${ids}::uuid[]) AND ${receivedWithin}
    ),
    pending AS (SELECT id, created_at FROM existing WHERE acknowledged_at IS NULL),
    ${lockAndAcknowledge(workspaceId, Prisma.sql`pending`)}
    SELECT r.id::text AS id, (u.id IS NOT NULL) AS acknowledged, (e.id IS NOT NULL) AS found
    FROM requested r
    LEFT JOIN updated u ON u.id = r.id
    LEFT JOIN existing e ON e.id = r.id`;
}
