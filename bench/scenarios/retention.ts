import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { DAY_MS, deliveryPartitionName, ensureDeliveryPartitions } from "@/lib/inbox/delivery-partitions";
import { expireDeliveries } from "@/lib/inbox/delivery-retention";
import { seedDeliveries } from "../lib/database";
import type { BenchAccount } from "../lib/fixtures";
import { ms, ratio, type BenchContext, type ScenarioOutcome } from "../lib/report";

/**
 * Expiring a day of deliveries (issue #22): a day whose every delivery is past its endpoint's `allDays` is dropped as
 * a partition; the same number in a day that also holds a delivery kept forever must be deleted by row, which is the
 * baseline. Both days are seeded alike, in the past where nothing else writes.
 */
export async function retentionScenario(context: BenchContext, account: BenchAccount): Promise<ScenarioOutcome> {
  const { pool, config, log } = context;
  const perDay = config.retention.deliveriesPerDay;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  // Two past days before the listing's (twelve days back), expired at a "now" of their own, still in the past.
  const [dropDay, rowsDay] = [new Date(today - 20 * DAY_MS), new Date(today - 14 * DAY_MS)];
  await pool.query("UPDATE webhook_endpoints SET retention = $1 WHERE workspace_id = $2 AND id = $3", [
    JSON.stringify({ acknowledgedDays: null, allDays: 1 }),
    account.workspaceId,
    account.endpointId,
  ]);
  const kept = await createWebhookEndpoint({ workspaceId: account.workspaceId, name: "kept", baseUrl: "http://b" });

  for (const day of [dropDay, rowsDay]) {
    await ensureDeliveryPartitions(pool, day, 0);
    log(`retention: seeding ${perDay} deliveries on ${day.toISOString().slice(0, 10)}`);
    await seedDeliveries(pool, {
      workspaceId: account.workspaceId,
      endpointId: account.endpointId,
      from: 1,
      to: perDay,
      anchor: new Date(day.getTime() + DAY_MS - 1),
      spacingMs: Math.floor((DAY_MS - 1) / perDay),
    });
  }
  await seedDeliveries(pool, {
    workspaceId: account.workspaceId,
    endpointId: kept.id,
    from: 1,
    to: 1,
    anchor: new Date(rowsDay.getTime() + DAY_MS - 1),
  });
  await pool.query("CHECKPOINT");

  const timed = async (now: Date) => {
    const started = performance.now();
    const result = await expireDeliveries(pool, now);
    return { ...result, ms: performance.now() - started };
  };
  // Two days after each day ends, its deliveries (allDays: 1) are all expired.
  const dropped = await timed(new Date(dropDay.getTime() + 2 * DAY_MS));
  log(`retention: day dropped in ${ms(dropped.ms)} (${dropped.partitionsDropped.join(", ")})`);
  const deleted = await timed(new Date(rowsDay.getTime() + 2 * DAY_MS));
  log(`retention: ${deleted.rowsDeleted} deliveries deleted by row in ${ms(deleted.ms)}`);
  const dropDayName = deliveryPartitionName(dropDay);
  if (!dropped.partitionsDropped.includes(dropDayName) || dropped.rowsDeleted !== 0 || deleted.rowsDeleted !== perDay)
    throw new Error(`Expected one dropped day and ${perDay} rows deleted; got ${JSON.stringify({ dropped, deleted })}`);

  const speedup = deleted.ms / dropped.ms;
  return {
    name: "retention",
    figures: { deliveriesPerDay: perDay, dropMs: dropped.ms, rowDeleteMs: deleted.ms },
    tables: [
      {
        header: [`Expiring a day of ${perDay} deliveries`, "time"],
        rows: [
          ["partition drop (every delivery of the day expired)", ms(dropped.ms)],
          ["row deletes (the day also holds a kept delivery): baseline", ms(deleted.ms)],
        ],
      },
    ],
    checks: [
      {
        target: "Expiring a day: partition drop vs row deletes",
        measured: `${ratio(speedup)} faster`,
        limit: "≥ 10× faster",
        holds: speedup >= 10,
      },
    ],
  };
}
