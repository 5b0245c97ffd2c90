import { v4 as uuidv4, v7 as uuidv7 } from "uuid";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { dbPool } from "@/lib/db/client";
import { layOutPastDayPartitions } from "@/test/delivery-days";
import { acknowledgeDelivery, acknowledgeDeliveries } from "./acknowledge-deliveries";
import { getDelivery, getDeliveryRawBody } from "./deliveries";
import { DAY_MS } from "./delivery-partitions";
import { createWebhookEndpoint } from "./webhook-endpoints";

// A look-up by id goes to the days its UUIDv7 allows, and must still find every delivery: those whose id carries a
// time far from their receipt (a clock off by days) and those from before ids carried one (UUIDv4).

let workspaceId: string;
let endpointId: string;

beforeAll(async () => {
  await layOutPastDayPartitions(dbPool(), 10);
  workspaceId = (await createWorkspace({ name: "Ids" })).id;
  endpointId = (await createWebhookEndpoint({ workspaceId, name: "Orders", baseUrl: "http://localhost" })).id;
});

/** A delivery stored with `id`, received `daysAgo` days ago. */
async function store(id: string, daysAgo: number): Promise<string> {
  await dbPool().query(
    `INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, created_at)
     VALUES ($1::uuid, $2, $3, convert_to($1::text, 'UTF8'), '{}', '127.0.0.1', 36, now() - $4::int * interval '1 day')`,
    [id, workspaceId, endpointId, daysAgo],
  );
  return id;
}

const kinds = [
  ["a UUIDv7 of its receipt time", () => store(uuidv7(), 0)],
  ["a UUIDv7 from a clock five days ahead", () => store(uuidv7({ msecs: Date.now() + 5 * DAY_MS }), 0)],
  ["a UUIDv7 of its receipt time, four days ago", () => store(uuidv7({ msecs: Date.now() - 4 * DAY_MS }), 4)],
  ["a UUIDv4 from before", () => store(uuidv4(), 6)],
] as const;

describe("looking a delivery up by id", () => {
  it.each(kinds)("finds one with %s: read, raw, acknowledged", async (_kind, make) => {
    const id = await make();
    expect((await getDelivery({ workspaceId, deliveryId: id })).id).toBe(id);
    expect(Buffer.from((await getDeliveryRawBody({ workspaceId, deliveryId: id })).body).toString()).toBe(id);
    expect((await acknowledgeDelivery({ workspaceId, deliveryId: id })).acknowledgedAt).not.toBeNull();
  });

  it("acknowledges a batch of every kind in one call, each id in its list", async () => {
    const ids = [];
    for (const [, make] of kinds) ids.push(await make());
    const done = await acknowledgeDelivery({ workspaceId, deliveryId: ids[1]! });
    const unknown = uuidv7();
    const result = await acknowledgeDeliveries({ workspaceId, ids: [...ids, unknown] });
    expect(result).toEqual({
      acknowledged: [ids[0], ids[2], ids[3]],
      alreadyAcknowledged: [done.id],
      notFound: [unknown],
    });
    const allV7 = [await kinds[0][1](), await kinds[1][1]()];
    expect(await acknowledgeDeliveries({ workspaceId, ids: allV7 })).toEqual({
      acknowledged: allV7,
      alreadyAcknowledged: [],
      notFound: [],
    });
  });

  it("does not find another workspace's delivery", async () => {
    const other = (await createWorkspace({ name: "Other" })).id;
    const id = await kinds[0][1]();
    await expect(getDelivery({ workspaceId: other, deliveryId: id })).rejects.toMatchObject({ code: "not_found" });
    expect((await acknowledgeDeliveries({ workspaceId: other, ids: [id] })).notFound).toEqual([id]);
  });
});
