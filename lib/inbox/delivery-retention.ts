import type pg from "pg";
import { DAY_MS, dropDeliveryPartition, listDeliveryPartitions, type DeliveryPartition } from "./delivery-partitions";

/*
 * Expires deliveries past their endpoint's retention (issue #22): `coalesce(endpoint.retention,
 * workspace.delivery_retention)`, `{acknowledgedDays, allDays}`, a null member keeping that class forever. A delivery
 * is expired once it is older than `allDays`, or acknowledged and older than `acknowledgedDays` (ages from receipt).
 *
 * A day partition whose every delivery is expired is dropped whole: a million deliveries cost one DROP TABLE, not a
 * million deletes. What a drop cannot cover (a partition that also holds deliveries still kept, because endpoints keep
 * them for different times) is deleted by row, in batches. Either way a delivery's dedup claim and its forwards (with
 * their attempts) go with it.
 */

/** Rows deleted per statement: short transactions, so vacuum and replicas keep up. */
const DELETE_BATCH = 1_000;

interface RetentionPolicy {
  acknowledgedDays: number | null;
  allDays: number | null;
}

interface EndpointPolicy {
  workspaceId: string;
  endpointId: string;
  policy: RetentionPolicy | null;
}

export interface ExpiryResult {
  partitionsDropped: string[];
  rowsDeleted: number;
}

function readPolicy(value: unknown): RetentionPolicy | null {
  if (!value || typeof value !== "object") return null;
  const days = (key: string) => {
    const found = (value as Record<string, unknown>)[key];
    return typeof found === "number" && Number.isInteger(found) && found > 0 ? found : null;
  };
  const policy = { acknowledgedDays: days("acknowledgedDays"), allDays: days("allDays") };
  return policy.acknowledgedDays === null && policy.allDays === null ? null : policy;
}

const before = (now: Date, days: number | null) => (days === null ? null : new Date(now.getTime() - days * DAY_MS));

/** Every endpoint and the retention it follows (workspace-spanning by design: this is the maintenance sweep). */
async function endpointPolicies(pool: pg.Pool): Promise<Map<string, EndpointPolicy>> {
  const { rows } = await pool.query<{ workspace_id: string; id: string; policy: unknown }>(
    `SELECT e.workspace_id, e.id, coalesce(e.retention, w.delivery_retention) AS policy
     FROM webhook_endpoints e JOIN workspaces w ON w.id = e.workspace_id`,
  );
  return new Map(
    rows.map((row) => [row.id, { workspaceId: row.workspace_id, endpointId: row.id, policy: readPolicy(row.policy) }]),
  );
}

/** The endpoints with deliveries in one partition, by a skip scan of its endpoint index (a few reads per endpoint). */
async function endpointsIn(pool: pg.Pool, partition: DeliveryPartition): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `WITH RECURSIVE found AS (
       (SELECT webhook_endpoint_id AS id FROM "${partition.name}" ORDER BY webhook_endpoint_id LIMIT 1)
       UNION ALL
       SELECT (SELECT webhook_endpoint_id FROM "${partition.name}" WHERE webhook_endpoint_id > found.id
               ORDER BY webhook_endpoint_id LIMIT 1)
       FROM found WHERE found.id IS NOT NULL)
     SELECT id FROM found WHERE id IS NOT NULL`,
  );
  return rows.map((row) => row.id);
}

/** True when every delivery of the partition is expired under its endpoint's policy. */
async function whollyExpired(
  pool: pg.Pool,
  partition: DeliveryPartition,
  policies: Map<string, EndpointPolicy>,
  now: Date,
): Promise<boolean> {
  if (partition.to === null) return false;
  const end = partition.to;
  for (const endpointId of await endpointsIn(pool, partition)) {
    const policy = policies.get(endpointId)?.policy;
    if (!policy) return false;
    const allBefore = before(now, policy.allDays);
    if (allBefore && end <= allBefore) continue;
    const acknowledgedBefore = before(now, policy.acknowledgedDays);
    if (!acknowledgedBefore || end > acknowledgedBefore) return false;
    const pending = await pool.query(
      `SELECT 1 FROM "${partition.name}" WHERE webhook_endpoint_id = $1 AND acknowledged_at IS NULL LIMIT 1`,
      [endpointId],
    );
    if (pending.rowCount) return false;
  }
  return true;
}

// One batch of an endpoint's expired deliveries, with their claims and forwards (attempts follow by their key).
const DELETE_EXPIRED = (acknowledgedOnly: boolean) => `
  WITH doomed AS (
    SELECT workspace_id, id, created_at FROM webhook_deliveries
    WHERE workspace_id = $1 AND webhook_endpoint_id = $2 AND created_at < $3
      ${acknowledgedOnly ? "AND acknowledged_at IS NOT NULL" : ""}
    LIMIT ${DELETE_BATCH}),
  gone AS (
    DELETE FROM webhook_deliveries d USING doomed x
    WHERE d.workspace_id = x.workspace_id AND d.id = x.id AND d.created_at = x.created_at
    RETURNING d.workspace_id, d.webhook_endpoint_id, d.dedup_key, d.id),
  claims AS (
    DELETE FROM delivery_dedup_claims c USING gone g
    WHERE c.workspace_id = g.workspace_id AND c.webhook_endpoint_id = g.webhook_endpoint_id
      AND c.dedup_key = g.dedup_key AND c.delivery_id = g.id),
  forwards AS (
    DELETE FROM delivery_forwards f USING gone g WHERE f.workspace_id = g.workspace_id AND f.delivery_id = g.id)
  SELECT count(*)::int AS removed FROM gone`;

async function deleteExpiredRows(pool: pg.Pool, endpoint: EndpointPolicy, now: Date): Promise<number> {
  let removed = 0;
  const passes: [boolean, Date | null][] = [
    [false, before(now, endpoint.policy?.allDays ?? null)],
    [true, before(now, endpoint.policy?.acknowledgedDays ?? null)],
  ];
  for (const [acknowledgedOnly, cutoff] of passes) {
    if (!cutoff) continue;
    for (;;) {
      const { rows } = await pool.query<{ removed: number }>(DELETE_EXPIRED(acknowledgedOnly), [
        endpoint.workspaceId,
        endpoint.endpointId,
        cutoff,
      ]);
      removed += rows[0]?.removed ?? 0;
      if ((rows[0]?.removed ?? 0) < DELETE_BATCH) break;
    }
  }
  return removed;
}

/** Drops the partitions that hold only expired deliveries, then deletes the expired deliveries left. */
export async function expireDeliveries(pool: pg.Pool, now: Date): Promise<ExpiryResult> {
  const policies = await endpointPolicies(pool);
  const partitionsDropped: string[] = [];
  for (const partition of await listDeliveryPartitions(pool)) {
    // Oldest first, so the rest are younger still. A day is kept until a day after it ended whatever it holds: every
    // policy keeps deliveries a day at least, and a write that began before midnight may still land in it.
    if (partition.to === null || partition.to.getTime() > now.getTime() - DAY_MS) break;
    if (!(await whollyExpired(pool, partition, policies, now))) continue;
    await dropDeliveryPartition(pool, partition);
    partitionsDropped.push(partition.name);
  }
  let rowsDeleted = 0;
  for (const endpoint of policies.values())
    if (endpoint.policy) rowsDeleted += await deleteExpiredRows(pool, endpoint, now);
  return { partitionsDropped, rowsDeleted };
}
