import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  DELIVERY_COLUMNS,
  deliveryNotFound,
  isDeliveryId,
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
  const [updated] = await db().$queryRaw<DeliveryRow[]>`
    UPDATE webhook_deliveries SET acknowledged_at = now()
    WHERE id = ${options.deliveryId}::uuid AND workspace_id = ${options.workspaceId} AND acknowledged_at IS NULL
    RETURNING ${DELIVERY_COLUMNS}`;
  if (updated) return toDeliveryResource(updated);
  const [existing] = await db().$queryRaw<DeliveryRow[]>`
    SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ${options.deliveryId}::uuid AND workspace_id = ${options.workspaceId}`;
  if (!existing) throw deliveryNotFound();
  return toDeliveryResource(existing);
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
  // The ids are looked up once, in every day's partition (an id does not tell its day): the rest goes by whole keys.
  const rows = await db().$queryRaw<{ id: string; acknowledged: boolean; found: boolean }[]>`
    WITH requested AS (SELECT DISTINCT unnest(${candidates}::uuid[]) AS id),
    existing AS MATERIALIZED (
      SELECT id, created_at, acknowledged_at FROM webhook_deliveries
      WHERE workspace_id = ${options.workspaceId} AND id = ANY(${candidates}::uuid[])
    ),
    pending AS (SELECT id, created_at FROM existing WHERE acknowledged_at IS NULL),
    ${lockAndAcknowledge(options.workspaceId, Prisma.sql`pending`)}
    SELECT r.id::text AS id, (u.id IS NOT NULL) AS acknowledged, (e.id IS NOT NULL) AS found
    FROM requested r
    LEFT JOIN updated u ON u.id = r.id
    LEFT JOIN existing e ON e.id = r.id`;
  const outcome = new Map(rows.map((row) => [row.id, row]));
  for (const id of options.ids) {
    const row = outcome.get(id.toLowerCase());
    if (row?.acknowledged) result.acknowledged.push(id);
    else if (row?.found) result.alreadyAcknowledged.push(id);
    else result.notFound.push(id);
  }
  return result;
}
