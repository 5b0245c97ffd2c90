import type pg from "pg";

/*
 * The partitions of `webhook_deliveries`: one per UTC day of receipt (migration 20261128060000), named
 * `webhook_deliveries_pYYYYMMDD`, plus the first one (`_p_legacy`, everything up to the migration's day). There is no
 * default partition (the migration says why): a row whose day has no partition cannot be stored, so days are made a
 * week ahead. What a partition covers is read from the catalog, never from its name.
 */

const PARENT = "webhook_deliveries";
/** A UTC day, the span of one partition. */
export const DAY_MS = 86_400_000;

/** One partition and the receipt times it holds, [from, to); null ends are open. */
export interface DeliveryPartition {
  name: string;
  from: Date | null;
  to: Date | null;
}

/** Waits at most this long for a lock on the deliveries table, so ingest never queues behind maintenance for longer. */
const MAINTENANCE_LOCK_TIMEOUT = "500ms";

/** The name of the partition of the UTC day that starts at `day`. */
export const deliveryPartitionName = (day: Date) => `${PARENT}_p${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
const startOfUtcDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

function parseBound(text: string): Date | null {
  if (text === "MINVALUE" || text === "MAXVALUE") return null;
  return new Date(text.replace(/^'|'$/g, ""));
}

/** The partitions, oldest first. */
export async function listDeliveryPartitions(client: pg.ClientBase | pg.Pool): Promise<DeliveryPartition[]> {
  const { rows } = await client.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::regclass`,
    [PARENT],
  );
  const partitions: DeliveryPartition[] = [];
  for (const row of rows) {
    // FOR VALUES FROM ('2026-11-28 00:00:00+00') TO ('2026-11-29 00:00:00+00'), or DEFAULT.
    const match = /FROM \((.+)\) TO \((.+)\)$/.exec(row.bound);
    if (!match) continue;
    partitions.push({ name: row.name, from: parseBound(match[1]!), to: parseBound(match[2]!) });
  }
  return partitions.sort((a, b) => (a.from?.getTime() ?? -Infinity) - (b.from?.getTime() ?? -Infinity));
}

/**
 * Makes sure every UTC day from yesterday (a clock a little behind the database's) to `daysAhead` days on has its
 * partition. A day's partition is made as a table of its own, then attached: attaching takes a lock that lets ingest
 * and reads go on, where CREATE TABLE … PARTITION OF would stop them. Returns the partitions made.
 */
export async function ensureDeliveryPartitions(pool: pg.Pool, now: Date, daysAhead: number): Promise<string[]> {
  const existing = await listDeliveryPartitions(pool);
  const covered = (day: Date) =>
    existing.some(
      (partition) =>
        (partition.from === null || partition.from <= day) && (partition.to === null || partition.to > day),
    );
  const made: string[] = [];
  const today = startOfUtcDay(now);
  for (let offset = -1; offset <= daysAhead; offset += 1) {
    const day = new Date(today.getTime() + offset * DAY_MS);
    if (covered(day)) continue;
    const next = new Date(day.getTime() + DAY_MS);
    const name = deliveryPartitionName(day);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(`SET LOCAL lock_timeout = '${MAINTENANCE_LOCK_TIMEOUT}'`);
      await client.query(`CREATE TABLE "${name}" (LIKE "${PARENT}" INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      // Proves the range to ATTACH, which then need not scan the table.
      await client.query(
        `ALTER TABLE "${name}" ADD CONSTRAINT "${name}_range"
         CHECK (created_at >= '${day.toISOString()}' AND created_at < '${next.toISOString()}')`,
      );
      await client.query(
        `ALTER TABLE "${PARENT}" ATTACH PARTITION "${name}"
         FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}')`,
      );
      await client.query(`ALTER TABLE "${name}" DROP CONSTRAINT "${name}_range"`);
      await client.query("COMMIT");
      made.push(name);
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      // Another instance made it first: a duplicate table (42P07), its row type (42710: when the other committed between
      // this one's two name checks), or their catalog rows (23505: when both were at it at once).
      const code = (error as { code?: string }).code;
      if (code !== "42P07" && code !== "42710" && code !== "23505") throw error;
    } finally {
      client.release();
    }
  }
  return made;
}

/**
 * Detaches and drops one partition, with what belonged to the deliveries it held (their dedup claims, their forwards,
 * whose attempts follow by their key, and their share of their endpoints' counts), in one transaction. Detaching
 * needs a moment of exclusive lock on the deliveries table: it waits at most MAINTENANCE_LOCK_TIMEOUT (the caller tries
 * again on its next pass), so ingest never stalls behind it for longer.
 */
export async function dropDeliveryPartition(pool: pg.Pool, partition: DeliveryPartition): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(`SET LOCAL lock_timeout = '${MAINTENANCE_LOCK_TIMEOUT}'`);
    await client.query(`ALTER TABLE "${PARENT}" DETACH PARTITION "${partition.name}"`);
    // A drop fires no delete trigger: the endpoints' counts lose the day's deliveries here. Detached, the table no
    // longer changes under this transaction's lock.
    await client.query(
      `INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
       SELECT workspace_id, webhook_endpoint_id, -count(*) FILTER (WHERE acknowledged_at IS NULL), -count(*)
       FROM "${partition.name}" GROUP BY workspace_id, webhook_endpoint_id`,
    );
    await client.query(`DROP TABLE "${partition.name}"`);
    await client.query(
      `DELETE FROM delivery_dedup_claims
       WHERE ($1::timestamptz IS NULL OR delivery_created_at >= $1) AND delivery_created_at < $2`,
      [partition.from, partition.to],
    );
    await client.query(
      `DELETE FROM delivery_forwards
       WHERE ($1::timestamptz IS NULL OR delivery_created_at >= $1) AND delivery_created_at < $2`,
      [partition.from, partition.to],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
