import type pg from "pg";
import { DAY_MS, ensureDeliveryPartitions } from "@/lib/inbox/delivery-partitions";

/**
 * Lays out the deliveries table as a deployment that has run for `days` days has it: one partition per past day. The
 * migration makes one partition for everything before it, so a fresh database has none; this replaces that first
 * partition, which must be empty.
 */
export async function layOutPastDayPartitions(pool: pg.Pool, days: number): Promise<void> {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  await pool.query("ALTER TABLE webhook_deliveries DETACH PARTITION webhook_deliveries_p_legacy");
  await pool.query("DROP TABLE webhook_deliveries_p_legacy");
  const start = new Date(today - days * DAY_MS).toISOString();
  await pool.query(
    `CREATE TABLE webhook_deliveries_p_legacy PARTITION OF webhook_deliveries FOR VALUES FROM (MINVALUE) TO ('${start}')`,
  );
  for (let day = days - 1; day >= 0; day -= 1) await ensureDeliveryPartitions(pool, new Date(today - day * DAY_MS), 0);
}
