import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { listDeliveries, type ListDeliveriesOptions } from "./deliveries";

// `q` and `payload` on the deliveries listing, with windows of a few rows so that pages come back empty or short with
// a cursor, over every kind of stored body (invalid UTF-8, compressed, NUL bytes, other content types). Each content
// kind says which searches it must match; the expected walks are worked out from that here, not by the server.
// lib/inbox/deliveries-search-http.integration.test.ts checks the same over HTTP with the real window.

const BASE = Date.parse("2026-04-01T08:00:00.000Z");

interface Kind {
  body: Buffer;
  contentType: string | null;
  headers?: Record<string, string>;
  query?: string;
  /** The searches (keys of SEARCHES) this delivery matches. */
  matches: (keyof typeof SEARCHES)[];
}

const SEARCHES = {
  needle: { q: "NeEdLe" },
  literal: { q: "%_\\" },
  headerLine: { q: "X-Trace: HAS" },
  accented: { q: "CAFé" },
  sqlish: { q: "' OR 1=1 --" },
  invoicePaid: { payload: '{"type":"invoice.paid"}' },
  nestedTag: { payload: '{"data":{"tags":["b"]}}' },
  twoKeys: { payload: '{"data":{"id":"obj_1","amount":1.10}}' },
} satisfies Record<string, Pick<ListDeliveriesOptions, "q" | "payload">>;

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

const KINDS: Kind[] = [
  {
    body: json({ type: "invoice.paid", data: { id: "obj_1", amount: 1.1, tags: ["a", "b"] }, note: "needle-42" }),
    contentType: "application/json",
    matches: ["needle", "invoicePaid", "nestedTag", "twoKeys"],
  },
  {
    body: json({ type: "customer.updated", data: { id: "obj_2", tags: ["b", "c"] }, note: "NEEDLE" }),
    contentType: "application/json; charset=utf-8",
    matches: ["needle", "nestedTag"],
  },
  {
    body: Buffer.from('{"data":{"amount":1.10,"id":"obj_1"},"type":"invoice.paid","type":"invoice.paid"}'),
    contentType: "application/vnd.api+json",
    matches: ["invoicePaid", "twoKeys"],
  },
  {
    body: json({ type: "ping" }),
    contentType: "application/json",
    headers: { "x-trace": "has-Needle-here" },
    matches: ["needle", "headerLine"],
  },
  { body: json({ type: "ping" }), contentType: "application/json", query: "ref=needle&x=1", matches: ["needle"] },
  {
    // Not UTF-8: searched as bytes, never parsed as JSON, no error.
    body: Buffer.concat([
      Buffer.from('{"type":"invoice.paid","n":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('needle"}'),
    ]),
    contentType: "application/json",
    matches: ["needle"],
  },
  {
    // Compressed: the stored bytes are gzip, so neither the search nor the payload filter sees the JSON inside.
    body: gzipSync(json({ type: "invoice.paid", note: "needle" })),
    contentType: "application/json",
    headers: { "content-encoding": "gzip" },
    matches: [],
  },
  {
    // `identity` is no compression.
    body: json({ type: "invoice.paid" }),
    contentType: "application/json",
    headers: { "content-encoding": "identity" },
    matches: ["invoicePaid"],
  },
  {
    // A NUL byte: a binary body, searched by its headers and query only.
    body: Buffer.concat([Buffer.from([0x00]), Buffer.from("needle")]),
    contentType: "application/octet-stream",
    matches: [],
  },
  {
    // The same text as a JSON body, but not sent as JSON: it is searched, not parsed.
    body: json({ type: "invoice.paid", note: "needle" }),
    contentType: "text/plain",
    matches: ["needle"],
  },
  { body: json({ type: "invoice.paid" }), contentType: null, matches: [] },
  { body: Buffer.from("50%_\\off, neeedle"), contentType: "text/plain", matches: ["literal"] },
  { body: Buffer.from("50%X\\off"), contentType: "text/plain", matches: [] },
  { body: Buffer.from("Le CAFé est ouvert"), contentType: "text/plain", matches: ["accented"] },
  { body: Buffer.from("le cafÉ"), contentType: "text/plain", matches: [] },
  { body: Buffer.from("name=' OR 1=1 --"), contentType: "application/x-www-form-urlencoded", matches: ["sqlish"] },
  { body: Buffer.from('{"type":'), contentType: "application/json", matches: [] },
  { body: Buffer.from('["invoice.paid",{"type":"invoice.paid"}]'), contentType: "application/json", matches: [] },
  { body: Buffer.from('{"type":"\\u0000"}'), contentType: "application/json", matches: [] },
  { body: Buffer.from("[".repeat(100_000)), contentType: "application/json", matches: [] },
];

interface Seeded {
  id: string;
  createdAt: Date;
  endpointId: string;
  acknowledged: boolean;
  kind: number;
}

interface Tenant {
  workspaceId: string;
  endpointA: string;
  endpointB: string;
  rows: Seeded[];
}

let tenantCounter = 0;

async function insert(tenant: Omit<Tenant, "rows">, index: number, createdAt: Date): Promise<Seeded> {
  const kind = KINDS[index % KINDS.length]!;
  const endpointId = index % 2 === 0 ? tenant.endpointA : tenant.endpointB;
  const acknowledged = index % 3 === 0;
  const headers = { ...(kind.contentType && { "content-type": kind.contentType }), ...kind.headers };
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, query, source_ip, size_bytes, created_at, acknowledged_at)
    VALUES (gen_random_uuid(), ${tenant.workspaceId}, ${endpointId}, ${kind.body}, ${kind.contentType},
            ${JSON.stringify(headers)}::jsonb, ${kind.query ?? ""}, '203.0.113.7', ${kind.body.length}, ${createdAt},
            ${acknowledged ? createdAt : null})
    RETURNING id::text AS id`;
  return { id: row!.id, createdAt, endpointId, acknowledged, kind: index % KINDS.length };
}

/** Three passes over the kinds, two rows to a millisecond (the id breaks ties), over two endpoints. */
async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Search ${++tenantCounter}` });
  const tenant = { workspaceId: workspace.id, endpointA: `we_sa${tenantCounter}`, endpointB: `we_sb${tenantCounter}` };
  await db().$executeRaw`
    INSERT INTO webhook_endpoints (id, workspace_id, name, updated_at)
    VALUES (${tenant.endpointA}, ${workspace.id}, 'A', now()), (${tenant.endpointB}, ${workspace.id}, 'B', now())`;
  const rows: Seeded[] = [];
  for (let index = 0; index < KINDS.length * 3; index++)
    rows.push(await insert(tenant, index, new Date(BASE + Math.floor(index / 2))));
  return { ...tenant, rows };
}

type Filters = Omit<ListDeliveriesOptions, "workspaceId" | "limit" | "cursor" | "order"> & { order?: "asc" | "desc" };

function expected(rows: Seeded[], search: keyof typeof SEARCHES, filters: Filters): string[] {
  const since = filters.since === undefined ? -Infinity : Date.parse(filters.since);
  const until = filters.until === undefined ? Infinity : Date.parse(filters.until);
  const ids = rows
    .filter(
      (row) =>
        KINDS[row.kind]!.matches.includes(search) &&
        row.createdAt.getTime() >= since &&
        row.createdAt.getTime() < until &&
        (filters.endpointId === undefined || row.endpointId === filters.endpointId) &&
        (filters.unacknowledged === undefined || row.acknowledged !== filters.unacknowledged),
    )
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((row) => row.id);
  return filters.order === "asc" ? ids : ids.reverse();
}

interface Walk {
  ids: string[];
  pages: number;
  emptyPages: number;
}

/** Follows nextCursor to the end with a window of `scanRows` deliveries; `between` runs after each page. */
async function walk(
  workspaceId: string,
  filters: Filters,
  window: { limit?: number; scanRows?: number; scanBytes?: number } = {},
  between: (page: number) => Promise<void> = async () => {},
): Promise<Walk> {
  const result: Walk = { ids: [], pages: 0, emptyPages: 0 };
  let cursor: string | undefined;
  do {
    const page = await listDeliveries({
      workspaceId,
      order: "desc",
      limit: 2,
      scanRows: 3,
      ...window,
      ...filters,
      cursor,
    });
    result.ids.push(...page.deliveries.map((delivery) => delivery.id));
    result.pages++;
    if (page.deliveries.length === 0) result.emptyPages++;
    expect(result.pages).toBeLessThan(500);
    cursor = page.nextCursor ?? undefined;
    await between(result.pages);
  } while (cursor);
  return result;
}

let tenant: Tenant;
let neighbour: Tenant;

beforeAll(async () => {
  tenant = await newTenant();
  neighbour = await newTenant();
}, 60_000);

const WINDOW = { since: new Date(BASE + 7).toISOString(), until: new Date(BASE + 25).toISOString() };

describe("q and payload select the deliveries whose content matches, across a cursor walk", () => {
  const searches = Object.keys(SEARCHES) as (keyof typeof SEARCHES)[];
  it.each(searches)("%s: alone and with every other filter, every match exactly once", async (search) => {
    const combinations: Filters[] = [
      {},
      { order: "asc" },
      { endpointId: tenant.endpointA },
      { unacknowledged: true },
      { unacknowledged: false, order: "asc" },
      { ...WINDOW },
      { ...WINDOW, endpointId: tenant.endpointB, order: "asc" },
      { since: WINDOW.since, unacknowledged: true },
    ];
    for (const filters of combinations) {
      const all = { ...filters, ...SEARCHES[search] };
      const want = expected(tenant.rows, search, filters);
      const { ids } = await walk(tenant.workspaceId, all);
      expect(ids, JSON.stringify(filters)).toEqual(want);
      // The whole window in one page finds the same (no cursor at all when everything fits).
      const whole = await listDeliveries({ workspaceId: tenant.workspaceId, order: "desc", limit: 100, ...all });
      expect(whole.deliveries.map((delivery) => delivery.id)).toEqual(want);
      expect(whole.nextCursor).toBeNull();
    }
    // The search is not vacuous: each matches something, and never everything.
    expect(expected(tenant.rows, search, {}).length).toBeGreaterThan(0);
    expect(expected(tenant.rows, search, {}).length).toBeLessThan(tenant.rows.length);
  });

  it("returns the neighbour's matches to the neighbour only", async () => {
    const mine = new Set(tenant.rows.map((row) => row.id));
    const { ids } = await walk(neighbour.workspaceId, SEARCHES.needle);
    expect(ids).toEqual(expected(neighbour.rows, "needle", {}));
    expect(ids.some((id) => mine.has(id))).toBe(false);
  });

  it("leaves the payload out when asked, and then still matches on the body", async () => {
    const page = await listDeliveries({
      workspaceId: tenant.workspaceId,
      order: "desc",
      limit: 100,
      withPayload: false,
      ...SEARCHES.invoicePaid,
    });
    expect(page.deliveries.map((delivery) => delivery.id)).toEqual(expected(tenant.rows, "invoicePaid", {}));
    expect(page.deliveries.every((delivery) => delivery.rawPayload === undefined)).toBe(true);
  });
});

describe("a page looks at a bounded window", () => {
  it("comes back empty with a cursor when its window holds no match, and the walk goes on", async () => {
    const result = await walk(tenant.workspaceId, SEARCHES.literal, { limit: 10, scanRows: 2 });
    expect(result.ids).toEqual(expected(tenant.rows, "literal", {}));
    // 60 rows in windows of 2: 30 pages (and one more when the last window ends the listing exactly), most empty.
    expect(result.pages).toBeGreaterThanOrEqual(30);
    expect(result.emptyPages).toBeGreaterThan(20);
  });

  it("stops at the byte budget too, the first delivery always looked at", async () => {
    // A budget below any body: one delivery per window.
    const result = await walk(tenant.workspaceId, SEARCHES.needle, { limit: 10, scanRows: 100, scanBytes: 1 });
    expect(result.ids).toEqual(expected(tenant.rows, "needle", {}));
    expect(result.pages).toBeGreaterThanOrEqual(tenant.rows.length);
  });

  it("ends with a null cursor when the window reaches the end of the listing", async () => {
    const page = await listDeliveries({
      workspaceId: tenant.workspaceId,
      order: "desc",
      limit: 100,
      scanRows: tenant.rows.length,
      ...SEARCHES.needle,
    });
    expect(page.nextCursor).toBeNull();
    const short = await listDeliveries({
      workspaceId: tenant.workspaceId,
      order: "desc",
      limit: 100,
      scanRows: tenant.rows.length - 1,
      ...SEARCHES.literal,
    });
    expect(short.nextCursor).not.toBeNull();
  });

  it("visits every match that existed when the walk began exactly once while matching rows arrive", async () => {
    const arrivals = async (oldestFirst: boolean) => {
      const before = (await walk(tenant.workspaceId, SEARCHES.needle)).ids;
      const added: string[] = [];
      const insertMatching = async () => {
        // Kind 0 matches `needle`; arrivals are newer than everything seeded.
        const row = await insert(tenant, KINDS.length * 10, new Date());
        added.push(row.id);
        tenant.rows.push(row);
      };
      const during = await walk(
        tenant.workspaceId,
        { ...SEARCHES.needle, order: oldestFirst ? "asc" : "desc" },
        {},
        async (page) => {
          if (page % 3 === 1) await insertMatching();
        },
      );
      expect(added.length).toBeGreaterThan(2);
      expect(new Set(during.ids).size).toBe(during.ids.length);
      const seen = during.ids.filter((id) => !added.includes(id));
      expect(seen).toEqual(oldestFirst ? [...before].reverse() : before);
      // Oldest first, the arrivals come after everything else and are walked into (all but those after the end).
      if (oldestFirst)
        expect(during.ids.slice(before.length)).toEqual(added.slice(0, during.ids.length - before.length));
    };
    await arrivals(false);
    await arrivals(true);
  });
});

describe("a cursor is bound to its content filters", () => {
  async function firstCursor(filters: Filters): Promise<string> {
    const page = await listDeliveries({ workspaceId: tenant.workspaceId, order: "desc", limit: 1, ...filters });
    expect(page.nextCursor).not.toBeNull();
    return page.nextCursor!;
  }

  it("is refused with another q or payload, or without them", async () => {
    const cursor = await firstCursor(SEARCHES.needle);
    for (const filters of [{ q: "needle" }, { q: "NeEdLe " }, {}, { ...SEARCHES.needle, ...SEARCHES.invoicePaid }])
      await expect(
        listDeliveries({ workspaceId: tenant.workspaceId, order: "desc", limit: 1, ...filters, cursor }),
      ).rejects.toBeInstanceOf(ApiError);
    const payloadCursor = await firstCursor(SEARCHES.invoicePaid);
    await expect(
      listDeliveries({
        workspaceId: tenant.workspaceId,
        order: "desc",
        limit: 1,
        payload: '{"type":"invoice"}',
        cursor: payloadCursor,
      }),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it("continues with the same payload spelt with other key order and whitespace", async () => {
    const cursor = await firstCursor(SEARCHES.twoKeys);
    const page = await listDeliveries({
      workspaceId: tenant.workspaceId,
      order: "desc",
      limit: 100,
      payload: '{ "data" : { "amount": 1.10, "id": "obj_1" } }',
      cursor,
    });
    expect(page.deliveries.map((delivery) => delivery.id)).toEqual(expected(tenant.rows, "twoKeys", {}).slice(1));
  });
});
