import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, detailPaths, expectError, requestApi } from "@/test/http-api";
import { MiB, peakRss, sampleTreeRss, treeRss } from "@/test/process-memory";
import { exportDeliveries } from "./export-deliveries";

// The NDJSON export (`GET …/deliveries/export`) over HTTP against the real launcher: 100,000 deliveries inserted with
// SQL are read back in order, exactly, and within a bounded growth of the app's memory; the filters, both body forms,
// the end line, tenant isolation and validation; and, in process, the keyset walk across chunk boundaries.

const EXPORT = "/v1/webhook-endpoints/deliveries/export";
const BASE = Date.parse("2026-04-01T00:00:00.000Z");
const at = (ms: number) => new Date(BASE + ms).toISOString();

/*
 * The large export: 100,000 deliveries of ~1 KB (a hundred MB of bodies, ~170 MiB of base64 NDJSON). Holding the
 * export, or half of it, would grow the app by more than the bound; a streamed walk holds one chunk (at most 500 rows
 * and 8 MiB of bodies) and one line. Measured: 2–11 MiB of growth (with the heap limit below). That the stream makes
 * the next line only when the client took the previous one (back-pressure for a slow client) is shown in
 * lib/api/ndjson-response.test.ts: here the client reads as fast as it can.
 */
const LARGE_COUNT = 100_000;
const RSS_GROWTH_BOUND = 64 * MiB;

let app: RunningApp;

beforeAll(async () => {
  // A heap limit makes the app collect its garbage before it takes memory (uncapped, V8 lets a busy heap grow by a
  // hundred MiB or more before a full collection), so its resident memory measures what it holds. It also bounds what
  // a JS-side buffering of the export could hold; the RSS bound covers buffers outside the heap.
  app = await startApp({ RATE_LIMIT_API_PER_MINUTE: "0", NODE_OPTIONS: "--max-old-space-size=160" });
});

afterAll(async () => {
  await app?.stop();
});

interface Tenant {
  workspaceId: string;
  key: string;
  endpointA: string;
  endpointB: string;
}

let tenants = 0;

async function newTenant(): Promise<Tenant> {
  const workspace = await createWorkspace({ name: `Export ${++tenants}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const endpoint = async (name: string) =>
    (
      await db().webhookEndpoint.create({
        data: { id: `we_export${tenants}${name}${randomUUID().slice(0, 8)}`, workspaceId: workspace.id, name },
      })
    ).id;
  return { workspaceId: workspace.id, key, endpointA: await endpoint("A"), endpointB: await endpoint("B") };
}

/**
 * Inserts `count` deliveries, three to a millisecond (row n at BASE + floor(n / 3) ms, so chunk edges fall on ties the
 * id must break), on endpoint B when n is odd; every fifth acknowledged. Every hundredth body is binary (all 256 byte
 * values), the rest JSON of ~`padBytes`.
 */
async function seed(tenant: Tenant, count: number, padBytes = 32) {
  await db().$executeRaw`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at,
       acknowledged_at)
    SELECT gen_random_uuid(), ${tenant.workspaceId}, CASE WHEN n % 2 = 1 THEN ${tenant.endpointB} ELSE ${tenant.endpointA} END,
           body, CASE WHEN n % 100 = 99 THEN 'application/octet-stream' ELSE 'application/json' END,
           '{"x-test":"1"}'::jsonb, '203.0.113.7', octet_length(body),
           ${new Date(BASE)}::timestamptz + (n / 3) * interval '1 millisecond',
           CASE WHEN n % 5 = 4 THEN ${new Date(BASE + 86_400_000)}::timestamptz END
    FROM generate_series(0, ${count - 1}::int) AS n,
         (SELECT decode(string_agg(lpad(to_hex(b), 2, '0'), '' ORDER BY b), 'hex') AS bytes
          FROM generate_series(0, 255) AS b) AS every_byte,
         LATERAL (SELECT CASE WHEN n % 100 = 99 THEN every_byte.bytes
           ELSE convert_to('{"n":' || n || ',"pad":"' || repeat(md5(n::text), ${Math.ceil(padBytes / 32)}::int) || '"}', 'UTF8')
           END AS body) AS payload`;
}

interface Line {
  id: string;
  createdAt: string;
  webhookEndpointId: string;
  acknowledgedAt: string | null;
  contentType: string | null;
  preview: string;
  rawBody?: string;
  rawPayload?: unknown;
  type?: string;
  count?: number;
}

/** Reads an export line by line, calling `onLine` for each (the lines are not kept). */
async function readExport(query: string, key: string, onLine: (line: Line) => void) {
  const response = await fetch(`${app.baseUrl}${EXPORT}?${query}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status, response.status === 200 ? "" : await response.text()).toBe(200);
  const decoder = new TextDecoder();
  let pending = "";
  let last = "";
  for await (const chunk of response.body!) {
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      onLine(JSON.parse(line) as Line);
      last = line;
    }
  }
  expect(pending).toBe("");
  return { headers: response.headers, last: JSON.parse(last) as Line };
}

/** An export's lines, all of them (for small exports). */
async function exportLines(query: string, key: string) {
  const lines: Line[] = [];
  const { last } = await readExport(query, key, (line) => lines.push(line));
  expect(lines.pop()).toEqual(last);
  expect(last).toEqual({ type: "end", count: lines.length });
  return lines;
}

async function rowsOf(workspaceId: string) {
  return db().$queryRaw<
    { id: string; webhook_endpoint_id: string; created_at: Date; acknowledged_at: Date | null; body: string }[]
  >`SELECT id::text, webhook_endpoint_id, created_at, acknowledged_at, encode(raw_body, 'base64') AS body
    FROM webhook_deliveries WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`;
}

const byKeyset = (a: Line, b: Line) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

describe("exporting deliveries as NDJSON", () => {
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    tenant = await newTenant();
    other = await newTenant();
    await seed(tenant, 300);
    await seed(other, 30);
  });

  it("writes every delivery oldest first with its exact bytes (body=base64), then the end line", async () => {
    const rows = await rowsOf(tenant.workspaceId);
    const { headers } = await readExport("body=base64", tenant.key, () => undefined);
    expect(headers.get("content-type")).toBe("application/x-ndjson");
    expect(headers.get("content-disposition")).toMatch(/^attachment; filename="deliveries-[\w-]+\.ndjson"$/);
    const lines = await exportLines("body=base64", tenant.key);
    expect(lines.map((line) => line.id)).toEqual(rows.map((row) => row.id));
    expect(lines.map((line) => line.rawBody)).toEqual(rows.map((row) => row.body.replace(/\n/g, "")));
    expect(lines[0]).not.toHaveProperty("rawPayload");
    expect(lines[0]).not.toHaveProperty("formFields");
    // The same bytes /raw serves, binary bodies included.
    const binary = lines.find((line) => line.contentType === "application/octet-stream")!;
    const raw = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${binary.id}/raw`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    expect(Buffer.from(await raw.arrayBuffer()).toString("base64")).toBe(binary.rawBody);
    expect(Buffer.from(binary.rawBody!, "base64")).toEqual(Buffer.from(Array.from({ length: 256 }, (_, b) => b)));
  });

  it("writes each delivery as the API shows it (body=parsed, the default)", async () => {
    const lines = await exportLines("", tenant.key);
    expect(lines).toHaveLength(300);
    // Both forms show the same preview (made from the same slice of the body).
    const raw = await exportLines("body=base64", tenant.key);
    expect(raw.map((line) => line.preview)).toEqual(lines.map((line) => line.preview));
    for (const index of [0, 1, 99, 150, 299]) {
      const shown = dataOf(
        await requestApi(app.baseUrl, tenant.key, "GET", `/v1/webhook-endpoints/deliveries/${lines[index]!.id}`),
      );
      expect(lines[index]).toEqual(shown);
    }
  });

  it.each<[string, (t: Tenant) => string, (row: Line, n: number, t: Tenant) => boolean]>([
    ["endpointId", (t) => `endpointId=${t.endpointB}`, (row, _n, t) => row.webhookEndpointId === t.endpointB],
    ["unacknowledged=true", () => "unacknowledged=true", (row) => row.acknowledgedAt === null],
    ["unacknowledged=false", () => "unacknowledged=false", (row) => row.acknowledgedAt !== null],
    [
      "since and until",
      () => `since=${at(20)}&until=${encodeURIComponent("2026-04-01T01:00:00.050+01:00")}`,
      (_row, n) => n >= 60 && n < 150,
    ],
    [
      "every filter",
      (t) => `endpointId=${t.endpointA}&unacknowledged=true&since=${at(10)}&until=${at(90)}`,
      (row, n, t) => row.webhookEndpointId === t.endpointA && row.acknowledgedAt === null && n >= 30 && n < 270,
    ],
  ])("exports exactly what %s selects", async (_case, query, selects) => {
    const all = await exportLines("body=base64", tenant.key);
    const lines = await exportLines(`${query(tenant)}&body=base64`, tenant.key);
    const expected = all.filter((line, n) => selects(line, n, tenant));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect(lines.map((line) => line.id)).toEqual(expected.map((line) => line.id));
  });

  it("never shows another workspace's deliveries", async () => {
    const lines = await exportLines(`endpointId=${other.endpointA}`, tenant.key);
    expect(lines).toEqual([]);
    expect((await exportLines("", other.key)).length).toBe(30);
  });

  it("leaves out deliveries received after the export began", async () => {
    const late = await newTenant();
    await seed(late, 3);
    await db().$executeRaw`UPDATE webhook_deliveries SET created_at = now() + interval '1 hour'
      WHERE workspace_id = ${late.workspaceId} AND created_at = ${new Date(BASE)}::timestamptz`;
    expect(await exportLines("", late.key)).toEqual([]);
  });

  it.each<[string, string, string[]]>([
    ["an unknown body form", "body=xml", ["body"]],
    ["a bad unacknowledged", "unacknowledged=yes", ["unacknowledged"]],
    ["since after until", `since=${at(2)}&until=${at(1)}`, ["since"]],
    ["a since without a zone", "since=2026-04-01T00:00:00", ["since"]],
  ])("refuses %s with 400", async (_case, query, paths) => {
    const answer = await requestApi(app.baseUrl, tenant.key, "GET", `${EXPORT}?${query}`);
    expectError(answer, 400, "validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
  });

  it("walks chunk edges that fall on ties exactly once, whatever the chunk size", async () => {
    const expected = (await rowsOf(tenant.workspaceId)).map((row) => row.id);
    for (const [chunkRows, chunkBytes] of [
      [1, undefined],
      [7, undefined],
      [100, 200], // bytes cut first: each chunk holds a few rows, a larger one a chunk of its own
    ] as const) {
      const ids: string[] = [];
      for await (const line of exportDeliveries({
        workspaceId: tenant.workspaceId,
        filter: {},
        body: "base64",
        chunkRows,
        chunkBytes,
      }))
        ids.push(line.id);
      expect(ids, `${chunkRows} rows, ${chunkBytes ?? "default"} bytes`).toEqual(expected);
    }
  });
});

describe(`exporting ${LARGE_COUNT.toLocaleString("en")} deliveries`, () => {
  it("streams them all in order, exactly, while the app's memory stays bounded", async () => {
    const tenant = await newTenant();
    await seed(tenant, LARGE_COUNT, 960);
    const samples = new Map<number, string>();
    const pid = app.process.pid!;
    // Warm up the route, so the baseline is the steady state rather than the first request.
    await exportLines("until=2026-04-01T00:00:00.001Z&body=base64", tenant.key);
    const baseline = Math.max(treeRss(pid), peakRss(pid));

    const sampler = sampleTreeRss(pid);
    let count = 0;
    let bytes = 0;
    let previous: Line | null = null;
    const { last } = await readExport("body=base64", tenant.key, (line) => {
      if (line.type === "end") return;
      if (previous) expect(byKeyset(previous, line)).toBe(-1);
      if (count % 9_973 === 0) samples.set(count, `${line.id} ${line.rawBody}`);
      bytes += JSON.stringify(line).length + 1;
      previous = line;
      count += 1;
    });
    const growth = Math.max(sampler.stop(), peakRss(pid)) - baseline;
    console.info(
      `[export] ${count} deliveries, ${Math.round(bytes / MiB)} MiB of NDJSON; app RSS growth ${Math.round(growth / MiB)} MiB`,
    );

    expect(last).toEqual({ type: "end", count: LARGE_COUNT });
    expect(count).toBe(LARGE_COUNT);
    // The export is larger than the bound: holding it would fail this test.
    expect(bytes).toBeGreaterThan(2 * RSS_GROWTH_BOUND);
    expect(growth).toBeLessThan(RSS_GROWTH_BOUND);
    const rows = await rowsOf(tenant.workspaceId);
    for (const [index, sample] of samples)
      expect(sample).toBe(`${rows[index]!.id} ${rows[index]!.body.replace(/\n/g, "")}`);
  }, 300_000);
});
