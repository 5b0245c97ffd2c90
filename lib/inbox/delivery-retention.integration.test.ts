import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { dbPool } from "@/lib/db/client";
import {
  DAY_MS as DAY,
  deliveryPartitionName as dayName,
  ensureDeliveryPartitions,
  listDeliveryPartitions,
} from "./delivery-partitions";
import { runDeliveryMaintenance } from "./delivery-maintenance";
import { expireDeliveries } from "./delivery-retention";
import { ingestDelivery } from "./ingest-delivery";
import { layOutPastDayPartitions } from "@/test/delivery-days";
import { createWebhookEndpoint } from "./webhook-endpoints";

// Day partitions of webhook_deliveries and retention (issue #22), on a real PostgreSQL: partitions made ahead and
// by turns, a wholly expired day dropped as a table (its claims and forwards with it), and row deletes for what a drop
// cannot cover. The table is laid out with two months of past days; each test writes into a past day of its own and
// expires at a chosen "now" that is still in the past.

const pool = () => dbPool();
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;
/**
 * A past UTC day no other test of this file writes into, so its partition holds only what a test puts. Each test's
 * "now" stays within ten days of its day: the empty days before it may be dropped, the next test's day may not.
 */
let daysAgo = 72;
const freshDay = () => new Date(startOfDay(Date.now()) - (daysAgo -= 12) * DAY);

let workspaceId: string;

beforeAll(async () => {
  await layOutPastDayPartitions(pool(), 60);
  workspaceId = (await createWorkspace({ name: "Retention" })).id;
});

interface Policy {
  acknowledgedDays: number | null;
  allDays: number | null;
}

async function endpointWith(policy: Policy | null, workspace = workspaceId): Promise<string> {
  const { id } = await createWebhookEndpoint({ workspaceId: workspace, name: "kept", baseUrl: "http://localhost" });
  await pool().query("UPDATE webhook_endpoints SET retention = $1 WHERE workspace_id = $2 AND id = $3", [
    policy === null ? null : JSON.stringify(policy),
    workspace,
    id,
  ]);
  return id;
}

/** A delivery received at `at` (written as ingest writes it, with a claim and a forward when asked). */
async function deliveryAt(endpointId: string, at: Date, options: { acknowledged?: boolean; claim?: string } = {}) {
  const id = randomUUID();
  await pool().query(
    `INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes,
                                     dedup_key, created_at, acknowledged_at)
     VALUES ($1, $2, $3, '\\x7b7d', '{}', '127.0.0.1', 2, $4, $5, $6)`,
    [id, workspaceId, endpointId, options.claim ?? null, at, options.acknowledged ? at : null],
  );
  if (options.claim)
    await pool().query(
      `INSERT INTO delivery_dedup_claims (workspace_id, webhook_endpoint_id, dedup_key, delivery_id, delivery_created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [workspaceId, endpointId, options.claim, id, at],
    );
  return id;
}

const stored = async (ids: string[]) =>
  (
    await pool().query<{ id: string }>(
      "SELECT id::text FROM webhook_deliveries WHERE workspace_id = $1 AND id = ANY($2::uuid[]) ORDER BY id",
      [workspaceId, ids],
    )
  ).rows.map((row) => row.id);

const partitionNames = async () => (await listDeliveryPartitions(pool())).map((partition) => partition.name);

describe("day partitions", () => {
  it("are made a week ahead, once, whoever asks and however many ask at once", async () => {
    const now = new Date(Date.now() + 2 * DAY); // days the migration did not make
    const made = await Promise.all([1, 2, 3].map(() => ensureDeliveryPartitions(pool(), now, 7)));
    const names = await partitionNames();
    for (let offset = -1; offset <= 7; offset += 1)
      expect(names).toContain(dayName(new Date(startOfDay(now.getTime()) + offset * DAY)));
    // Each day made exactly once among the three callers (some may find it made).
    expect(made.flat().length).toBe(new Set(made.flat()).size);
    expect(await ensureDeliveryPartitions(pool(), now, 7)).toEqual([]);
  });
});

describe("retention", () => {
  it("drops a day whose every delivery is expired as one table, with its claims and forwards", async () => {
    const endpointId = await endpointWith({ acknowledgedDays: null, allDays: 3 });
    const day = freshDay();
    const ids = [
      await deliveryAt(endpointId, new Date(day.getTime() + 1_000), { claim: "msg_1" }),
      await deliveryAt(endpointId, new Date(day.getTime() + 2_000), { acknowledged: true }),
    ];
    const destination = await pool().query<{ id: string }>(
      `INSERT INTO webhook_destinations (id, workspace_id, webhook_endpoint_id, url, signing_secret, updated_at)
       VALUES ('dst_' || md5(random()::text), $1, $2, 'http://127.0.0.1:9/', 'whsec_x', now()) RETURNING id`,
      [workspaceId, endpointId],
    );
    await pool().query(
      `INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at, status)
       VALUES ($1, $2, $3, $4, 'failed')`,
      [workspaceId, ids[0], destination.rows[0]!.id, new Date(day.getTime() + 1_000)],
    );

    // Three days after the day ended, not yet: it is kept until all of it is past allDays.
    const notYet = await expireDeliveries(pool(), new Date(day.getTime() + 3 * DAY));
    expect(notYet.partitionsDropped).not.toContain(dayName(day));
    expect(await stored(ids)).toEqual([...ids].sort());

    const result = await expireDeliveries(pool(), new Date(day.getTime() + 4 * DAY + 1));
    expect(result.partitionsDropped).toContain(dayName(day));
    expect(await partitionNames()).not.toContain(dayName(day));
    expect(await stored(ids)).toEqual([]);
    const claims = await pool().query(
      "SELECT 1 FROM delivery_dedup_claims WHERE workspace_id = $1 AND delivery_id = $2",
      [workspaceId, ids[0]],
    );
    expect(claims.rowCount).toBe(0);
    const forwards = await pool().query(
      "SELECT 1 FROM delivery_forwards WHERE workspace_id = $1 AND delivery_id = $2",
      [workspaceId, ids[0]],
    );
    expect(forwards.rowCount).toBe(0);
  });

  it("deletes by row what a drop cannot cover: a day shared with an endpoint that keeps its deliveries", async () => {
    const expiring = await endpointWith({ acknowledgedDays: null, allDays: 2 });
    const keeping = await endpointWith(null);
    const day = freshDay();
    const gone = await deliveryAt(expiring, new Date(day.getTime() + 1_000), { claim: "msg_shared" });
    const kept = await deliveryAt(keeping, new Date(day.getTime() + 2_000));

    const result = await expireDeliveries(pool(), new Date(day.getTime() + 10 * DAY));
    expect(result.partitionsDropped).not.toContain(dayName(day));
    expect(result.rowsDeleted).toBeGreaterThanOrEqual(1);
    expect(await stored([gone, kept])).toEqual([kept]);
    const claims = await pool().query(
      "SELECT 1 FROM delivery_dedup_claims WHERE workspace_id = $1 AND delivery_id = $2",
      [workspaceId, gone],
    );
    expect(claims.rowCount).toBe(0);
  });

  it("keeps pending deliveries until allDays and removes acknowledged ones after acknowledgedDays", async () => {
    const endpointId = await endpointWith({ acknowledgedDays: 1, allDays: 30 });
    const day = freshDay();
    const acknowledged = await deliveryAt(endpointId, new Date(day.getTime() + 1_000), { acknowledged: true });
    const pending = await deliveryAt(endpointId, new Date(day.getTime() + 2_000));

    const result = await expireDeliveries(pool(), new Date(day.getTime() + 5 * DAY));
    expect(result.partitionsDropped).not.toContain(dayName(day)); // a pending delivery is still kept
    expect(await stored([acknowledged, pending])).toEqual([pending]);

    // Once the pending one is acknowledged, the whole day is past its acknowledgedDays: the partition goes.
    await pool().query("UPDATE webhook_deliveries SET acknowledged_at = now() WHERE workspace_id = $1 AND id = $2", [
      workspaceId,
      pending,
    ]);
    expect((await expireDeliveries(pool(), new Date(day.getTime() + 5 * DAY))).partitionsDropped).toContain(
      dayName(day),
    );
    expect(await stored([pending])).toEqual([]);
  });

  it("follows the workspace default when the endpoint has none, and keeps everything without either", async () => {
    const other = (await createWorkspace({ name: "Retention default" })).id;
    await pool().query("UPDATE workspaces SET delivery_retention = $1 WHERE id = $2", [
      JSON.stringify({ acknowledgedDays: null, allDays: 1 }),
      other,
    ]);
    const inherits = await endpointWith(null, other);
    const forever = await endpointWith(null);
    const day = freshDay();
    const inherited = randomUUID();
    await pool().query(
      `INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, created_at)
       VALUES ($1, $2, $3, '\\x7b7d', '{}', '127.0.0.1', 2, $4)`,
      [inherited, other, inherits, new Date(day.getTime() + 1_000)],
    );
    const keptForever = await deliveryAt(forever, new Date(day.getTime() + 1_000));

    await expireDeliveries(pool(), new Date(day.getTime() + 10 * DAY));
    const left = await pool().query<{ id: string }>(
      "SELECT id::text FROM webhook_deliveries WHERE id = ANY($1::uuid[]) ORDER BY id",
      [[inherited, keptForever]],
    );
    expect(left.rows.map((row) => row.id)).toEqual([keptForever]);
  });

  it("lets a sender's retry of an expired delivery be stored again: dedup holds within the retention window", async () => {
    const endpointId = await endpointWith({ acknowledgedDays: null, allDays: 1 });
    // Today's partition also holds a delivery kept forever, so the expired one is deleted by row.
    await deliveryAt(await endpointWith(null), new Date());
    const send = () =>
      ingestDelivery({
        hookId: endpointId,
        headers: { "content-type": "application/json", "webhook-id": "msg_retry" },
        readBody: async () => Buffer.from('{"n":1}'),
        sourceIp: "127.0.0.1",
        query: "",
      });
    const first = await send();
    expect(await send()).toEqual({ deliveryId: first.deliveryId, duplicate: true });

    expect((await expireDeliveries(pool(), new Date(Date.now() + 2 * DAY))).rowsDeleted).toBeGreaterThanOrEqual(1);
    expect(await stored([first.deliveryId])).toEqual([]);
    const again = await send();
    expect(again.duplicate).toBe(false);
    expect(again.deliveryId).not.toBe(first.deliveryId);
  });

  it("runs by turns: passes started together never fail, and at most one works at a time", async () => {
    const passes = await Promise.all([1, 2, 3].map(() => runDeliveryMaintenance(pool())));
    expect(passes.some((pass) => pass !== null)).toBe(true);
    // The empty past days are dropped, each once; yesterday, today and the week ahead stay.
    const dropped = passes.flatMap((pass) => pass?.partitionsDropped ?? []);
    expect(dropped.length).toBe(new Set(dropped).size);
    const names = await partitionNames();
    for (let offset = -1; offset <= 7; offset += 1)
      expect(names).toContain(dayName(new Date(startOfDay(Date.now()) + offset * DAY)));
  });
});
