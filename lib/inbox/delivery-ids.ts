import { v7 as uuidv7 } from "uuid";
import { Prisma } from "@/lib/db/generated/client";
import { DAY_MS } from "./delivery-partitions";

/**
 * A new delivery's id: a UUIDv7, whose first 48 bits are the time it was received (this process's clock, in
 * milliseconds). The deliveries table is partitioned by receipt day, and its keys end with the receipt time: an id that
 * tells its time lets a look-up by id read its own days instead of every day's partition.
 */
export const newDeliveryId = (): string => uuidv7();

/**
 * How far a delivery's `created_at` (the database's clock when it was written) may be from the time in its id (the
 * receiving process's clock): the wait for its write plus the clocks' difference. Generous, since a look-up that finds
 * nothing within it looks again in every day.
 */
const CLOCK_SLACK_MS = DAY_MS;

const RECEIVED_AT = Prisma.raw("created_at");

/** The receipt time a UUIDv7 carries, or null for other ids (deliveries stored before ids were UUIDv7 are UUIDv4). */
function idTime(id: string): number | null {
  return id[14] === "7" ? parseInt(id.slice(0, 8) + id.slice(9, 13), 16) : null;
}

/**
 * A condition on `created_at` that every delivery among `ids` meets, from the times they carry; null when one carries
 * none. Written as a bound on the partition key, it prunes the look-up to those days when the statement is planned.
 */
export function receiptTimeBounds(ids: string[], column = RECEIVED_AT): Prisma.Sql | null {
  const times = ids.map(idTime);
  if (times.length === 0 || times.some((time) => time === null)) return null;
  const earliest = new Date(Math.min(...(times as number[])) - CLOCK_SLACK_MS);
  const latest = new Date(Math.max(...(times as number[])) + CLOCK_SLACK_MS);
  return Prisma.sql`${column} >= ${earliest}::timestamptz AND ${column} < ${latest}::timestamptz`;
}

/**
 * Looks a delivery up by id within the days its id allows, then, if that found nothing, in every day (an id from
 * before UUIDv7, or a clock off by more than the slack). `lookUp` gets the condition on `column` (the deliveries'
 * `created_at`) to add.
 */
export async function lookUpByDeliveryId<T>(
  id: string,
  lookUp: (receivedWithin: Prisma.Sql) => Promise<T | undefined>,
  column = RECEIVED_AT,
): Promise<T | undefined> {
  const bounds = receiptTimeBounds([id], column);
  if (bounds) {
    const found = await lookUp(bounds);
    if (found !== undefined) return found;
  }
  return lookUp(Prisma.sql`true`);
}
