import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { ApiClientError, createApiClient, type ApiClient } from "@/lib/client/api-client";
import {
  acknowledgeDeliveriesContract,
  acknowledgeDeliveryContract,
  createWebhookEndpointContract,
  getDeliveryContract,
  listDeliveriesContract,
  listWebhookEndpointsContract,
  idsAcknowledgementSchema,
} from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { detailPaths, errorOf, ISO_MS, requestApi } from "@/test/http-api";

// Listing, cursor paging, reading and acknowledging deliveries over HTTP against the real launcher
// (spec §2.6, §3, §4.5–4.7; DESIGN §4). Bulk rows are seeded with one INSERT … SELECT generate_series.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

// ---------------------------------------------------------------------------------------------------------------
// Helpers of this file; the generic HTTP ones are in test/http-api.ts.

interface Tenant {
  workspaceId: string;
  key: string;
  client: ApiClient;
  endpointId: string;
}

let tenantCounter = 0;

async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Deliveries ${++tenantCounter}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  const endpoint = await client.call(createWebhookEndpointContract, { body: { name: "Inbox" } });
  return { workspaceId: workspace.id, key, client, endpointId: endpoint.data.id };
}

async function addEndpoint(tenant: Tenant, name = "Second"): Promise<string> {
  return (await tenant.client.call(createWebhookEndpointContract, { body: { name } })).data.id;
}

/** POSTs one webhook to the ingest address; returns the delivery id. */
async function ingest(
  endpointId: string,
  body: string = JSON.stringify({ at: Date.now() }),
  headers: Record<string, string> = { "content-type": "application/json" },
  query = "",
): Promise<string> {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}${query}`, {
    method: "POST",
    headers,
    body,
  });
  const json = (await response.json()) as { received?: boolean; deliveryId?: string };
  expect(response.status, JSON.stringify(json)).toBe(200);
  expect(json.received).toBe(true);
  return json.deliveryId!;
}

/**
 * Inserts `count` deliveries directly. Row n gets created_at = start + floor(n / tieGroup) * stepMs, so each group of
 * `tieGroup` rows shares one timestamp (the cursor must break ties by id). Every `acknowledgedEvery`-th row is acked.
 */
async function seedDeliveries(options: {
  workspaceId: string;
  endpointId: string;
  count: number;
  start?: Date;
  stepMs?: number;
  tieGroup?: number;
  acknowledgedEvery?: number;
}): Promise<void> {
  const start = options.start ?? new Date(Date.now() - 3_600_000);
  const step = options.stepMs ?? 5;
  const tie = options.tieGroup ?? 1;
  const every = options.acknowledgedEvery ?? 0;
  await db().$executeRaw`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at, acknowledged_at)
    SELECT gen_random_uuid(), ${options.workspaceId}, ${options.endpointId},
           convert_to(jsonb_build_object('n', n)::text, 'UTF8'), 'application/json',
           '{"content-type":"application/json"}'::jsonb, '203.0.113.7', octet_length(jsonb_build_object('n', n)::text),
           ${start}::timestamptz + (n / ${tie}::int) * ${step}::int * interval '1 millisecond',
           CASE WHEN ${every}::int > 0 AND n % ${every}::int = 0 THEN ${start}::timestamptz + interval '1 day' END
    FROM generate_series(0, ${options.count - 1}::int) AS n`;
}

/** Delivery ids of a workspace in the listing's order, straight from the database. */
async function idsInOrder(
  workspaceId: string,
  order: "asc" | "desc" = "desc",
  where: { endpointId?: string; unacknowledged?: boolean } = {},
): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string; endpoint: string; acked: boolean }[]>`
    SELECT id::text AS id, webhook_endpoint_id AS endpoint, acknowledged_at IS NOT NULL AS acked
    FROM webhook_deliveries WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`;
  const filtered = rows.filter(
    (row) =>
      (where.endpointId === undefined || row.endpoint === where.endpointId) &&
      (where.unacknowledged === undefined || row.acked !== where.unacknowledged),
  );
  const ids = filtered.map((row) => row.id);
  return order === "asc" ? ids : ids.reverse();
}

async function acknowledgedAtById(workspaceId: string): Promise<Map<string, string | null>> {
  const rows = await db().$queryRaw<{ id: string; acknowledged_at: Date | null }[]>`
    SELECT id::text AS id, acknowledged_at FROM webhook_deliveries WHERE workspace_id = ${workspaceId}`;
  return new Map(rows.map((row) => [row.id, row.acknowledged_at?.toISOString() ?? null]));
}

type ListQuery = {
  endpointId?: string;
  unacknowledged?: "true" | "false";
  order?: "asc" | "desc";
  limit?: number;
  cursor?: string;
};

async function listPage(tenant: Tenant, query: ListQuery) {
  return (await tenant.client.call(listDeliveriesContract, { query })).data;
}

/** Follows nextCursor to the end; checks that the sort key strictly moves in the listing's direction. */
async function walk(
  tenant: Tenant,
  query: Omit<ListQuery, "cursor">,
  options: { maxPages?: number; betweenPages?: () => Promise<unknown> } = {},
) {
  const ids: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  let previous: { createdAt: string; id: string } | undefined;
  const descending = (query.order ?? "desc") === "desc";
  for (let page = 0; page < (options.maxPages ?? 50); page += 1) {
    const answer = await listPage(tenant, { ...query, cursor });
    for (const delivery of answer.deliveries) {
      if (previous) {
        const before =
          previous.createdAt < delivery.createdAt ||
          (previous.createdAt === delivery.createdAt && previous.id < delivery.id);
        expect(before, `order at ${delivery.id}`).toBe(!descending);
      }
      previous = delivery;
      ids.push(delivery.id);
    }
    pageSizes.push(answer.deliveries.length);
    if (!answer.nextCursor) return { ids, pageSizes, finished: true };
    cursor = answer.nextCursor;
    await options.betweenPages?.();
  }
  return { ids, pageSizes, finished: false };
}

const call = (key: string | null, method: string, path: string, body?: unknown) =>
  requestApi(app.baseUrl, key, method, path, body);

function countOf<T>(values: T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function shuffled<T>(values: T[]): T[] {
  const copy = [...values];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DELIVERIES = "/v1/webhook-endpoints/deliveries";

// ---------------------------------------------------------------------------------------------------------------

describe("GET /v1/webhook-endpoints/deliveries: shape", () => {
  it("lists deliveries with every spec §2.6 field, as received", async () => {
    const tenant = await newTenant();
    const jsonBody = JSON.stringify({ type: "order.created", data: { id: 42, tags: ["a", "b"] } });
    const jsonId = await ingest(
      tenant.endpointId,
      jsonBody,
      { "content-type": "application/json", "X-Custom-Header": "Mixed Case Value" },
      "?source=test&x=1",
    );
    await sleep(3);
    const textId = await ingest(tenant.endpointId, "plain text body", { "content-type": "text/plain" });

    const response = await call(tenant.key, "GET", DELIVERIES);
    expect(response.status).toBe(200);
    const page = listDeliveriesContract.response.parse(response.json).data;
    expect(page.nextCursor).toBeNull();
    expect(page.deliveries.map((delivery) => delivery.id)).toEqual([textId, jsonId]);
    const [text, json] = page.deliveries;

    expect(json).toEqual({
      id: jsonId,
      webhookEndpointId: tenant.endpointId,
      workspaceId: tenant.workspaceId,
      rawPayload: { type: "order.created", data: { id: 42, tags: ["a", "b"] } },
      formFields: null,
      contentDecoding: null,
      headers: expect.objectContaining({ "content-type": "application/json", "x-custom-header": "Mixed Case Value" }),
      sourceIp: "127.0.0.1",
      createdAt: expect.stringMatching(ISO_MS),
      acknowledgedAt: null,
      contentType: "application/json",
      sizeBytes: Buffer.byteLength(jsonBody),
      query: "source=test&x=1",
      signature: null,
      // Compact JSON already: the preview is the body itself.
      preview: jsonBody,
      eventType: "order.created",
    });
    for (const name of Object.keys(json!.headers)) expect(name).toBe(name.toLowerCase());
    expect(json!.id).toMatch(UUID);
    expect(text).toMatchObject({
      id: textId,
      rawPayload: { raw: "plain text body" },
      contentType: "text/plain",
      acknowledgedAt: null,
      query: "",
    });

    // createdAt is the stored receipt time.
    const row = await db().webhookDelivery.findFirstOrThrow({ where: { id: jsonId } });
    expect(json!.createdAt).toBe(row.createdAt.toISOString());
    expect(Math.abs(Date.parse(json!.createdAt) - Date.now())).toBeLessThan(60_000);

    // The same resource one at a time, and the exact bytes.
    const one = await tenant.client.call(getDeliveryContract, { params: { id: jsonId } });
    expect(one).toEqual({ success: true, data: json });
    const raw = await fetch(`${app.baseUrl}${DELIVERIES}/${jsonId}/raw`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("application/json");
    expect(await raw.text()).toBe(jsonBody);
  });

  it("answers 401 without a key", async () => {
    const response = await call(null, "GET", DELIVERIES);
    expect(response.status).toBe(401);
    expect(errorOf(response.json).code).toBe("unauthorized");
  });
});

describe("GET /v1/webhook-endpoints/deliveries: order, filters, limits", () => {
  it("lists newest first by default, ties broken by id", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 12, tieGroup: 3 });
    // Three real ones, received after the seeded ones: they come first, the last received on top.
    const received: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      received.push(await ingest(tenant.endpointId));
      await sleep(3);
    }
    const page = await listPage(tenant, {});
    const ids = page.deliveries.map((delivery) => delivery.id);
    expect(ids).toHaveLength(15);
    expect(ids.slice(0, 3)).toEqual([...received].reverse());
    expect(ids).toEqual(await idsInOrder(tenant.workspaceId, "desc"));
    expect((await listPage(tenant, { order: "desc" })).deliveries.map((delivery) => delivery.id)).toEqual(ids);
  });

  it("lists oldest first with order=asc", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 12, tieGroup: 4 });
    const first = await ingest(tenant.endpointId);
    const ids = (await listPage(tenant, { order: "asc" })).deliveries.map((delivery) => delivery.id);
    expect(ids).toEqual(await idsInOrder(tenant.workspaceId, "asc"));
    expect(ids.at(-1)).toBe(first);
    expect(ids).toEqual((await listPage(tenant, {})).deliveries.map((delivery) => delivery.id).reverse());
  });

  it("filters by endpointId", async () => {
    const tenant = await newTenant();
    const second = await addEndpoint(tenant);
    await seedDeliveries({ ...tenant, count: 5 });
    await seedDeliveries({ workspaceId: tenant.workspaceId, endpointId: second, count: 4 });
    const mine = await listPage(tenant, { endpointId: second });
    expect(mine.deliveries).toHaveLength(4);
    for (const delivery of mine.deliveries) expect(delivery.webhookEndpointId).toBe(second);
    expect(mine.deliveries.map((delivery) => delivery.id)).toEqual(
      await idsInOrder(tenant.workspaceId, "desc", { endpointId: second }),
    );
    expect((await listPage(tenant, { endpointId: tenant.endpointId })).deliveries).toHaveLength(5);
    expect((await listPage(tenant, {})).deliveries).toHaveLength(9);
    // An endpoint id that does not exist simply matches nothing.
    expect(await listPage(tenant, { endpointId: "we_doesNotExist" })).toEqual({ deliveries: [], nextCursor: null });
  });

  it("filters with unacknowledged=true and unacknowledged=false, also combined with endpointId", async () => {
    const tenant = await newTenant();
    const second = await addEndpoint(tenant);
    await seedDeliveries({ ...tenant, count: 10, acknowledgedEvery: 3 }); // n = 0, 3, 6, 9 acknowledged
    await seedDeliveries({ workspaceId: tenant.workspaceId, endpointId: second, count: 6, acknowledgedEvery: 2 }); // 3 acknowledged
    const pending = (await listPage(tenant, { unacknowledged: "true" })).deliveries;
    expect(pending).toHaveLength(6 + 3);
    for (const delivery of pending) expect(delivery.acknowledgedAt).toBeNull();
    expect(pending.map((delivery) => delivery.id)).toEqual(
      await idsInOrder(tenant.workspaceId, "desc", { unacknowledged: true }),
    );

    const acknowledged = (await listPage(tenant, { unacknowledged: "false" })).deliveries;
    expect(acknowledged).toHaveLength(4 + 3);
    for (const delivery of acknowledged) expect(delivery.acknowledgedAt).toMatch(ISO_MS);
    expect(acknowledged.map((delivery) => delivery.id)).toEqual(
      await idsInOrder(tenant.workspaceId, "desc", { unacknowledged: false }),
    );

    const secondPending = (await listPage(tenant, { endpointId: second, unacknowledged: "true", order: "asc" }))
      .deliveries;
    expect(secondPending.map((delivery) => delivery.id)).toEqual(
      await idsInOrder(tenant.workspaceId, "asc", { endpointId: second, unacknowledged: true }),
    );
    expect(secondPending).toHaveLength(3);

    // Acknowledging moves a delivery from one filter to the other.
    const moved = pending[0]!.id;
    await tenant.client.call(acknowledgeDeliveryContract, { params: { id: moved } });
    expect(
      (await listPage(tenant, { unacknowledged: "true" })).deliveries.map((delivery) => delivery.id),
    ).not.toContain(moved);
    expect((await listPage(tenant, { unacknowledged: "false" })).deliveries.map((delivery) => delivery.id)).toContain(
      moved,
    );
  });

  it("pages 50 by default and at most 100", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 120 });
    const defaultPage = await listPage(tenant, {});
    expect(defaultPage.deliveries).toHaveLength(50);
    expect(defaultPage.nextCursor).toEqual(expect.any(String));
    const largest = await listPage(tenant, { limit: 100 });
    expect(largest.deliveries).toHaveLength(100);
    expect(largest.nextCursor).toEqual(expect.any(String));
    const rest = await listPage(tenant, { limit: 100, cursor: largest.nextCursor! });
    expect(rest.deliveries).toHaveLength(20);
    expect(rest.nextCursor).toBeNull();
    const single = await listPage(tenant, { limit: 1 });
    expect(single.deliveries).toHaveLength(1);
    expect(single.deliveries[0]!.id).toBe(defaultPage.deliveries[0]!.id);
    expect((await call(tenant.key, "GET", `${DELIVERIES}?limit=101`)).status).toBe(400);
  });

  it("gives no cursor when the last page is exactly full", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 100 });
    expect((await listPage(tenant, { limit: 100 })).nextCursor).toBeNull();
    const first = await listPage(tenant, { limit: 50 });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await listPage(tenant, { limit: 50, cursor: first.nextCursor! });
    expect(second.deliveries).toHaveLength(50);
    expect(second.nextCursor).toBeNull();
  });
});

describe("GET /v1/webhook-endpoints/deliveries: cursor walks", () => {
  it.each(["desc", "asc"] as const)(
    "walks ~250 deliveries at limit 100 (%s) visiting each exactly once",
    async (order) => {
      const tenant = await newTenant();
      await seedDeliveries({ ...tenant, count: 250, tieGroup: 4 });
      const result = await walk(tenant, { limit: 100, order });
      expect(result.finished).toBe(true);
      expect(result.pageSizes).toEqual([100, 100, 50]);
      expect(new Set(result.ids).size).toBe(250);
      expect(result.ids).toEqual(await idsInOrder(tenant.workspaceId, order));
    },
  );

  it("walks a filtered listing (endpointId + unacknowledged) exactly once", async () => {
    const tenant = await newTenant();
    const second = await addEndpoint(tenant);
    await seedDeliveries({ ...tenant, count: 150, tieGroup: 3, acknowledgedEvery: 4 });
    await seedDeliveries({ workspaceId: tenant.workspaceId, endpointId: second, count: 60, tieGroup: 2 });
    const result = await walk(tenant, { limit: 17, endpointId: tenant.endpointId, unacknowledged: "true" });
    expect(result.finished).toBe(true);
    const expected = await idsInOrder(tenant.workspaceId, "desc", {
      endpointId: tenant.endpointId,
      unacknowledged: true,
    });
    expect(expected).toHaveLength(150 - 38);
    expect(result.ids).toEqual(expected);
  });

  it.each(["desc", "asc"] as const)(
    "visits every pre-existing delivery exactly once while new ones arrive concurrently (%s)",
    async (order) => {
      const tenant = await newTenant();
      await seedDeliveries({ ...tenant, count: 250, tieGroup: 3, start: new Date(Date.now() - 600_000) });
      const before = new Set(await idsInOrder(tenant.workspaceId));
      expect(before.size).toBe(250);

      // Three senders keep posting for the whole walk; one more delivery lands between any two pages.
      let walking = true;
      const arrived: string[] = [];
      const sender = async () => {
        for (let sent = 0; walking && sent < 40; sent += 1) arrived.push(await ingest(tenant.endpointId));
      };
      const senders = [sender(), sender(), sender()];
      let result: Awaited<ReturnType<typeof walk>>;
      try {
        result = await walk(
          tenant,
          { limit: 20, order },
          { maxPages: 40, betweenPages: async () => arrived.push(await ingest(tenant.endpointId)) },
        );
      } finally {
        walking = false;
        await Promise.all(senders);
      }
      expect(result.finished).toBe(true);
      const pagesWalked = result.pageSizes.length;
      expect(pagesWalked).toBeGreaterThanOrEqual(13);
      expect(arrived.length).toBeGreaterThanOrEqual(pagesWalked - 1);

      // No delivery twice, and every one that existed before the walk exactly once.
      const counts = countOf(result.ids);
      for (const [id, count] of counts) expect(count, `delivery ${id}`).toBe(1);
      for (const id of before) expect(counts.get(id), `pre-existing delivery ${id}`).toBe(1);
      // Whatever was visited really exists in this workspace.
      const all = new Set(await idsInOrder(tenant.workspaceId));
      expect(all.size).toBe(250 + new Set(arrived).size);
      for (const id of result.ids) expect(all.has(id)).toBe(true);
      if (order === "desc") {
        // Newest first: the seeded (older) rows were all behind the first page's position, so none was skipped and
        // the walk ends with exactly the seeded rows in order.
        const seededInOrder = (await idsInOrder(tenant.workspaceId, "desc")).filter((id) => before.has(id));
        expect(result.ids.filter((id) => before.has(id))).toEqual(seededInOrder);
      }
    },
    60_000,
  );
});

describe("GET /v1/webhook-endpoints/deliveries: cursor integrity", () => {
  async function cursorFor(tenant: Tenant, query: Omit<ListQuery, "cursor" | "limit"> = {}): Promise<string> {
    const { nextCursor } = await listPage(tenant, { ...query, limit: 2 });
    expect(nextCursor).toEqual(expect.any(String));
    return nextCursor!;
  }

  async function expectCursorRefused(key: string, query: string) {
    const response = await call(key, "GET", `${DELIVERIES}?${query}`);
    expect(response.status, query).toBe(400);
    const error = errorOf(response.json);
    expect(error.code).toBe("validation_error");
    expect(detailPaths(response.json)).toEqual(["cursor"]);
  }

  function flipCharacter(text: string, index: number): string {
    const character = text[index]!;
    return `${text.slice(0, index)}${character === "A" ? "B" : "A"}${text.slice(index + 1)}`;
  }

  it("accepts its own cursor unchanged (and with another limit)", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 6 });
    const cursor = await cursorFor(tenant);
    const next = await listPage(tenant, { limit: 2, cursor });
    expect(next.deliveries.map((delivery) => delivery.id)).toEqual((await idsInOrder(tenant.workspaceId)).slice(2, 4));
    const rest = await listPage(tenant, { limit: 10, cursor });
    expect(rest.deliveries).toHaveLength(4);
  });

  it("refuses a tampered, truncated, forged or garbage cursor with 400 naming cursor", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 6 });
    const cursor = await cursorFor(tenant);
    const otherCursor = (await listPage(tenant, { limit: 3 })).nextCursor!;
    const [payload, signature] = cursor.split(".") as [string, string];
    const decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { t: string; i: string };
    const moved = Buffer.from(JSON.stringify({ ...decoded, t: "2000-01-01T00:00:00.000Z" })).toString("base64url");

    const bad = [
      flipCharacter(cursor, 3), // inside the payload
      flipCharacter(cursor, cursor.length - 5), // inside the signature
      cursor.slice(0, -1),
      `${cursor}A`,
      `${cursor}.extra`,
      payload,
      `${moved}.${signature}`, // a payload edited to jump elsewhere, old signature
      `${moved}.${randomBytes(16).toString("base64url")}`, // forged signature
      `${otherCursor.split(".")[0]}.${signature}`, // another cursor's payload with this signature
      "garbage",
      "x".repeat(1_001),
    ];
    for (const value of bad) await expectCursorRefused(tenant.key, `limit=2&cursor=${encodeURIComponent(value)}`);
    await expectCursorRefused(tenant.key, "cursor=");
  });

  it("refuses a cursor from another workspace", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    await seedDeliveries({ ...owner, count: 6 });
    await seedDeliveries({ ...other, count: 6 });
    const cursor = await cursorFor(owner);
    await expectCursorRefused(other.key, `limit=2&cursor=${encodeURIComponent(cursor)}`);
  });

  it("refuses a cursor reused with different filters or order", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 6, acknowledgedEvery: 5 });
    const plain = await cursorFor(tenant);
    const filtered = await cursorFor(tenant, { endpointId: tenant.endpointId });
    const pending = await cursorFor(tenant, { unacknowledged: "true" });
    const ascending = await cursorFor(tenant, { order: "asc" });
    const encoded = (value: string) => encodeURIComponent(value);

    await expectCursorRefused(tenant.key, `cursor=${encoded(plain)}&endpointId=${tenant.endpointId}`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(plain)}&unacknowledged=true`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(plain)}&unacknowledged=false`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(plain)}&order=asc`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(filtered)}`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(pending)}&unacknowledged=false`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(pending)}`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(ascending)}&order=desc`);
    await expectCursorRefused(tenant.key, `cursor=${encoded(ascending)}`);

    // Each is fine with the filters it was issued for.
    expect((await call(tenant.key, "GET", `${DELIVERIES}?cursor=${encoded(plain)}&order=desc`)).status).toBe(200);
    expect(
      (await call(tenant.key, "GET", `${DELIVERIES}?cursor=${encoded(filtered)}&endpointId=${tenant.endpointId}`))
        .status,
    ).toBe(200);
    expect((await call(tenant.key, "GET", `${DELIVERIES}?cursor=${encoded(pending)}&unacknowledged=true`)).status).toBe(
      200,
    );
    expect((await call(tenant.key, "GET", `${DELIVERIES}?cursor=${encoded(ascending)}&order=asc`)).status).toBe(200);
  });

  it("refuses a webhook-endpoint listing cursor", async () => {
    const tenant = await newTenant();
    await addEndpoint(tenant);
    await seedDeliveries({ ...tenant, count: 3 });
    const endpointCursor = (await tenant.client.call(listWebhookEndpointsContract, { query: { limit: 1 } })).data
      .nextCursor;
    expect(endpointCursor).toEqual(expect.any(String));
    await expectCursorRefused(tenant.key, `cursor=${encodeURIComponent(endpointCursor!)}`);
  });
});

describe("GET /v1/webhook-endpoints/deliveries: query validation", () => {
  it.each<[string, string[]]>([
    ["limit=0", ["limit"]],
    ["limit=101", ["limit"]],
    ["limit=1.5", ["limit"]],
    ["limit=abc", ["limit"]],
    ["limit=-1", ["limit"]],
    ["limit=", ["limit"]],
    ["limit=1e3", ["limit"]],
    ["unacknowledged=yes", ["unacknowledged"]],
    ["unacknowledged=1", ["unacknowledged"]],
    ["unacknowledged=TRUE", ["unacknowledged"]],
    ["unacknowledged=", ["unacknowledged"]],
    ["order=up", ["order"]],
    ["order=DESC", ["order"]],
    ["order=", ["order"]],
    ["endpointId=", ["endpointId"]],
    [`endpointId=${"e".repeat(101)}`, ["endpointId"]],
    ["limit=0&unacknowledged=yes&order=sideways", ["limit", "order", "unacknowledged"]],
  ])("refuses ?%s with 400 naming the field", async (query, paths) => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "GET", `${DELIVERIES}?${query}`);
    expect(response.status).toBe(400);
    expect(errorOf(response.json).code).toBe("validation_error");
    expect(detailPaths(response.json)).toEqual(paths);
  });

  it.each([
    "limit=1",
    "limit=100",
    "limit=50&order=asc",
    "unacknowledged=false",
    "unacknowledged=true&order=desc",
    "unknownParam=1",
  ])("accepts ?%s", async (query) => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "GET", `${DELIVERIES}?${query}`);
    expect(response.status).toBe(200);
    expect(listDeliveriesContract.response.parse(response.json).data).toEqual({ deliveries: [], nextCursor: null });
  });
});

describe("GET /v1/webhook-endpoints/deliveries/:id", () => {
  it("gets one delivery and answers 404 for unknown, foreign and malformed ids", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const id = await ingest(tenant.endpointId, JSON.stringify({ one: 1 }));
    const foreign = await ingest(other.endpointId);
    const listed = (await listPage(tenant, {})).deliveries[0];
    const fetched = await tenant.client.call(getDeliveryContract, { params: { id } });
    expect(fetched.data).toEqual(listed);
    expect(fetched.data).toMatchObject({ id, rawPayload: { one: 1 }, acknowledgedAt: null });

    for (const missing of [randomUUID(), foreign, "not-a-uuid", "12345"]) {
      const response = await call(tenant.key, "GET", `${DELIVERIES}/${missing}`);
      expect(response.status, missing).toBe(404);
      expect(errorOf(response.json).code).toBe("not_found");
      const raw = await call(tenant.key, "GET", `${DELIVERIES}/${missing}/raw`);
      expect(raw.status, `raw ${missing}`).toBe(404);
    }
  });
});

describe("POST /v1/webhook-endpoints/deliveries/:id/ack", () => {
  it("acknowledges with 200 and the delivery; acknowledging again keeps the first acknowledgedAt", async () => {
    const tenant = await newTenant();
    const id = await ingest(tenant.endpointId);
    const untouched = await ingest(tenant.endpointId);

    const first = await call(tenant.key, "POST", `${DELIVERIES}/${id}/ack`);
    expect(first.status).toBe(200);
    const acked = acknowledgeDeliveryContract.response.parse(first.json).data;
    expect(acked).toMatchObject({
      id,
      webhookEndpointId: tenant.endpointId,
      workspaceId: tenant.workspaceId,
      acknowledgedAt: expect.stringMatching(ISO_MS),
    });
    expect(Date.parse(acked.acknowledgedAt!)).toBeGreaterThanOrEqual(Date.parse(acked.createdAt));
    const { acknowledgedAt: _ignored, ...rest } = acked;
    const { acknowledgedAt: before, ...listedRest } = (
      await tenant.client.call(getDeliveryContract, { params: { id } })
    ).data;
    expect(listedRest).toEqual(rest);
    expect(before).toBe(acked.acknowledgedAt);

    const rows = await acknowledgedAtById(tenant.workspaceId);
    expect(rows.get(id)).toBe(acked.acknowledgedAt);
    expect(rows.get(untouched)).toBeNull();

    await sleep(25);
    const again = await tenant.client.call(acknowledgeDeliveryContract, { params: { id } });
    expect(again.data.acknowledgedAt).toBe(acked.acknowledgedAt);
    expect((await acknowledgedAtById(tenant.workspaceId)).get(id)).toBe(acked.acknowledgedAt);
    const bulk = await tenant.client.call(acknowledgeDeliveriesContract, { body: { ids: [id] } });
    expect(bulk.data).toEqual({ acknowledged: [], alreadyAcknowledged: [id], notFound: [] });
    expect((await acknowledgedAtById(tenant.workspaceId)).get(id)).toBe(acked.acknowledgedAt);
  });

  it("accepts an upper-case id for the same delivery", async () => {
    const tenant = await newTenant();
    const id = await ingest(tenant.endpointId);
    const answer = await tenant.client.call(acknowledgeDeliveryContract, { params: { id: id.toUpperCase() } });
    expect(answer.data).toMatchObject({ id, acknowledgedAt: expect.stringMatching(ISO_MS) });
  });

  it("answers 404 for unknown, foreign and malformed ids and changes nothing", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    const foreign = await ingest(other.endpointId);
    const own = await ingest(tenant.endpointId);
    for (const id of [randomUUID(), foreign, "not-a-uuid", "00000000-0000-0000-0000-00000000000g", "1"]) {
      const response = await call(tenant.key, "POST", `${DELIVERIES}/${id}/ack`);
      expect(response.status, id).toBe(404);
      expect(errorOf(response.json).code).toBe("not_found");
    }
    expect((await acknowledgedAtById(other.workspaceId)).get(foreign)).toBeNull();
    expect((await acknowledgedAtById(tenant.workspaceId)).get(own)).toBeNull();
  });
});

describe("POST /v1/webhook-endpoints/deliveries/ack", () => {
  it("sorts a mix of pending, already acknowledged, unknown and foreign ids into exactly one list each", async () => {
    const tenant = await newTenant();
    const other = await newTenant();
    await seedDeliveries({ ...tenant, count: 5 });
    await seedDeliveries({ ...other, count: 2 });
    const [p1, p2, p3, a1, a2] = await idsInOrder(tenant.workspaceId);
    const [f1, f2] = await idsInOrder(other.workspaceId);
    await tenant.client.call(acknowledgeDeliveriesContract, { body: { ids: [a1!, a2!] } });
    const before = await acknowledgedAtById(tenant.workspaceId);
    await sleep(25);

    const unknown1 = randomUUID();
    const unknown2 = randomUUID();
    const ids = [unknown1, p2!, a1!, f1!, p1!, "not-a-uuid", a2!, p3!, f2!, unknown2];
    const response = await call(tenant.key, "POST", `${DELIVERIES}/ack`, { ids });
    expect(response.status).toBe(200);
    const result = idsAcknowledgementSchema.parse(acknowledgeDeliveriesContract.response.parse(response.json).data);
    // Lists keep the request order.
    expect(result).toEqual({
      acknowledged: [p2, p1, p3],
      alreadyAcknowledged: [a1, a2],
      notFound: [unknown1, f1, "not-a-uuid", f2, unknown2],
    });

    const after = await acknowledgedAtById(tenant.workspaceId);
    const newStamp = after.get(p1!);
    expect(newStamp).toMatch(ISO_MS);
    // One statement: the three got the same timestamp, later than the earlier acknowledgements, which stay.
    expect(after.get(p2!)).toBe(newStamp);
    expect(after.get(p3!)).toBe(newStamp);
    expect(after.get(a1!)).toBe(before.get(a1!));
    expect(after.get(a2!)).toBe(before.get(a2!));
    expect(Date.parse(newStamp!)).toBeGreaterThan(Date.parse(before.get(a1!)!));
    for (const stamp of (await acknowledgedAtById(other.workspaceId)).values()) expect(stamp).toBeNull();
  });

  it("accepts exactly 100 ids", async () => {
    const tenant = await newTenant();
    await seedDeliveries({ ...tenant, count: 50 });
    const real = await idsInOrder(tenant.workspaceId);
    const unknown = Array.from({ length: 50 }, () => randomUUID());
    const result = await tenant.client.call(acknowledgeDeliveriesContract, { body: { ids: [...unknown, ...real] } });
    expect(result.data).toEqual({ acknowledged: real, alreadyAcknowledged: [], notFound: unknown });
    expect([...(await acknowledgedAtById(tenant.workspaceId)).values()].every((stamp) => stamp !== null)).toBe(true);
  });

  describe("validation", () => {
    let tenant: Tenant;
    let pending: string[];

    beforeAll(async () => {
      tenant = await newTenant();
      await seedDeliveries({ ...tenant, count: 101 });
      pending = await idsInOrder(tenant.workspaceId);
    });

    it.each<[string, (ids: string[]) => unknown, string[]]>([
      ["no ids", () => ({ ids: [] }), ["ids"]],
      ["101 ids", (ids) => ({ ids: ids.slice(0, 101) }), ["ids"]],
      ["duplicate ids", (ids) => ({ ids: [ids[0], ids[1], ids[0]] }), ["ids"]],
      ["ids that differ only in case", (ids) => ({ ids: [ids[0], ids[0]!.toUpperCase()] }), ["ids"]],
      ["ids as a string", (ids) => ({ ids: ids[0] }), ["ids"]],
      ["ids as an object", (ids) => ({ ids: { 0: ids[0] } }), ["ids"]],
      ["a numeric id", (ids) => ({ ids: [ids[0], 7] }), ["ids.1"]],
      ["an empty id", (ids) => ({ ids: [ids[0], ""] }), ["ids.1"]],
      ["a null id", (ids) => ({ ids: [null, ids[0]] }), ["ids.0"]],
      ["an id over 100 characters", (ids) => ({ ids: [ids[0], "x".repeat(101)] }), ["ids.1"]],
      ["an extra key", (ids) => ({ ids: [ids[0]], force: true }), ["force"]],
      ["a missing ids field", () => ({}), ["ids"]],
      ["a bare array", (ids) => [ids[0]], [""]],
      ["no body", () => "", [""]],
    ])("refuses %s with 400 naming the field and acknowledges nothing", async (_case, makeBody, paths) => {
      const response = await call(tenant.key, "POST", `${DELIVERIES}/ack`, makeBody(pending));
      expect(response.status).toBe(400);
      expect(errorOf(response.json).code).toBe("validation_error");
      expect(detailPaths(response.json)).toEqual(paths);
      expect([...(await acknowledgedAtById(tenant.workspaceId)).values()].every((stamp) => stamp === null)).toBe(true);
    });

    it("refuses malformed JSON and a non-JSON content type", async () => {
      const malformed = await call(tenant.key, "POST", `${DELIVERIES}/ack`, `{"ids": ["${pending[0]}"`);
      expect(malformed.status).toBe(400);
      const form = await fetch(`${app.baseUrl}${DELIVERIES}/ack`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/x-www-form-urlencoded" },
        body: `ids=${pending[0]}`,
      });
      expect(form.status).toBeGreaterThanOrEqual(400);
      expect(form.status).toBeLessThan(500);
      expect([...(await acknowledgedAtById(tenant.workspaceId)).values()].every((stamp) => stamp === null)).toBe(true);
    });
  });
});

describe("concurrent acknowledgement", () => {
  // Each round races requests over the same 50 fresh ids. A lost race (two winners, a changed timestamp) or a failed
  // request (e.g. a deadlock between two bulk statements locking rows in different orders) fails the round. Races
  // are probabilistic, so several rounds run; a correct implementation passes all of them.
  const ROUNDS = 10;

  async function seedRound(tenant: Tenant): Promise<string[]> {
    const endpointId = await addEndpoint(tenant, "Race");
    await seedDeliveries({ workspaceId: tenant.workspaceId, endpointId, count: 50 });
    return idsInOrder(tenant.workspaceId, "desc", { endpointId });
  }

  /** Full shuffled id lists and shuffled subsets of varying sizes: the lock order of a bulk statement varies with both. */
  function bulkBodies(ids: string[], count: number): string[][] {
    return Array.from({ length: count }, (_, index) =>
      index % 2 === 0 ? shuffled(ids) : shuffled(ids).slice(0, 16 + (index % 16)),
    );
  }

  it("acknowledges each of 50 ids in exactly one response across many concurrent bulk requests", async () => {
    const tenant = await newTenant();
    for (let round = 0; round < ROUNDS; round += 1) {
      const ids = await seedRound(tenant);
      const bodies = bulkBodies(ids, 32);
      const responses = await Promise.all(
        bodies.map((body) => call(tenant.key, "POST", `${DELIVERIES}/ack`, { ids: body })),
      );
      const acknowledged: string[] = [];
      responses.forEach((response, index) => {
        expect(response.status, `round ${round}, request ${index}: ${response.text}`).toBe(200);
        const result = idsAcknowledgementSchema.parse(acknowledgeDeliveriesContract.response.parse(response.json).data);
        expect(result.notFound).toEqual([]);
        expect([...result.acknowledged, ...result.alreadyAcknowledged].sort()).toEqual([...bodies[index]!].sort());
        acknowledged.push(...result.acknowledged);
      });
      const counts = countOf(acknowledged);
      for (const id of ids) expect(counts.get(id), `round ${round}: ${id}`).toBe(1);
      expect(acknowledged).toHaveLength(50);
      const stamps = await acknowledgedAtById(tenant.workspaceId);
      for (const id of ids) expect(stamps.get(id)).toMatch(ISO_MS);
    }
  }, 120_000);

  it("acknowledges every row exactly once under concurrent single and bulk acks, and the timestamp never changes afterwards", async () => {
    const tenant = await newTenant();
    // Record every change of acknowledged_at, whoever makes it (this file's own database).
    await db().$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS test_ack_audit (id uuid NOT NULL, old_at timestamptz, new_at timestamptz)`,
    );
    await db().$executeRawUnsafe(`
        CREATE OR REPLACE FUNCTION test_ack_audit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO test_ack_audit VALUES (NEW.id, OLD.acknowledged_at, NEW.acknowledged_at);
          RETURN NEW;
        END $$`);
    await db().$executeRawUnsafe(`
        CREATE TRIGGER test_ack_audit AFTER UPDATE ON webhook_deliveries FOR EACH ROW
        WHEN (OLD.acknowledged_at IS DISTINCT FROM NEW.acknowledged_at) EXECUTE FUNCTION test_ack_audit()`);
    try {
      for (let round = 0; round < ROUNDS / 2; round += 1) {
        const ids = await seedRound(tenant);
        const bodies = bulkBodies(ids, 16);
        const singles = shuffled([...ids, ...ids]);
        type Outcome = { kind: "bulk" | "single"; ids: string[]; response: Awaited<ReturnType<typeof call>> };
        const requests: Promise<Outcome>[] = [];
        // Interleave the kinds so they really race.
        for (let index = 0; index < singles.length; index += 1) {
          const body = bodies[index];
          if (body)
            requests.push(
              call(tenant.key, "POST", `${DELIVERIES}/ack`, { ids: body }).then((response) => ({
                kind: "bulk" as const,
                ids: body,
                response,
              })),
            );
          const single = singles[index]!;
          requests.push(
            call(tenant.key, "POST", `${DELIVERIES}/${single}/ack`).then((response) => ({
              kind: "single" as const,
              ids: [single],
              response,
            })),
          );
        }
        const outcomes = await Promise.all(requests);

        const stamps = await acknowledgedAtById(tenant.workspaceId);
        const bulkAcknowledged: string[] = [];
        for (const outcome of outcomes) {
          expect(outcome.response.status, `round ${round}, ${outcome.kind}: ${outcome.response.text}`).toBe(200);
          if (outcome.kind === "bulk") {
            const result = idsAcknowledgementSchema.parse(
              acknowledgeDeliveriesContract.response.parse(outcome.response.json).data,
            );
            expect(result.notFound).toEqual([]);
            expect([...result.acknowledged, ...result.alreadyAcknowledged].sort()).toEqual([...outcome.ids].sort());
            bulkAcknowledged.push(...result.acknowledged);
          } else {
            const delivery = acknowledgeDeliveryContract.response.parse(outcome.response.json).data;
            expect(delivery.id).toBe(outcome.ids[0]);
            // Whoever won, every answer shows the one timestamp that stuck.
            expect(delivery.acknowledgedAt).toBe(stamps.get(delivery.id));
          }
        }
        // No id was reported as newly acknowledged by two bulk requests.
        for (const [id, count] of countOf(bulkAcknowledged)) expect(count, `round ${round}: ${id}`).toBe(1);

        // Exactly one transition per row, from pending to the timestamp stored now.
        const audit = await db().$queryRaw<{ id: string; old_at: Date | null; new_at: Date | null }[]>`
            SELECT id::text AS id, old_at, new_at FROM test_ack_audit WHERE id = ANY(${ids}::uuid[])`;
        const transitions = countOf(audit.map((row) => row.id));
        for (const id of ids) expect(transitions.get(id), `round ${round}: ${id}`).toBe(1);
        for (const row of audit) {
          expect(row.old_at).toBeNull();
          expect(row.new_at?.toISOString()).toBe(stamps.get(row.id));
        }

        // Later acks, single and bulk, change nothing.
        await sleep(20);
        const again = await Promise.all([
          call(tenant.key, "POST", `${DELIVERIES}/ack`, { ids: shuffled(ids) }),
          ...ids.slice(0, 10).map((id) => call(tenant.key, "POST", `${DELIVERIES}/${id}/ack`)),
        ]);
        for (const response of again) expect(response.status, response.text).toBe(200);
        expect(
          idsAcknowledgementSchema.parse(acknowledgeDeliveriesContract.response.parse(again[0]!.json).data),
        ).toMatchObject({
          acknowledged: [],
          notFound: [],
        });
        expect(await acknowledgedAtById(tenant.workspaceId)).toEqual(stamps);
        const auditAfter = await db().$queryRaw<
          { count: bigint }[]
        >`SELECT count(*) AS count FROM test_ack_audit WHERE id = ANY(${ids}::uuid[])`;
        expect(Number(auditAfter[0]!.count)).toBe(50);
      }
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_ack_audit ON webhook_deliveries`);
    }
  }, 120_000);
});

describe("workspace isolation", () => {
  it("lets workspace B see, read and acknowledge nothing of workspace A's", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await seedDeliveries({ ...a, count: 8 });
    const aRealId = await ingest(a.endpointId, JSON.stringify({ secret: "a-only" }));
    const bId = await ingest(b.endpointId);
    const aIds = await idsInOrder(a.workspaceId);
    const aBefore = await acknowledgedAtById(a.workspaceId);

    // Listing: only B's own, whatever the filters.
    expect((await listPage(b, {})).deliveries.map((delivery) => delivery.id)).toEqual([bId]);
    expect(await listPage(b, { endpointId: a.endpointId })).toEqual({ deliveries: [], nextCursor: null });
    expect(await listPage(b, { endpointId: a.endpointId, unacknowledged: "true", order: "asc" })).toEqual({
      deliveries: [],
      nextCursor: null,
    });
    expect((await listPage(b, { unacknowledged: "true" })).deliveries.map((delivery) => delivery.id)).toEqual([bId]);

    // Reading and acknowledging one: 404 without a hint of A's data.
    for (const [method, suffix] of [
      ["GET", ""],
      ["GET", "/raw"],
      ["POST", "/ack"],
    ] as const) {
      const response = await call(b.key, method, `${DELIVERIES}/${aRealId}${suffix}`);
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect(errorOf(response.json).code).toBe("not_found");
      expect(response.text).not.toContain("a-only");
      expect(response.text).not.toContain(a.workspaceId);
    }
    const error = await b.client
      .call(getDeliveryContract, { params: { id: aRealId } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 404, code: "not_found" });

    // Bulk: all of A's ids are simply not found; B's own one is acknowledged.
    const bulk = await b.client.call(acknowledgeDeliveriesContract, { body: { ids: [...aIds, bId] } });
    expect(bulk.data).toEqual({ acknowledged: [bId], alreadyAcknowledged: [], notFound: aIds });

    // A's rows are untouched and A still sees all of them (and none of B's).
    expect(await acknowledgedAtById(a.workspaceId)).toEqual(aBefore);
    for (const stamp of aBefore.values()) expect(stamp).toBeNull();
    const aList = (await listPage(a, {})).deliveries.map((delivery) => delivery.id);
    expect(aList).toEqual(await idsInOrder(a.workspaceId));
    expect(aList).not.toContain(bId);
    expect(aList).toHaveLength(9);
    const aGetsB = await call(a.key, "GET", `${DELIVERIES}/${bId}`);
    expect(aGetsB.status).toBe(404);
  });
});
