import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { dbPool } from "@/lib/db/client";
import { piecewiseQuery } from "@/lib/db/piecewise-query";
import { deliveryInsert, type DeliveryRowInput } from "./delivery-writes";
import { ingestEndpoint } from "./ingest-endpoints";
import { createWebhookEndpoint } from "./webhook-endpoints";

// The batch INSERT must stream its rows from the arrays it is sent, in the order sent: a plan that materialises them
// (a function scan's tuplestore, a hash, a sort) copies every body once more, and past work_mem writes it to disk,
// which made a 1 MiB body cost PostgreSQL a sixth more CPU than a single-row INSERT. Checked on the real planner.

interface PlanNode {
  "Node Type": string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

let rowOf: (body: string, dedupKey?: string | null) => DeliveryRowInput;

beforeAll(async () => {
  const workspace = await createWorkspace({ name: "Batch writes" });
  const created = await createWebhookEndpoint({
    workspaceId: workspace.id,
    name: "Orders",
    baseUrl: "http://localhost",
  });
  const endpoint = (await ingestEndpoint(created.id, { fresh: true }))!;
  rowOf = (body, dedupKey = null) => ({
    id: randomUUID(),
    workspaceId: workspace.id,
    endpointId: endpoint.id,
    endpointState: endpoint.state,
    body: Buffer.from(body),
    contentType: "application/json",
    headers: Buffer.from('{"content-type":"application/json"}'),
    sourceIp: "127.0.0.1",
    query: "",
    dedupKey,
    signature: null,
    eventType: null,
    forwarding: endpoint.forwarding,
  });
});

async function insert(rows: DeliveryRowInput[], explain = "") {
  const { text, parameters } = deliveryInsert(rows);
  return piecewiseQuery<Record<string, unknown>>(dbPool(), `${explain}${text}`, parameters);
}

describe("the batch INSERT of deliveries", () => {
  it("streams the rows without copying them into a tuplestore, hash or sort", async () => {
    const rows = Array.from({ length: 50 }, (_, index) => rowOf(`{"n":${index}}`, index % 2 ? `m-${index}` : null));
    const { rows: explained } = await insert(rows, "EXPLAIN (ANALYZE, FORMAT JSON) ");
    const plan = (explained[0]!["QUERY PLAN"] as [{ Plan: PlanNode }])[0].Plan;
    const types = nodes(plan).map((node) => node["Node Type"]);
    expect(types).toContain("ProjectSet");
    for (const materialising of ["Function Scan", "Hash", "Sort", "Materialize", "Hash Join", "Merge Join"])
      expect(types).not.toContain(materialising);
  });

  it.each([
    ["a batch", [7, 30, 2, 100, 13, 50, 3, 20]],
    ["a single row", [1, 1, 1, 1, 1, 1, 1, 1]],
  ])("is prepared once per connection for %s and runs on one generic plan, which streams", async (_shape, sizes) => {
    const oneConnection = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    try {
      for (const size of sizes) {
        const rows = Array.from({ length: size }, (_, index) => rowOf(`{"n":${index}}`));
        const { name, text, parameters } = deliveryInsert(rows);
        const { rowCount } = await piecewiseQuery(oneConnection, text, parameters, name);
        expect(rowCount).toBe(size);
      }
      const { name, text } = deliveryInsert(Array.from({ length: sizes[0]! }, () => rowOf("{}")));
      const { rows: prepared } = await oneConnection.query<{ statement: string; generic_plans: string }>(
        "SELECT statement, generic_plans FROM pg_prepared_statements WHERE name = $1",
        [name],
      );
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.statement).toBe(text);
      expect(Number(prepared[0]!.generic_plans)).toBeGreaterThanOrEqual(3);

      const { rows: explained } = await oneConnection.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
        `EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${text}`,
      );
      const types = nodes(explained[0]!["QUERY PLAN"][0].Plan).map((node) => node["Node Type"]);
      for (const materialising of ["Function Scan", "Hash", "Sort", "Materialize", "Hash Join", "Merge Join"])
        expect(types).not.toContain(materialising);
    } finally {
      await oneConnection.end();
    }
  });

  it("writes a single row with plain parameters, each value exactly as given", async () => {
    const row = {
      ...rowOf('{"type":"invoice.paid","note":"zoë ✓"}', "msg-single"),
      contentType: "application/json; charset=utf-8",
      headers: Buffer.from('{"content-type":"application/json; charset=utf-8","x-note":"zoë"}'),
      sourceIp: "203.0.113.9",
      query: "a=1&b=%C3%A9",
      signature: Buffer.from('{"scheme":"stripe","valid":true}'),
      eventType: "invoice.paid",
    };
    const { text } = deliveryInsert([row]);
    expect(text).not.toContain("unnest");
    expect((await insert([row])).rowCount).toBe(1);
    const { rows: stored } = await dbPool().query(
      `SELECT raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature, event_type
       FROM webhook_deliveries WHERE id = $1::uuid`,
      [row.id],
    );
    expect(stored).toEqual([
      {
        raw_body: row.body,
        content_type: row.contentType,
        headers: { "content-type": "application/json; charset=utf-8", "x-note": "zoë" },
        source_ip: "203.0.113.9",
        query: "a=1&b=%C3%A9",
        size_bytes: row.body.byteLength,
        dedup_key: "msg-single",
        signature: { scheme: "stripe", valid: true },
        event_type: "invoice.paid",
      },
    ]);
    const { rows: claims } = await dbPool().query<{ delivery_id: string }>(
      "SELECT delivery_id::text FROM delivery_dedup_claims WHERE dedup_key = 'msg-single'",
    );
    expect(claims).toEqual([{ delivery_id: row.id }]);
  });

  it("writes the rows in the order given, each with its own values", async () => {
    const rows = Array.from({ length: 20 }, (_, index) => rowOf(`{"n":${index}}`));
    const { rowCount } = await insert(rows);
    expect(rowCount).toBe(20);
    const { rows: stored } = await dbPool().query<{ id: string; body: string }>(
      `SELECT id::text, convert_from(raw_body, 'UTF8') AS body FROM webhook_deliveries
       WHERE id = ANY($1::uuid[]) ORDER BY ctid`,
      [rows.map((row) => row.id)],
    );
    expect(stored).toEqual(rows.map((row) => ({ id: row.id, body: row.body.toString() })));
  });

  it("skips a row whose endpoint settings changed since it was checked, and writes the others", async () => {
    const stale = { ...rowOf('{"stale":true}'), endpointState: "0".repeat(32) };
    const { rowCount } = await insert([rowOf('{"a":1}'), stale, rowOf('{"b":2}')]);
    expect(rowCount).toBe(2);
    const { rows: found } = await dbPool().query("SELECT 1 FROM webhook_deliveries WHERE id = $1::uuid", [stale.id]);
    expect(found).toHaveLength(0);
  });

  it("skips such a row with a sender's message id too, leaving the id unclaimed", async () => {
    const stale = { ...rowOf('{"stale":true}', "msg-stale"), endpointState: "0".repeat(32) };
    const { rowCount } = await insert([rowOf('{"a":1}', "msg-a"), stale]);
    expect(rowCount).toBe(1);
    const { rows: claims } = await dbPool().query<{ dedup_key: string }>(
      "SELECT dedup_key FROM delivery_dedup_claims WHERE dedup_key IN ('msg-a', 'msg-stale')",
    );
    expect(claims).toEqual([{ dedup_key: "msg-a" }]);
    const retried = await insert([{ ...stale, id: randomUUID(), endpointState: rowOf("{}").endpointState }]);
    expect(retried.rowCount).toBe(1);
  });
});
