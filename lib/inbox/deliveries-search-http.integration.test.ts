import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import { DELIVERY_SCAN_ROWS, createWebhookEndpointContract, listDeliveriesContract } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, detailPaths, errorOf, postWebhook, requestApi } from "@/test/http-api";

// `q` and `payload` on GET /v1/webhook-endpoints/deliveries over HTTP against the real launcher and its real window:
// deliveries sent through the ingest address (compressed and not-UTF-8 bodies among them), the filters with every
// other filter and the cursor, a page whose window holds no match, refused values, and tenants kept apart.
// lib/inbox/deliveries-search.integration.test.ts walks small windows over every kind of body.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

const DELIVERIES = "/v1/webhook-endpoints/deliveries";

interface Tenant {
  workspaceId: string;
  key: string;
  client: ApiClient;
  endpointA: string;
  endpointB: string;
}

let tenantCounter = 0;

async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Search over HTTP ${++tenantCounter}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
  const endpoint = async (name: string) =>
    (await client.call(createWebhookEndpointContract, { body: { name } })).data.id;
  return { workspaceId: workspace.id, key, client, endpointA: await endpoint("A"), endpointB: await endpoint("B") };
}

const JSON_TYPE = { "content-type": "application/json" };

/** What each sent delivery is, to work out what a filter must answer. */
interface Sent {
  id: string;
  endpointId: string;
  invoicePaid: boolean;
  needle: boolean;
}

async function send(tenant: Tenant): Promise<Sent[]> {
  const sent: Sent[] = [];
  const post = async (
    endpointId: string,
    body: string | Uint8Array,
    headers: Record<string, string>,
    facts: Omit<Sent, "id" | "endpointId">,
    query = "",
  ) => sent.push({ id: await postWebhook(app.baseUrl, `${endpointId}${query}`, body, headers), endpointId, ...facts });
  for (let round = 0; round < 4; round++) {
    const endpoint = round % 2 === 0 ? tenant.endpointA : tenant.endpointB;
    await post(endpoint, `{"type":"invoice.paid","id":"evt_${round}","note":"Order NEEDLE-${round}"}`, JSON_TYPE, {
      invoicePaid: true,
      needle: true,
    });
    await post(endpoint, `{"type":"customer.updated","id":"evt_c${round}"}`, JSON_TYPE, {
      invoicePaid: false,
      needle: false,
    });
    await post(
      endpoint,
      `{"type":"invoice.paid"}`,
      { ...JSON_TYPE, "x-request-note": "needle" },
      {
        invoicePaid: true,
        needle: true,
      },
    );
    await post(endpoint, "ping", { "content-type": "text/plain" }, { invoicePaid: false, needle: true }, "?tag=NeedLe");
    // Compressed: the stored bytes are gzip; neither filter sees inside (and neither fails on them).
    await post(
      endpoint,
      gzipSync(Buffer.from('{"type":"invoice.paid","note":"needle"}')),
      { ...JSON_TYPE, "content-encoding": "gzip" },
      { invoicePaid: false, needle: false },
    );
    // Not UTF-8: searched as bytes, never parsed.
    await post(
      endpoint,
      Buffer.concat([Buffer.from('{"type":"invoice.paid","x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('needle"}')]),
      JSON_TYPE,
      { invoicePaid: false, needle: true },
    );
  }
  return sent;
}

async function walk(tenant: Tenant, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = "";
  for (let page = 0; page < 100; page++) {
    const answer = dataOf<{ deliveries: { id: string }[]; nextCursor: string | null }>(
      await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?${query}${cursor}`),
    );
    ids.push(...answer.deliveries.map((delivery) => delivery.id));
    if (!answer.nextCursor) return ids;
    cursor = `&cursor=${encodeURIComponent(answer.nextCursor)}`;
  }
  throw new Error("the walk did not end");
}

const encode = encodeURIComponent;
const INVOICE_PAID = encode('{"type":"invoice.paid"}');

describe("GET /v1/webhook-endpoints/deliveries: q and payload", () => {
  let tenant: Tenant;
  let neighbour: Tenant;
  let sent: Sent[];

  beforeAll(async () => {
    tenant = await newTenant();
    neighbour = await newTenant();
    sent = await inListingOrder(await send(tenant));
    await send(neighbour);
  }, 60_000);

  /** Newest first, as the listing answers (deliveries were sent one after another). */
  const want = (keep: (row: Sent) => boolean, order: "asc" | "desc" = "desc") => {
    const ids = sent.filter(keep).map((row) => row.id);
    return order === "asc" ? ids : ids.reverse();
  };

  it.each(["desc", "asc"] as const)("each alone and both together, walked at limit 2 (%s)", async (order) => {
    expect(await walk(tenant, `q=needle&limit=2&order=${order}`)).toEqual(want((row) => row.needle, order));
    expect(await walk(tenant, `payload=${INVOICE_PAID}&limit=2&order=${order}`)).toEqual(
      want((row) => row.invoicePaid, order),
    );
    expect(await walk(tenant, `q=NEEDLE&payload=${INVOICE_PAID}&limit=2&order=${order}`)).toEqual(
      want((row) => row.invoicePaid && row.needle, order),
    );
  });

  it("combines with endpointId, unacknowledged, since and until", async () => {
    const [first, , , , , , second] = sent;
    const [since, until] = [await createdAt(first!.id), await createdAt(sent.at(-3)!.id)];
    const range = `since=${encode(since)}&until=${encode(until)}`;
    const inRange = new Set(
      (
        await db().$queryRaw<{ id: string }[]>`
          SELECT id::text FROM webhook_deliveries
          WHERE workspace_id = ${tenant.workspaceId} AND created_at >= ${since}::timestamptz AND created_at < ${until}::timestamptz`
      ).map((row) => row.id),
    );
    expect(inRange.size).toBeGreaterThan(10);
    expect(await walk(tenant, `q=needle&endpointId=${tenant.endpointB}&limit=1`)).toEqual(
      want((row) => row.needle && row.endpointId === tenant.endpointB),
    );
    expect(await walk(tenant, `payload=${INVOICE_PAID}&${range}&limit=1`)).toEqual(
      want((row) => row.invoicePaid && inRange.has(row.id)),
    );
    // Acknowledge one match: the pending and acknowledged listings split the matches between them.
    await db().$executeRaw`UPDATE webhook_deliveries SET acknowledged_at = now() WHERE id = ${second!.id}::uuid`;
    expect(await walk(tenant, `q=needle&unacknowledged=false`)).toEqual([second!.id]);
    expect(await walk(tenant, `q=needle&unacknowledged=true&limit=3`)).toEqual(
      want((row) => row.needle && row.id !== second!.id),
    );
  });

  it("takes % _ and \\ literally and SQL-ish text as text", async () => {
    const id = await postWebhook(app.baseUrl, tenant.endpointA, "50%_\\off; DROP TABLE x;--", {
      "content-type": "text/plain",
    });
    expect(await walk(tenant, `q=${encode("%_\\")}`)).toEqual([id]);
    expect(await walk(tenant, `q=${encode("0%_")}`)).toEqual([id]);
    expect(await walk(tenant, `q=${encode("drop table x;--")}`)).toEqual([id]);
    expect(await walk(tenant, `q=${encode("%%%")}`)).toEqual([]);
    expect(await walk(tenant, `q=${encode("' OR '1'='1")}`)).toEqual([]);
    await db().$executeRaw`DELETE FROM webhook_deliveries WHERE id = ${id}::uuid`;
  });

  it("keeps each tenant to its own deliveries", async () => {
    const theirs = await walk(neighbour, "q=needle");
    const mine = new Set(sent.map((row) => row.id));
    expect(theirs.length).toBe(sent.filter((row) => row.needle).length);
    expect(theirs.some((id) => mine.has(id))).toBe(false);
  });

  it("binds the cursor to q and payload", async () => {
    const page = dataOf<{ nextCursor: string }>(
      await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?q=needle&limit=1`),
    );
    const cursor = encode(page.nextCursor);
    for (const query of [`q=needlf`, `q=needle&payload=${INVOICE_PAID}`, ""]) {
      const answer = await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?${query}&cursor=${cursor}`);
      expect(answer.status, query).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["cursor"]);
    }
    const byPayload = dataOf<{ nextCursor: string }>(
      await requestApi(
        app.baseUrl,
        tenant.key,
        "GET",
        `${DELIVERIES}?payload=${encode('{"type":"invoice.paid","id":"evt_0"}')}&limit=1`,
      ),
    );
    expect(byPayload.nextCursor).toBeNull();
    const reordered = await requestApi(
      app.baseUrl,
      tenant.key,
      "GET",
      `${DELIVERIES}?payload=${encode('{ "id": "evt_0", "type": "invoice.paid" }')}&limit=1`,
    );
    expect(dataOf<{ deliveries: unknown[] }>(reordered).deliveries).toHaveLength(1);
  });

  it.each([
    ["q of 2 characters", "q=ab", "q", /at least 3/],
    ["q of 201 characters", `q=${"x".repeat(201)}`, "q", /at most 200/],
    ["q with NUL", "q=ab%00c", "q", /NUL/],
    ["payload that is not JSON", `payload=${encode("{type:1}")}`, "payload", /JSON/],
    ["payload that is an array", `payload=${encode("[1]")}`, "payload", /JSON object/],
    ["payload with \\u0000", `payload=${encode('{"a":"\\u0000"}')}`, "payload", /u0000/],
    ["payload with a lone surrogate", `payload=${encode('{"a":"\\udc00"}')}`, "payload", /surrogate/],
    ["payload too long", `payload=${encode(`{"a":"${"x".repeat(2048)}"}`)}`, "payload", /at most 2048/],
  ])("refuses %s with a validation error", async (_name, query, path, message) => {
    const answer = await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?${query}`);
    expect(answer.status, answer.text).toBe(400);
    expect(errorOf(answer.json).code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual([path]);
    expect(JSON.stringify(answer.json)).toMatch(message);
  });

  it("accepts q of 3 characters counted as characters, not bytes or UTF-16 units", async () => {
    for (const text of ["abc", "é😀x"]) {
      const answer = await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?q=${encode(text)}`);
      expect(answer.status, answer.text).toBe(200);
    }
    expect((await requestApi(app.baseUrl, tenant.key, "GET", `${DELIVERIES}?q=${encode("😀😀")}`)).status).toBe(400);
  });
});

/** The deliveries oldest first as the listing orders them, (createdAt, id): sent one after another is not enough. */
async function inListingOrder(rows: Sent[]): Promise<Sent[]> {
  const order = await db().$queryRaw<{ id: string }[]>`
    SELECT id::text FROM webhook_deliveries WHERE id = ANY(${rows.map((row) => row.id)}::uuid[]) ORDER BY created_at, id`;
  return order.map(({ id }) => rows.find((row) => row.id === id)!);
}

async function createdAt(id: string): Promise<string> {
  const [row] = await db().$queryRaw<{ created_at: Date }[]>`
    SELECT created_at FROM webhook_deliveries WHERE id = ${id}::uuid`;
  return row!.created_at.toISOString();
}

describe("GET /v1/webhook-endpoints/deliveries: a page whose window holds no match", () => {
  it("is empty with a cursor, and the next page finds the match past it", async () => {
    const tenant = await newTenant();
    // One match, older than a whole window of deliveries that do not match.
    const match = await postWebhook(app.baseUrl, tenant.endpointA, '{"type":"invoice.paid"}', JSON_TYPE);
    await db().$executeRaw`
      INSERT INTO webhook_deliveries
        (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at)
      SELECT gen_random_uuid(), ${tenant.workspaceId}, ${tenant.endpointA}, convert_to('{"type":"other"}', 'UTF8'),
             'application/json', '{"content-type":"application/json"}'::jsonb, '203.0.113.7', 16,
             now() + n * interval '1 millisecond'
      FROM generate_series(1, ${DELIVERY_SCAN_ROWS}) AS n`;
    const first = await tenant.client.call(listDeliveriesContract, {
      query: { payload: '{"type":"invoice.paid"}', q: "invoice" },
    });
    expect(first.data.deliveries).toEqual([]);
    expect(first.data.nextCursor).not.toBeNull();
    const second = await tenant.client.call(listDeliveriesContract, {
      query: { payload: '{"type":"invoice.paid"}', q: "invoice", cursor: first.data.nextCursor! },
    });
    expect(second.data.deliveries.map((delivery) => delivery.id)).toEqual([match]);
    expect(second.data.nextCursor).toBeNull();
    // Oldest first, the match is in the first window.
    const ascending = await tenant.client.call(listDeliveriesContract, {
      query: { payload: '{"type":"invoice.paid"}', order: "asc", limit: 1 },
    });
    expect(ascending.data.deliveries.map((delivery) => delivery.id)).toEqual([match]);
    expect(ascending.data.nextCursor).not.toBeNull();
  }, 60_000);
});
