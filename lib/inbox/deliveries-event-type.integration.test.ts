import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import {
  createWebhookEndpointContract,
  listDeliveriesContract,
  listDeliveryEventTypesContract,
  MAX_LISTED_EVENT_TYPES,
} from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { detailPaths, errorOf, requestApi } from "@/test/http-api";

// The `eventType` filter of the deliveries listing over HTTP: alone, with every other filter and both orders, across
// cursor walks, bound into the cursor, and within the caller's workspace only. Rows are inserted with chosen types,
// receipt times (three to a second, so walks cross ties the id must break) and acknowledgements.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

const TYPES = ["issues.opened", "push", null, "invoice.paid"] as const;
const BASE = Date.parse("2026-04-01T08:00:00.000Z");
const at = (ms: number) => new Date(BASE + ms).toISOString();
const DELIVERIES = "/v1/webhook-endpoints/deliveries";

interface Seeded {
  id: string;
  createdAt: Date;
  endpointId: string;
  acknowledged: boolean;
  eventType: string | null;
}

interface Tenant {
  key: string;
  client: ApiClient;
  endpointA: string;
  endpointB: string;
  seeded: Seeded[];
}

let tenantCounter = 0;

/**
 * 90 rows: row k is received at BASE + floor(k / 3) s, goes to endpoint B when k % 3 = 1, has type TYPES[k % 4]
 * and is acknowledged when k % 5 = 0 (so every type lands on both endpoints, pending and acknowledged).
 */
async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Event type filter ${++tenantCounter}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  const endpoint = async (name: string) =>
    (await client.call(createWebhookEndpointContract, { body: { name } })).data.id;
  const endpointA = await endpoint("A");
  const endpointB = await endpoint("B");
  const rows = await db().$queryRaw<
    { id: string; created_at: Date; webhook_endpoint_id: string; acked: boolean; event_type: string | null }[]
  >`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at,
       acknowledged_at, event_type)
    SELECT gen_random_uuid(), ${workspace.id}, CASE WHEN k % 3 = 1 THEN ${endpointB} ELSE ${endpointA} END,
           convert_to('{}', 'UTF8'), 'application/json', '{"content-type":"application/json"}'::jsonb, '203.0.113.7', 2,
           ${new Date(BASE)}::timestamptz + (k / 3) * interval '1 second',
           CASE WHEN k % 5 = 0 THEN now() END,
           (${TYPES as unknown as string[]}::text[])[k % 4 + 1]
    FROM generate_series(0, 89) AS k
    RETURNING id::text AS id, created_at, webhook_endpoint_id, acknowledged_at IS NOT NULL AS acked, event_type`;
  const seeded = rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    endpointId: row.webhook_endpoint_id,
    acknowledged: row.acked,
    eventType: row.event_type,
  }));
  return { key, client, endpointA, endpointB, seeded };
}

type Filters = { eventType?: string; endpointId?: string; unacknowledged?: boolean; since?: string; until?: string };

/** The seeded ids a listing should answer, in its order, worked out here rather than by the server. */
function expected(tenant: Tenant, filters: Filters, order: "asc" | "desc" = "desc"): string[] {
  const since = filters.since === undefined ? -Infinity : Date.parse(filters.since);
  const until = filters.until === undefined ? Infinity : Date.parse(filters.until);
  const ids = tenant.seeded
    .filter(
      (row) =>
        (filters.eventType === undefined || row.eventType === filters.eventType) &&
        row.createdAt.getTime() >= since &&
        row.createdAt.getTime() < until &&
        (filters.endpointId === undefined || row.endpointId === filters.endpointId) &&
        (filters.unacknowledged === undefined || row.acknowledged !== filters.unacknowledged),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((row) => row.id);
  return order === "asc" ? ids : ids.reverse();
}

type ListQuery = Omit<Filters, "unacknowledged"> & {
  unacknowledged?: "true" | "false";
  order?: "asc" | "desc";
  limit?: number;
  cursor?: string;
};

const asQuery = (filters: Filters): ListQuery => ({
  ...filters,
  unacknowledged: filters.unacknowledged === undefined ? undefined : filters.unacknowledged ? "true" : "false",
});

/** Follows nextCursor to the end; every id the pages held, in order. */
async function walk(tenant: Tenant, query: Omit<ListQuery, "cursor">): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 200; page += 1) {
    const answer = (await tenant.client.call(listDeliveriesContract, { query: { ...query, cursor } })).data;
    ids.push(...answer.deliveries.map((delivery) => delivery.id));
    if (!answer.nextCursor) return ids;
    cursor = answer.nextCursor;
  }
  throw new Error("the walk did not end");
}

const call = (key: string, query: string) => requestApi(app.baseUrl, key, "GET", `${DELIVERIES}?${query}`);

describe("GET /v1/webhook-endpoints/deliveries: eventType", () => {
  let tenant: Tenant;
  let neighbour: Tenant;

  beforeAll(async () => {
    tenant = await newTenant();
    neighbour = await newTenant(); // the same types in another workspace
  });

  it("alone selects exactly the deliveries of that type, exact and case-sensitive", async () => {
    for (const [eventType, count] of [
      ["issues.opened", 23],
      ["push", 23],
      ["invoice.paid", 22],
    ] as const) {
      const ids = await walk(tenant, { eventType, limit: 100 });
      expect(ids).toEqual(expected(tenant, { eventType }));
      expect(ids).toHaveLength(count);
    }
    for (const eventType of ["Push", "push ", "issues", "issues.*", "%"]) {
      expect(await walk(tenant, { eventType, limit: 100 }), eventType).toEqual([]);
    }
  });

  it.each(["desc", "asc"] as const)("combines with endpointId, unacknowledged, since and until (%s)", async (order) => {
    const window = { since: at(5_000), until: at(20_000) };
    for (const endpointId of [undefined, tenant.endpointA, tenant.endpointB]) {
      for (const unacknowledged of [undefined, true, false]) {
        for (const range of [{}, window]) {
          const filters = { eventType: "push", endpointId, unacknowledged, ...range };
          const ids = await walk(tenant, { ...asQuery(filters), order, limit: 100 });
          const want = expected(tenant, filters, order);
          expect(ids, JSON.stringify(filters)).toEqual(want);
          expect(want.length, JSON.stringify(filters)).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each(["desc", "asc"] as const)(
    "a cursor walk at a small limit visits every match exactly once (%s)",
    async (order) => {
      const ids = await walk(tenant, { eventType: "issues.opened", order, limit: 4 });
      expect(ids).toEqual(expected(tenant, { eventType: "issues.opened" }, order));
      expect(new Set(ids).size).toBe(23);

      const narrow = { eventType: "push", endpointId: tenant.endpointB, unacknowledged: true, since: at(3_000) };
      const filtered = await walk(tenant, { ...asQuery(narrow), order, limit: 2 });
      expect(filtered).toEqual(expected(tenant, narrow, order));
      expect(filtered.length).toBeGreaterThan(2);
    },
  );

  it.each(["desc", "asc"] as const)(
    "visits every match that existed when the walk began exactly once while deliveries of that type arrive (%s)",
    async (order) => {
      const own = await newTenant();
      const before = expected(own, { eventType: "push" }, order);
      const ids: string[] = [];
      let cursor: string | undefined;
      let arrived = 0;
      for (let page = 0; page < 100; page += 1) {
        const answer = (
          await own.client.call(listDeliveriesContract, { query: { eventType: "push", order, limit: 3, cursor } })
        ).data;
        ids.push(...answer.deliveries.map((delivery) => delivery.id));
        // Between pages, three deliveries arrive: two of the type (newer than everything seeded), one of another.
        await db().$executeRaw`
          INSERT INTO webhook_deliveries
            (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, event_type)
          SELECT gen_random_uuid(), e.workspace_id, e.id, '\\x7b7d'::bytea, '{}'::jsonb, '203.0.113.7', 2, t
          FROM webhook_endpoints e, unnest(ARRAY['push', 'push', 'invoice.paid']) AS t
          WHERE e.id = ${own.endpointA}`;
        arrived += 2;
        if (!answer.nextCursor) break;
        cursor = answer.nextCursor;
      }
      expect(new Set(ids).size).toBe(ids.length);
      if (order === "desc") {
        // Newest first, the walk goes back in time: it sees exactly the matches that existed when it began.
        expect(ids).toEqual(before);
      } else {
        // Oldest first, it starts with every match that existed and walks into the arrivals behind them.
        expect(ids.slice(0, before.length)).toEqual(before);
        expect(ids.length).toBeGreaterThan(before.length);
        expect(ids.length).toBeLessThanOrEqual(before.length + arrived);
      }
    },
  );

  it("binds the type into the cursor: refused for another type, without one, or when added", async () => {
    const typed = await tenant.client.call(listDeliveriesContract, { query: { eventType: "push", limit: 2 } });
    const cursor = encodeURIComponent(typed.data.nextCursor!);
    const plain = (await tenant.client.call(listDeliveriesContract, { query: { limit: 2 } })).data.nextCursor!;
    for (const query of [
      `cursor=${cursor}&eventType=issues.opened`,
      `cursor=${cursor}&eventType=Push`,
      `cursor=${cursor}`,
      `cursor=${encodeURIComponent(plain)}&eventType=push`,
    ]) {
      const answer = await call(tenant.key, query);
      expect(answer.status, query).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
      expect(detailPaths(answer.json), query).toEqual(["cursor"]);
    }
    const next = await call(tenant.key, `cursor=${cursor}&eventType=push&limit=2`);
    expect(next.status, next.text).toBe(200);
  });

  it("sees only the caller's workspace", async () => {
    const mine = new Set(tenant.seeded.map((row) => row.id));
    const theirs = await walk(neighbour, { eventType: "push", limit: 100 });
    expect(theirs).toEqual(expected(neighbour, { eventType: "push" }));
    expect(theirs.some((id) => mine.has(id))).toBe(false);
    // Another workspace's endpoint with a type matches nothing here.
    expect(await walk(tenant, { eventType: "push", endpointId: neighbour.endpointA, limit: 100 })).toEqual([]);
  });

  it.each<[string, RegExp]>([
    ["eventType=", /must not be empty/],
    [`eventType=${"x".repeat(201)}`, /at most 200/],
  ])("answers ?%s with 400 naming eventType", async (query, message) => {
    const answer = await call(tenant.key, query);
    expect(answer.status, answer.text).toBe(400);
    expect(detailPaths(answer.json)).toEqual(["eventType"]);
    expect(errorOf(answer.json).details?.[0]?.message).toMatch(message);
  });
});

describe("GET /v1/webhook-endpoints/deliveries/event-types", () => {
  let tenant: Tenant;
  let neighbour: Tenant;

  beforeAll(async () => {
    tenant = await newTenant();
    neighbour = await newTenant();
  });

  const typesOf = async (of: Tenant, endpointId?: string) =>
    (await of.client.call(listDeliveryEventTypesContract, { query: { endpointId } })).data;

  it("lists the workspace's types once each, sorted, of one endpoint when asked, and nobody else's", async () => {
    const all = ["invoice.paid", "issues.opened", "push"];
    expect(await typesOf(tenant)).toEqual({ eventTypes: all, truncated: false });
    await db().$executeRaw`
      UPDATE webhook_deliveries SET event_type = 'only.on.b'
      WHERE id = ${tenant.seeded.find((row) => row.endpointId === tenant.endpointB)!.id}::uuid`;
    expect((await typesOf(tenant, tenant.endpointB)).eventTypes).toContain("only.on.b");
    expect((await typesOf(tenant, tenant.endpointA)).eventTypes).toEqual(all);
    expect((await typesOf(neighbour)).eventTypes).toEqual(all);
    expect(await typesOf(tenant, neighbour.endpointA)).toEqual({ eventTypes: [], truncated: false });
  });

  it(`lists at most ${MAX_LISTED_EVENT_TYPES} and says when there are more`, async () => {
    await db().$executeRaw`
      UPDATE webhook_deliveries SET event_type = 'many.' || lpad(n::text, 3, '0')
      FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM webhook_deliveries
            WHERE workspace_id = (SELECT workspace_id FROM webhook_endpoints WHERE id = ${neighbour.endpointA})) AS numbered
      WHERE webhook_deliveries.id = numbered.id`;
    const fewer = await typesOf(neighbour);
    expect(fewer).toEqual({
      eventTypes: Array.from({ length: 90 }, (_, n) => `many.${String(n + 1).padStart(3, "0")}`),
      truncated: false,
    });
    await db().$executeRaw`
      INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, event_type)
      SELECT gen_random_uuid(), workspace_id, id, '\\x7b7d'::bytea, '{}'::jsonb, '127.0.0.1', 2, 'more.' || n
      FROM webhook_endpoints, generate_series(1, ${MAX_LISTED_EVENT_TYPES}) AS n WHERE id = ${neighbour.endpointA}`;
    const capped = await typesOf(neighbour);
    expect(capped.truncated).toBe(true);
    expect(capped.eventTypes).toHaveLength(MAX_LISTED_EVENT_TYPES);
    expect(capped.eventTypes[0]).toBe("many.001");
  });

  it("refuses a malformed endpointId", async () => {
    const answer = await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}/event-types?endpointId=`);
    expect(answer.status, answer.text).toBe(400);
    expect(detailPaths(answer.json)).toEqual(["endpointId"]);
  });
});
