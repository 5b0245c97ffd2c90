import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { dbPool } from "@/lib/db/client";
import { layOutPastDayPartitions } from "@/test/delivery-days";
import { acknowledgeDelivery, acknowledgeDeliveries } from "./acknowledge-deliveries";
import { acknowledgeFilteredDeliveries } from "./acknowledge-filtered-deliveries";
import { DAY_MS, dropDeliveryPartition, listDeliveryPartitions } from "./delivery-partitions";
import { countEndpointDeliveries, foldEndpointDeliveryCounts } from "./endpoint-delivery-counts";
import { createWebhookEndpoint, deleteWebhookEndpoint } from "./webhook-endpoints";

// An endpoint's pending and total deliveries are kept by statement triggers as deliveries are written, acknowledged,
// deleted and dropped with their day (migration 20261129010000). After every change here, the kept counts must equal
// a count of the deliveries themselves.

const pool = () => dbPool();
let workspaceId: string;
let endpoints: string[];

beforeAll(async () => {
  await layOutPastDayPartitions(pool(), 5);
  workspaceId = (await createWorkspace({ name: "Counts" })).id;
  endpoints = [];
  for (const name of ["A", "B"])
    endpoints.push((await createWebhookEndpoint({ workspaceId, name, baseUrl: "http://localhost" })).id);
});

/** `count` deliveries of `endpointId` received `daysAgo` days ago (as ingest writes them: one INSERT). */
async function deliver(endpointId: string, count: number, daysAgo = 0, acknowledged = false): Promise<string[]> {
  const { rows } = await pool().query<{ id: string }>(
    `INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes,
                                     created_at, acknowledged_at)
     SELECT gen_random_uuid(), $1, $2, '\\x7b7d', '{}', '127.0.0.1', 2, at, CASE WHEN $5 THEN at END
     FROM generate_series(1, $3::int) AS n, LATERAL (SELECT now() - $4::int * interval '1 day' AS at) AS t
     RETURNING id::text`,
    [workspaceId, endpointId, count, daysAgo, acknowledged],
  );
  return rows.map((row) => row.id);
}

/** The kept counts against a count of the deliveries, for every endpoint of the workspace. */
async function expectCountsTrue(): Promise<void> {
  const { rows } = await pool().query<{ id: string; pending: number; total: number }>(
    `SELECT e.id, count(d.id) FILTER (WHERE d.acknowledged_at IS NULL)::int AS pending, count(d.id)::int AS total
     FROM webhook_endpoints e LEFT JOIN webhook_deliveries d ON d.workspace_id = e.workspace_id AND d.webhook_endpoint_id = e.id
     WHERE e.workspace_id = $1 GROUP BY e.id`,
    [workspaceId],
  );
  const kept = await countEndpointDeliveries(
    workspaceId,
    rows.map((row) => row.id),
  );
  for (const row of rows)
    expect(kept.get(row.id) ?? { pending: 0, total: 0 }, row.id).toEqual({ pending: row.pending, total: row.total });
}

describe("endpoint delivery counts", () => {
  it("follow writes, acknowledgements by id, in bulk and by filter, and row deletes", async () => {
    const [a, b] = endpoints as [string, string];
    const fresh = await deliver(a, 30);
    await deliver(b, 12);
    await deliver(b, 5, 0, true);
    await expectCountsTrue();

    await acknowledgeDelivery({ workspaceId, deliveryId: fresh[0]! });
    await acknowledgeDelivery({ workspaceId, deliveryId: fresh[0]! }); // again: nothing changes
    await acknowledgeDeliveries({ workspaceId, ids: fresh.slice(0, 10) });
    await expectCountsTrue();

    await acknowledgeFilteredDeliveries({ workspaceId, filter: { endpointId: b }, limit: 7 });
    await expectCountsTrue();

    await pool().query("DELETE FROM webhook_deliveries WHERE workspace_id = $1 AND id = ANY($2::uuid[])", [
      workspaceId,
      fresh.slice(5, 15),
    ]);
    await expectCountsTrue();
  });

  it("lose a day's deliveries when its partition is dropped", async () => {
    const [a, b] = endpoints as [string, string];
    await deliver(a, 8, 3);
    await deliver(b, 4, 3, true);
    await expectCountsTrue();
    const day = new Date(Math.floor((Date.now() - 3 * DAY_MS) / DAY_MS) * DAY_MS);
    const partition = (await listDeliveryPartitions(pool())).find((p) => p.from?.getTime() === day.getTime());
    await dropDeliveryPartition(pool(), partition!);
    await expectCountsTrue();
  });

  it("fold into one row per endpoint with the same sums, and leave nothing behind a deleted endpoint", async () => {
    const before = await pool().query("SELECT count(*)::int AS rows FROM endpoint_delivery_counts");
    expect(before.rows[0].rows).toBeGreaterThan(endpoints.length);
    // Two instances folding at once: one folds, the other skips.
    const results = await Promise.all([foldEndpointDeliveryCounts(pool()), foldEndpointDeliveryCounts(pool())]);
    expect(results.filter((result) => result !== null).length).toBeGreaterThanOrEqual(1);
    const { rows } = await pool().query<{ endpoint: string; rows: number }>(
      `SELECT webhook_endpoint_id AS endpoint, count(*)::int AS rows FROM endpoint_delivery_counts
       WHERE workspace_id = $1 GROUP BY 1`,
      [workspaceId],
    );
    expect(rows.every((row) => row.rows === 1)).toBe(true);
    await expectCountsTrue();

    await deleteWebhookEndpoint({ workspaceId, endpointId: endpoints[1]! });
    const left = await pool().query(
      "SELECT count(*)::int AS rows FROM endpoint_delivery_counts WHERE workspace_id = $1 AND webhook_endpoint_id = $2",
      [workspaceId, endpoints[1]],
    );
    expect(left.rows[0].rows).toBe(0);
    await expectCountsTrue();
  });
});
