import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import { createWebhookEndpointContract, listDeliveriesContract } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { detailPaths, errorOf, requestApi } from "@/test/http-api";

// `since` (inclusive) and `until` (exclusive) on the deliveries listing, over HTTP against the real launcher: alone,
// together, with every other filter and both orders, across a cursor walk, and bound into the cursor. Rows are
// inserted with chosen receipt times, three to a millisecond, so the window's edges fall on ties the id must break.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

interface Tenant {
  key: string;
  client: ApiClient;
  endpointA: string;
  endpointB: string;
}

interface Seeded {
  id: string;
  createdAt: Date;
  endpointId: string;
  acknowledged: boolean;
}

const BASE = Date.parse("2026-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(BASE + ms).toISOString();
const DELIVERIES = "/v1/webhook-endpoints/deliveries";

let tenantCounter = 0;

async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Time range ${++tenantCounter}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  const endpoint = async (name: string) =>
    (await client.call(createWebhookEndpointContract, { body: { name } })).data.id;
  const endpointA = await endpoint("A");
  const endpointB = await endpoint("B");
  await seed(workspace.id, endpointA, endpointB);
  return { key, client, endpointA, endpointB };
}

let seeded: Seeded[] = [];

/**
 * Row j (0–59) is received at BASE + floor(j / 3) seconds, so each second holds three rows; rows 60–63 a millisecond
 * either side of 5 s and of 15 s. Odd rows go to endpoint B, every fifth row (of both endpoints) is acknowledged.
 */
async function seed(workspaceId: string, endpointA: string, endpointB: string): Promise<void> {
  const times = [...Array.from({ length: 60 }, (_, k) => Math.floor(k / 3) * 1000), 4_999, 5_001, 14_999, 15_001];
  const rows = await db().$queryRaw<{ id: string; created_at: Date; webhook_endpoint_id: string; acked: boolean }[]>`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at, acknowledged_at)
    SELECT gen_random_uuid(), ${workspaceId}, CASE WHEN (k - 1) % 2 = 1 THEN ${endpointB} ELSE ${endpointA} END,
           convert_to('{}', 'UTF8'), 'application/json', '{"content-type":"application/json"}'::jsonb, '203.0.113.7', 2,
           ${new Date(BASE)}::timestamptz + ms * interval '1 millisecond',
           CASE WHEN (k - 1) % 5 = 0 THEN now() END
    FROM unnest(${times}::int[]) WITH ORDINALITY AS t(ms, k)
    RETURNING id::text AS id, created_at, webhook_endpoint_id, acknowledged_at IS NOT NULL AS acked`;
  seeded = rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    endpointId: row.webhook_endpoint_id,
    acknowledged: row.acked,
  }));
  expect(seeded).toHaveLength(64);
}

type Filters = { endpointId?: string; unacknowledged?: boolean; since?: string; until?: string };

/** The seeded ids a listing should answer, in its order, worked out here rather than by the server. */
function expected(filters: Filters, order: "asc" | "desc" = "desc"): string[] {
  const since = filters.since === undefined ? -Infinity : Date.parse(filters.since);
  const until = filters.until === undefined ? Infinity : Date.parse(filters.until);
  const ids = seeded
    .filter(
      (row) =>
        row.createdAt.getTime() >= since &&
        row.createdAt.getTime() < until &&
        (filters.endpointId === undefined || row.endpointId === filters.endpointId) &&
        (filters.unacknowledged === undefined || row.acknowledged !== filters.unacknowledged),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((row) => row.id);
  return order === "asc" ? ids : ids.reverse();
}

type ListQuery = {
  endpointId?: string;
  unacknowledged?: "true" | "false";
  order?: "asc" | "desc";
  limit?: number;
  cursor?: string;
  since?: string;
  until?: string;
};

async function listIds(tenant: Tenant, query: ListQuery) {
  const page = (await tenant.client.call(listDeliveriesContract, { query: { limit: 100, ...query } })).data;
  expect(page.nextCursor).toBeNull();
  return page.deliveries.map((delivery) => delivery.id);
}

/** Follows nextCursor to the end at a small limit; every id the pages held, in order. */
async function walk(tenant: Tenant, query: Omit<ListQuery, "cursor">): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page += 1) {
    const answer = (await tenant.client.call(listDeliveriesContract, { query: { ...query, cursor } })).data;
    ids.push(...answer.deliveries.map((delivery) => delivery.id));
    if (!answer.nextCursor) return ids;
    cursor = answer.nextCursor;
  }
  throw new Error("the walk did not end");
}

const call = (key: string, query: string) => requestApi(app.baseUrl, key, "GET", `${DELIVERIES}?${query}`);
const q = (value: string) => encodeURIComponent(value);

// The window [5 s, 15 s): ten whole seconds of three rows, plus 5.001 and 14.999; not 4.999 or 15.001.
const WINDOW = { since: at(5_000), until: at(15_000) };

describe("GET /v1/webhook-endpoints/deliveries: since and until", () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant();
  });

  it("since alone is inclusive, until alone exclusive, to the millisecond", async () => {
    const since = await listIds(tenant, { since: WINDOW.since });
    expect(since).toEqual(expected({ since: WINDOW.since }));
    expect(since).toHaveLength(64 - 15 - 1);

    const until = await listIds(tenant, { until: WINDOW.until });
    expect(until).toEqual(expected({ until: WINDOW.until }));
    expect(until).toHaveLength(45 + 3);

    // A bound finer than a millisecond: just after 5 s leaves the three rows at 5 s out; just after 15 s takes them.
    expect(await listIds(tenant, { since: "2026-03-01T12:00:05.0000001Z" })).toEqual(expected({ since: at(5_001) }));
    expect(await listIds(tenant, { until: "2026-03-01T12:00:15.000001Z" })).toEqual(expected({ until: at(15_001) }));
  });

  it("both together select the window; an offset names the same instant as Z", async () => {
    const ids = await listIds(tenant, WINDOW);
    expect(ids).toEqual(expected(WINDOW));
    expect(ids).toHaveLength(30 + 2);
    const offsets = { since: "2026-03-01T13:00:05+01:00", until: "2026-03-01T07:00:15.000-05:00" };
    expect(await listIds(tenant, offsets)).toEqual(ids);
    // An empty window is no error.
    expect(await listIds(tenant, { since: WINDOW.since, until: WINDOW.since })).toEqual([]);
  });

  it.each(["desc", "asc"] as const)("combines with endpointId and unacknowledged (%s)", async (order) => {
    for (const endpointId of [undefined, tenant.endpointA, tenant.endpointB]) {
      for (const unacknowledged of [undefined, true, false]) {
        const filters = { ...WINDOW, endpointId, unacknowledged };
        const ids = await listIds(tenant, {
          ...WINDOW,
          order,
          ...(endpointId && { endpointId }),
          ...(unacknowledged !== undefined && { unacknowledged: unacknowledged ? "true" : "false" }),
        });
        const want = expected(filters, order);
        expect(ids, JSON.stringify(filters)).toEqual(want);
        expect(want.length).toBeGreaterThan(0);
      }
    }
  });

  it.each(["desc", "asc"] as const)(
    "a cursor walk over the window at limit 4 visits each match exactly once and nothing outside (%s)",
    async (order) => {
      const ids = await walk(tenant, { ...WINDOW, order, limit: 4 });
      expect(ids).toEqual(expected(WINDOW, order));
      expect(new Set(ids).size).toBe(32);

      const narrow = { ...WINDOW, endpointId: tenant.endpointB, unacknowledged: "true" as const };
      const filtered = await walk(tenant, { ...narrow, order, limit: 3 });
      expect(filtered).toEqual(expected({ ...WINDOW, endpointId: tenant.endpointB, unacknowledged: true }, order));
      expect(filtered.length).toBeGreaterThan(3);
    },
  );

  it("refuses a cursor reused with another since or until, and accepts the same instants spelled otherwise", async () => {
    const page = await tenant.client.call(listDeliveriesContract, { query: { ...WINDOW, limit: 2 } });
    const cursor = q(page.data.nextCursor!);
    const plain = q((await tenant.client.call(listDeliveriesContract, { query: { limit: 2 } })).data.nextCursor!);

    for (const query of [
      `cursor=${cursor}`,
      `cursor=${cursor}&since=${q(WINDOW.since)}`,
      `cursor=${cursor}&until=${q(WINDOW.until)}`,
      `cursor=${cursor}&since=${q(at(4_000))}&until=${q(WINDOW.until)}`,
      `cursor=${cursor}&since=${q(WINDOW.since)}&until=${q(at(16_000))}`,
      `cursor=${plain}&since=${q(WINDOW.since)}`,
      `cursor=${plain}&until=${q(WINDOW.until)}`,
    ]) {
      const answer = await call(tenant.key, query);
      expect(answer.status, query).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
      expect(detailPaths(answer.json), query).toEqual(["cursor"]);
    }

    const respelled = `cursor=${cursor}&since=${q("2026-03-01T13:00:05.000+01:00")}&until=${q("2026-03-01T12:00:15Z")}`;
    const answer = await call(tenant.key, respelled);
    expect(answer.status, answer.text).toBe(200);
    const rest = (answer.json as { data: { deliveries: { id: string }[] } }).data.deliveries.map((row) => row.id);
    expect([...page.data.deliveries.map((row) => row.id), ...rest]).toEqual(expected(WINDOW).slice(0, 2 + rest.length));
  });

  it.each<[string, string]>([
    ["since=2026-03-01", "since"],
    ["since=2026-03-01T12:00:00", "since"],
    ["until=2026-03-01T12:00:00.000", "until"],
    ["since=yesterday", "since"],
    ["until=1772366400000", "until"],
    ["since=", "since"],
    // An unencoded `+` in a query string is a space, so the offset must be sent as %2B.
    ["since=2026-03-01T12:00:00+01:00", "since"],
    ["since=0000-12-31T00:00:00Z", "since"],
    [`since=${q(at(15_000))}&until=${q(at(5_000))}`, "since"],
    [`since=${q("2026-03-01T12:00:00.0002Z")}&until=${q("2026-03-01T12:00:00.0001Z")}`, "since"],
  ])("answers ?%s with 400 naming %s", async (query, path) => {
    const answer = await call(tenant.key, query);
    expect(answer.status, answer.text).toBe(400);
    const error = errorOf(answer.json);
    expect(error.code).toBe("validation_error");
    expect(error.details, answer.text).toHaveLength(1);
    expect(detailPaths(answer.json)).toEqual([path]);
  });

  it("says plainly what is wrong", async () => {
    const zoneless = await call(tenant.key, "since=2026-03-01T12:00:00");
    expect(errorOf(zoneless.json).details?.[0]?.message).toMatch(/ISO 8601 date-time with `Z` or an offset/);
    const backwards = await call(tenant.key, `since=${q(at(15_000))}&until=${q(at(5_000))}`);
    expect(errorOf(backwards.json).details?.[0]).toEqual({ path: "since", message: "must not be after `until`" });
  });
});
