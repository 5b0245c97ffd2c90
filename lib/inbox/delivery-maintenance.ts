import type pg from "pg";
import { ensureDeliveryPartitions } from "./delivery-partitions";
import { expireDeliveries, type ExpiryResult } from "./delivery-retention";
import { foldEndpointDeliveryCounts } from "./endpoint-delivery-counts";

/*
 * The deliveries table's upkeep, run by every instance (the launcher, and `npm run forward-worker` beside `next
 * start`): day partitions made a week ahead and expired deliveries removed every 15 minutes, the endpoints' delivery
 * counts folded every minute. Several instances making the same day's partition at once is harmless (the second finds
 * it made). Instances take turns through PostgreSQL advisory locks, and one that finds a turn taken skips it, so any
 * number can run the upkeep at once. Timers and locks rather than a job-queue schedule: the upkeep must run where no
 * forwarding worker does, and a pass that is skipped or fails is simply the next pass's work (nothing is queued or
 * lost).
 */

/** Partitions are made this many days ahead: deliveries keep being stored through a week without a pass. */
export const PARTITION_DAYS_AHEAD = 7;
const PASS_INTERVAL_MS = 15 * 60_000;
const COUNT_FOLD_INTERVAL_MS = 60_000;
const LOCK_KEY = "signalbox.delivery_maintenance";

export interface MaintenancePass extends ExpiryResult {
  partitionsMade: string[];
}

const databaseNow = async (pool: pg.Pool) => (await pool.query<{ now: Date }>("SELECT now()")).rows[0]!.now;

/** One pass at `now` (the database's clock unless given), or null when another instance holds the turn. */
export async function runDeliveryMaintenance(pool: pg.Pool, at?: Date): Promise<MaintenancePass | null> {
  const now = at ?? (await databaseNow(pool));
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ taken: boolean }>(
      "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken",
      [LOCK_KEY],
    );
    if (!rows[0]?.taken) return null;
    try {
      const partitionsMade = await ensureDeliveryPartitions(pool, now, PARTITION_DAYS_AHEAD);
      return { partitionsMade, ...(await expireDeliveries(pool, now)) };
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * Makes today's and the coming week's partitions before it resolves (a delivery can only be stored in its day's
 * partition), then runs a pass now and every PASS_INTERVAL_MS. Resolves with the function that stops it (after a pass
 * in progress).
 */
export async function startDeliveryMaintenance(
  pool: pg.Pool,
  log: (message: string) => void,
): Promise<() => Promise<void>> {
  await ensureDeliveryPartitions(pool, await databaseNow(pool), PARTITION_DAYS_AHEAD).catch((error: unknown) =>
    log(`Could not make the deliveries table's day partitions yet, retried in the next pass: ${String(error)}`),
  );
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = runDeliveryMaintenance(pool).then(
      (result) => {
        if (!result) return;
        const { partitionsMade, partitionsDropped, rowsDeleted } = result;
        if (partitionsMade.length || partitionsDropped.length || rowsDeleted)
          log(
            `Deliveries: ${partitionsMade.length} day partition(s) made, ${partitionsDropped.length} expired ` +
              `partition(s) dropped, ${rowsDeleted} expired deliveries deleted`,
          );
      },
      (error: unknown) => log(`Delivery maintenance failed, retried in the next pass: ${String(error)}`),
    );
  };
  pass();
  const timer = setInterval(pass, PASS_INTERVAL_MS);
  timer.unref();
  // Every ingest batch adds a row of counts per endpoint: folded each minute, an endpoint's read sums a minute's.
  let folding: Promise<unknown> = Promise.resolve();
  const foldTimer = setInterval(() => {
    folding = foldEndpointDeliveryCounts(pool).catch((error: unknown) =>
      log(`Folding the endpoints' delivery counts failed, retried in a minute: ${String(error)}`),
    );
  }, COUNT_FOLD_INTERVAL_MS);
  foldTimer.unref();
  return async () => {
    clearInterval(timer);
    clearInterval(foldTimer);
    await Promise.all([running, folding]);
  };
}
