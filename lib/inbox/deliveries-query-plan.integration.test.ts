import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { deliveryPageQuery, type ListDeliveriesOptions } from "./deliveries";

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

let workspaceId: string;
let endpointId: string;
let middle: { createdAt: Date; id: string };

async function explain(
  options: Omit<ListDeliveriesOptions, "workspaceId" | "limit" | "order"> & { order?: "asc" | "desc" },
  after: typeof middle | null,
) {
  const query = deliveryPageQuery({ workspaceId, limit: LIMIT, order: "desc", ...options }, after);
  const [row] = await db().$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
    Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`,
  );
  return nodes(row!["QUERY PLAN"][0].Plan);
}

beforeAll(async () => {
  const workspace = await createWorkspace({ name: "Busy" });
  const other = await createWorkspace({ name: "Neighbour" });
  workspaceId = workspace.id;
  endpointId = "we_planA";
  await db().$executeRaw`
    INSERT INTO webhook_endpoints (id, workspace_id, name, updated_at) VALUES
      (${endpointId}, ${workspace.id}, 'A', now()), ('we_planB', ${workspace.id}, 'B', now()), ('we_planC', ${other.id}, 'C', now())`;
  // Two thirds of the rows in our workspace over two endpoints, a third in a neighbour's; 1 in 50 still pending.
  await db().$executeRaw`
    INSERT INTO webhook_deliveries (id, workspace_id, webhook_endpoint_id, raw_body, headers, source_ip, size_bytes, created_at, acknowledged_at)
    SELECT gen_random_uuid(),
           CASE WHEN n % 3 = 0 THEN ${other.id} ELSE ${workspace.id} END,
           CASE WHEN n % 3 = 0 THEN 'we_planC' WHEN n % 3 = 1 THEN ${endpointId} ELSE 'we_planB' END,
           '\\x7b7d'::bytea, '{}'::jsonb, '127.0.0.1', 2,
           timestamp '2026-01-01' + n * interval '1 second',
           CASE WHEN n % 50 = 0 THEN NULL ELSE timestamp '2026-01-01' + n * interval '1 second' END
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
  ])("%s: first page and a deep cursor read only the rows they return", async (_name, filters) => {
    for (const after of [null, middle]) {
      const plan = await explain(filters, after);
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
