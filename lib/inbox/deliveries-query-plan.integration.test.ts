import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db, dbPool } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { deliveryPageStatement, type ListDeliveriesOptions } from "./deliveries";
import { deliveryEventTypesQuery } from "./delivery-event-types";

// A page must cost the same at 10 rows and at 10 million: every listing shape is an ordered index range scan that
// stops after `limit + 1` rows, never a sequential scan or a sort. Checked on the real planner with real row counts.
const ROWS = 200_000;
const LIMIT = 100;
// A content-filtered page's window, smaller than the real one: a small part of even the rarest listing here (2,667
// pending), as the real window is of a large workspace. Near the size of a listing, the planner may rightly sort it.
const SCAN_ROWS = 150;
// Rows are received one a second from 2026-01-01T00:00:01Z; this window holds 100,000 of them, offsets included.
const WINDOW = { since: "2026-01-01T14:53:20+01:00", until: "2026-01-02T17:40:00Z" };

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Each partition's index, named by the partitioned index it belongs to (webhook_deliveries is partitioned by day). */
let parentIndex = new Map<string, string>();

/** `b`'s counts added to `a`'s, node by node (two scans of one shape on two partitions), as one loop. */
function addScans(a: PlanNode, b: PlanNode): PlanNode {
  const total = (node: PlanNode, key: "Actual Rows" | "Rows Removed by Filter") =>
    (node[key] ?? 0) * node["Actual Loops"];
  return {
    ...a,
    "Actual Rows": total(a, "Actual Rows") + total(b, "Actual Rows"),
    "Rows Removed by Filter": total(a, "Rows Removed by Filter") + total(b, "Rows Removed by Filter"),
    "Actual Loops": 1,
    Plans: a.Plans?.map((child, index) => addScans(child, b.Plans![index]!)),
  };
}

/** A scan (with what it feeds on) that neither returned nor filtered out a row: one of an empty day's partition. */
function readsNothing(plan: PlanNode): boolean {
  return nodes(plan).every((node) => node["Actual Rows"] === 0 && !node["Rows Removed by Filter"]);
}

/**
 * The plan as if the table were one: index names are the partitioned indexes', and an Append or Merge Append of the
 * same scan over each day's partition is that one scan, its rows the sum. A page then reads what it read before.
 * Scans of partitions that read nothing are left out: the planner may pick any shape for an empty day, a sequential
 * scan of no pages included, and it costs nothing.
 */
function asOneTable(plan: PlanNode): PlanNode {
  const isAppend = plan["Node Type"] === "Append" || plan["Node Type"] === "Merge Append";
  const read = isAppend ? plan.Plans?.filter((child) => !readsNothing(child)) : plan.Plans;
  const children = (read?.length ? read : plan.Plans?.slice(0, 1))?.map(asOneTable);
  const node: PlanNode = {
    ...plan,
    "Index Name": plan["Index Name"] && (parentIndex.get(plan["Index Name"]) ?? plan["Index Name"]),
    Plans: children,
  };
  const shape = (scan: PlanNode): string =>
    `${scan["Node Type"]}:${scan["Index Name"] ?? ""}(${(scan.Plans ?? []).map(shape).join(",")})`;
  const partitionScans =
    isAppend &&
    children?.length &&
    children.every((child) => /Scan$/.test(child["Node Type"]) && shape(child) === shape(children[0]!));
  return partitionScans ? children!.reduce(addScans) : node;
}

let workspaceId: string;
let endpointId: string;
let middle: { createdAt: Date; id: string };

/**
 * How PostgreSQL plans the page: "custom", planned for the values bound (as an unnamed statement is); "generic", the
 * plan a named statement keeps once PostgreSQL finds it no costlier (see `deliveryPageStatement`), forced here.
 */
type Planning = "custom" | "generic";

type PageOptions = Omit<ListDeliveriesOptions, "workspaceId" | "limit" | "order"> & { order?: "asc" | "desc" };

async function explain(options: PageOptions, after: typeof middle | null, planning: Planning = "custom") {
  const { text, values = [] } = deliveryPageStatement({ workspaceId, limit: LIMIT, order: "desc", ...options }, after);
  const client = await dbPool().connect();
  try {
    let answer: { "QUERY PLAN": [{ Plan: PlanNode }] }[];
    if (planning === "custom") {
      answer = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values)).rows;
    } else {
      // EXECUTE takes its values as expressions: literals, which it binds to the prepared statement's parameters.
      const literals = values.map((value) =>
        client.escapeLiteral(value instanceof Date ? value.toISOString() : String(value)),
      );
      await client.query("SET plan_cache_mode = force_generic_plan");
      await client.query(`PREPARE generic_page AS ${text}`);
      try {
        const explained = `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE generic_page(${literals.join(", ")})`;
        answer = (await client.query(explained)).rows;
      } finally {
        await client.query("DEALLOCATE generic_page; RESET plan_cache_mode");
      }
    }
    return nodes(asOneTable(answer[0]!["QUERY PLAN"][0].Plan));
  } finally {
    client.release();
  }
}

/** The plannings a page's statement gets: a generic plan too when it is named. */
function plannings(options: PageOptions): Planning[] {
  const named = deliveryPageStatement({ workspaceId, limit: LIMIT, order: "desc", ...options }, null).name;
  return named ? ["custom", "generic"] : ["custom"];
}

beforeAll(async () => {
  const indexes = await db().$queryRaw<{ child: string; parent: string }[]>`
    SELECT c.relname AS child, p.relname AS parent
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    WHERE c.relkind = 'i'`;
  parentIndex = new Map(indexes.map((index) => [index.child, index.parent]));
  const workspace = await createWorkspace({ name: "Busy" });
  const other = await createWorkspace({ name: "Neighbour" });
  workspaceId = workspace.id;
  endpointId = "we_planA";
  await db().$executeRaw`
    INSERT INTO webhook_endpoints (id, workspace_id, name, updated_at) VALUES
      (${endpointId}, ${workspace.id}, 'A', now()), ('we_planB', ${workspace.id}, 'B', now()), ('we_planC', ${other.id}, 'C', now())`;
  // Two thirds of the rows in our workspace over two endpoints, a third in a neighbour's; 1 in 50 still pending. Event
  // types spread over every endpoint and state: none (1 in 7), `push` (2 in 7), `issues.opened`, `invoice.paid` (1 in 7
  // each), or one of 1,000 rare ones (2 in 7,000 each).
  await db().$executeRaw`
    INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, created_at, acknowledged_at, event_type)
    SELECT gen_random_uuid(),
           CASE WHEN n % 3 = 0 THEN ${other.id} ELSE ${workspace.id} END,
           CASE WHEN n % 3 = 0 THEN 'we_planC' WHEN n % 3 = 1 THEN ${endpointId} ELSE 'we_planB' END,
           '\\x7b7d'::bytea, '{}'::jsonb, '127.0.0.1', 2,
           timestamp '2026-01-01' + n * interval '1 second',
           CASE WHEN n % 50 = 0 THEN NULL ELSE timestamp '2026-01-01' + n * interval '1 second' END,
           CASE n % 7 WHEN 0 THEN NULL WHEN 1 THEN 'push' WHEN 2 THEN 'push' WHEN 3 THEN 'issues.opened'
                      WHEN 4 THEN 'invoice.paid' ELSE 'rare.' || (n / 7) % 1000 END
    FROM generate_series(1, ${ROWS}) AS n`;
  await db().$executeRaw`ANALYZE webhook_deliveries`;
  const [row] = await db().$queryRaw<{ created_at: Date; id: string }[]>`
    SELECT created_at, id::text FROM webhook_deliveries WHERE workspace_id = ${workspaceId} ORDER BY created_at, id OFFSET ${Math.floor(ROWS / 3)} LIMIT 1`;
  middle = { createdAt: row!.created_at, id: row!.id };
}, 120_000);

describe("delivery pages use an index range scan at any depth", () => {
  it.each([
    ["newest first", {}],
    ["oldest first", { order: "asc" as const }],
    ["one endpoint", { endpointId: "we_planA" }],
    ["pending only", { unacknowledged: true }],
    ["one endpoint, pending only", { endpointId: "we_planA", unacknowledged: true }],
    // A receipt-time window is a tighter range on the index's leading column after the workspace or endpoint; the
    // deep cursor (a third of the way in, n ≈ 100,000) falls inside it.
    ["since", { since: WINDOW.since }],
    ["since, oldest first", { since: WINDOW.since, order: "asc" as const }],
    ["until", { until: WINDOW.until }],
    ["a window", { ...WINDOW }],
    ["a window, oldest first", { ...WINDOW, order: "asc" as const }],
    ["a window, one endpoint", { ...WINDOW, endpointId: "we_planA" }],
    ["a window, pending only, oldest first", { ...WINDOW, unacknowledged: true, order: "asc" as const }],
    ["a window, one endpoint, pending only", { ...WINDOW, endpointId: "we_planA", unacknowledged: true }],
    // One event type: an equality after the workspace on the event type index, walked in (created_at, id) order.
    ["one event type", { eventType: "push" }],
    ["one event type, oldest first", { eventType: "push", order: "asc" as const }],
    ["one event type, a window", { ...WINDOW, eventType: "issues.opened" }],
    ["one event type, a window, oldest first", { ...WINDOW, eventType: "invoice.paid", order: "asc" as const }],
  ])("%s: first page and a deep cursor read only the rows they return", async (_name, filters) => {
    for (const [after, planning] of [null, middle].flatMap((at) => plannings(filters).map((p) => [at, p] as const))) {
      const plan = await explain(filters, after, planning);
      const types = plan.map((node) => node["Node Type"]);
      expect(types, JSON.stringify(types)).not.toContain("Seq Scan");
      expect(types).not.toContain("Sort");
      const scan = plan.find((node) => node["Node Type"].startsWith("Index"));
      expect(scan?.["Index Name"]).toMatch(/^webhook_deliveries_/);
      // Bounded by the page, not by the table: limit + 1 rows read, none thrown away by a filter.
      expect(scan!["Actual Rows"] * scan!["Actual Loops"]).toBeLessThanOrEqual(LIMIT + 1);
      expect(scan!["Rows Removed by Filter"] ?? 0).toBe(0);
    }
  });
});

describe("pages filtered by content stop at their window", () => {
  function indexScans(plan: PlanNode[]) {
    const types = plan.map((node) => node["Node Type"]);
    expect(types, JSON.stringify(types)).not.toContain("Seq Scan");
    // The only sort is of the page's own rows (the answer put in order after the window's edge is joined on).
    for (const sort of plan.filter((node) => node["Node Type"] === "Sort"))
      expect(sort["Actual Rows"] * sort["Actual Loops"]).toBeLessThanOrEqual(LIMIT + 1);
    const scans = plan.filter((node) => node["Node Type"].startsWith("Index"));
    for (const scan of scans) {
      expect(scan["Index Name"]).toMatch(/^webhook_deliveries_/);
      expect(scan["Rows Removed by Filter"] ?? 0).toBe(0);
    }
    return scans.map((scan) => scan["Actual Rows"] * scan["Actual Loops"]);
  }

  // Nothing matches: unbounded, the scan would read the whole workspace looking for `limit` matches.
  it.each([
    ["q", { q: "no such text" }],
    ["payload", { payload: '{"no":"such field"}' }],
    ["q and payload, oldest first", { q: "no such text", payload: '{"no":1}', order: "asc" as const }],
    ["q, one endpoint", { q: "no such text", endpointId: "we_planA" }],
    ["payload, pending only", { payload: '{"no":1}', unacknowledged: true }],
    ["payload, a window", { payload: '{"no":1}', ...WINDOW }],
  ])("%s: reads the window (and one row more for its edge), first page and deep", async (_name, filters) => {
    for (const after of [null, middle]) {
      const rows = indexScans(await explain({ ...filters, scanRows: SCAN_ROWS }, after));
      // The page's scan reads the window; the edge's reads one row more, to tell whether anything lies past it.
      expect(rows.sort((a, b) => a - b)).toEqual([SCAN_ROWS, SCAN_ROWS + 1]);
    }
  });

  // Every body is `{}` (sent as no content type, so only `q` matches it; the SQL takes a `q` the contract would refuse).
  it.each([
    ["q", { q: "{}" }],
    ["q, oldest first", { q: "{}", order: "asc" as const }],
  ])(
    "%s matching every row: a full page stops its scan at limit + 1, and the edge is never looked for",
    async (_name, filters) => {
      for (const after of [null, middle]) {
        const rows = indexScans(await explain({ ...filters, scanRows: SCAN_ROWS }, after));
        const [edge, page] = rows.sort((a, b) => a - b);
        expect(edge).toBe(0);
        // LIMIT + 1 rows, and at most one more the window function reads ahead.
        expect(page).toBeGreaterThanOrEqual(LIMIT + 1);
        expect(page).toBeLessThanOrEqual(LIMIT + 2);
      }
    },
  );
});

describe("an event type with another filter reads a bounded part of one index", () => {
  // One index serves a type (webhook_deliveries_workspace_event_type_idx); with an endpoint or pending only as well,
  // the planner walks that index or the endpoint's (or the pending) one and filters on the other condition. A page
  // then reads its rows divided by the share of the filtered condition among the walked one's, not the table: here an
  // endpoint is half of a type's rows, a type 2 or 1 in 7 of an endpoint's, pending 1 in 50 of anything.
  it.each([
    ["one endpoint, one event type", { endpointId: "we_planA", eventType: "push" }, 2],
    ["one endpoint, one event type, a window", { ...WINDOW, endpointId: "we_planA", eventType: "invoice.paid" }, 2],
    ["pending only, one event type", { unacknowledged: true, eventType: "issues.opened" }, 7],
  ])("%s: first page and a deep cursor read the page ÷ the pair's share", async (_name, filters, share) => {
    for (const after of [null, middle]) {
      const plan = await explain(filters, after);
      const types = plan.map((node) => node["Node Type"]);
      expect(types, JSON.stringify(types)).not.toContain("Seq Scan");
      expect(types).not.toContain("Sort");
      const scan = plan.find((node) => node["Node Type"].startsWith("Index"));
      expect(scan?.["Index Name"]).toMatch(/^webhook_deliveries_/);
      const read = scan!["Actual Rows"] + (scan!["Rows Removed by Filter"] ?? 0);
      expect(read * scan!["Actual Loops"]).toBeLessThanOrEqual((LIMIT + 1) * share * 1.2);
    }
  });

  it("one endpoint, pending only, one event type: reads at most the endpoint's pending rows", async () => {
    // Three conditions, two indexes: where few pending rows of the endpoint remain (past a deep cursor), the planner
    // reads them through the endpoint's pending index as a bitmap and sorts the matches. Bounded by that backlog,
    // which consumers acknowledge down, never by the table.
    const [{ pending }] = await db().$queryRaw<[{ pending: number }]>`
      SELECT count(*)::int AS pending FROM webhook_deliveries
      WHERE webhook_endpoint_id = ${endpointId} AND acknowledged_at IS NULL`;
    for (const after of [null, middle]) {
      const plan = await explain({ endpointId, unacknowledged: true, eventType: "push" }, after);
      expect(plan.map((node) => node["Node Type"])).not.toContain("Seq Scan");
      const heap = plan.find((node) => node["Node Type"] === "Index Scan" || node["Node Type"] === "Bitmap Heap Scan");
      const index = plan.find((node) => node["Index Name"]);
      expect(index?.["Index Name"]).toMatch(/^webhook_deliveries_/);
      const read = heap!["Actual Rows"] + (heap!["Rows Removed by Filter"] ?? 0);
      expect(read * heap!["Actual Loops"]).toBeLessThanOrEqual(pending);
    }
  });

  it("a rare type is found through its own index range, however few rows it has", async () => {
    const plan = await explain({ eventType: "rare.7" }, null);
    const scan = plan.find((node) => node["Node Type"].startsWith("Index"));
    expect(scan?.["Index Name"]).toBe("webhook_deliveries_workspace_event_type_idx");
    expect(scan!["Rows Removed by Filter"] ?? 0).toBe(0);
  });
});

describe("the event types received are listed by a skip scan", () => {
  it.each([
    ["the workspace", {}],
    ["one endpoint", { endpointId: "we_planA" }],
  ])("%s: one index descent per type, no pass over the deliveries", async (_name, filter) => {
    const [row] = await db().$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
      Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${deliveryEventTypesQuery({ workspaceId, ...filter })}`,
    );
    const plan = nodes(asOneTable(row!["QUERY PLAN"][0].Plan));
    const types = plan.map((node) => node["Node Type"]);
    expect(types, JSON.stringify(types)).not.toContain("Seq Scan");
    expect(types).not.toContain("Sort");
    const scans = plan.filter((node) => node["Node Type"].startsWith("Index"));
    expect(scans.map((node) => node["Index Name"])).toEqual(
      scans.map(() => "webhook_deliveries_workspace_event_type_idx"),
    );
    // 200 listed + 1 (there are 1,003 types): each step takes one row, bar the rows of other endpoints passed over.
    const read = scans.reduce(
      (sum, node) => sum + (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"],
      0,
    );
    expect(read).toBeLessThanOrEqual("endpointId" in filter ? 201 * 10 : 201);
  });
});

describe("a page's named statement keeps a generic plan", () => {
  // PostgreSQL plans a named statement for its values five times, then keeps the generic plan when it costs no more:
  // runs six to eight must be generic, or every page pays for planning over every day's partition.
  it.each([
    ["the workspace", {}],
    ["pending only, oldest first", { unacknowledged: true, order: "asc" as const }],
    ["acknowledged only", { unacknowledged: false }],
    ["without payloads", { withPayload: false }],
  ])("%s: first page and a deep cursor", async (_name, filters) => {
    const client = await dbPool().connect();
    try {
      for (const after of [null, middle]) {
        const statement = deliveryPageStatement({ workspaceId, limit: 20, order: "desc", ...filters }, after);
        expect(statement.name).toBeDefined();
        for (let run = 0; run < 8; run += 1) await client.query(statement);
        const { rows } = await client.query<{ generic_plans: string }>(
          "SELECT generic_plans FROM pg_prepared_statements WHERE name = $1",
          [statement.name],
        );
        expect(Number(rows[0]?.generic_plans)).toBeGreaterThanOrEqual(3);
      }
    } finally {
      client.release();
    }
  });

  // Planned generically, these pick another index or sort on this very data.
  it.each([
    ["one endpoint", { endpointId: "we_planA" }],
    ["a window", { since: WINDOW.since }],
    ["an event type", { eventType: "push" }],
    ["content", { q: "x" }],
  ])("%s: planned for its values, so not named", (_name, filters) => {
    expect(deliveryPageStatement({ workspaceId, limit: 20, order: "desc", ...filters }, null).name).toBeUndefined();
  });
});
