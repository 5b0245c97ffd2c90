import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { serializeJson } from "@/lib/contracts/raw-json";
import { db } from "@/lib/db/client";
import { listDeliveries, type ListDeliveriesOptions } from "./deliveries";

// Pages cut by bytes (issue #18 item 5): a page stops before the delivery that would take its bodies over the budget,
// and following `nextCursor` still visits every delivery exactly once, in order, with ties on created_at.
const BUDGET = 100_000;
const COUNT = 90;

let workspaceId: string;
let endpointId: string;
/** sizeBytes by id, from the database. */
let sizes: Map<string, number>;

/** Sizes from 0 to ~60 kB in an irregular cycle, one delivery over the budget, every third row shares a timestamp. */
async function seed(): Promise<void> {
  await db().$executeRaw`
    INSERT INTO webhook_deliveries
      (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at, acknowledged_at)
    SELECT gen_random_uuid(), ${workspaceId}, ${endpointId}, convert_to(body::text, 'UTF8'), 'application/json',
           '{}'::jsonb, '203.0.113.7', octet_length(body::text),
           timestamp '2026-01-01' + (n / 3) * interval '1 second',
           CASE WHEN n % 4 = 0 THEN timestamp '2026-01-02' END
    FROM generate_series(1, ${COUNT}::int) AS n,
         LATERAL (SELECT jsonb_build_object('n', n, 'pad',
           repeat('x', CASE WHEN n = 40 THEN ${BUDGET * 2}::int WHEN n % 7 = 0 THEN 0 ELSE (n * 7919) % 60000 END)) AS body) AS b`;
}

async function idsInOrder(order: "asc" | "desc", unacknowledged?: boolean): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM webhook_deliveries
    WHERE workspace_id = ${workspaceId}
      AND (${unacknowledged ?? null}::boolean IS NULL OR (acknowledged_at IS NULL) = ${unacknowledged ?? null}::boolean)
    ORDER BY created_at, id`;
  const ids = rows.map((row) => row.id);
  return order === "asc" ? ids : ids.reverse();
}

type Walk = Omit<ListDeliveriesOptions, "workspaceId" | "cursor">;

async function walk(options: Walk) {
  const pages: Awaited<ReturnType<typeof listDeliveries>>["deliveries"][] = [];
  let cursor: string | undefined;
  do {
    const page = await listDeliveries({ workspaceId, ...options, cursor });
    pages.push(page.deliveries);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length <= COUNT);
  return pages;
}

const bytesOf = (page: { sizeBytes: number }[]) => page.reduce((sum, delivery) => sum + delivery.sizeBytes, 0);

beforeAll(async () => {
  workspaceId = (await createWorkspace({ name: "Page bytes" })).id;
  endpointId = "we_pagebytes";
  await db().$executeRaw`
    INSERT INTO webhook_endpoints (id, workspace_id, name, updated_at) VALUES (${endpointId}, ${workspaceId}, 'P', now())`;
  await seed();
  const rows = await db().$queryRaw<{ id: string; size_bytes: number }[]>`
    SELECT id::text AS id, size_bytes FROM webhook_deliveries WHERE workspace_id = ${workspaceId}`;
  sizes = new Map(rows.map((row) => [row.id, row.size_bytes]));
});

describe("delivery pages cut by bytes", () => {
  it.each([
    { order: "desc" as const, limit: 100 },
    { order: "asc" as const, limit: 100 },
    { order: "desc" as const, limit: 7 },
    { order: "asc" as const, limit: 7, unacknowledged: true },
    { order: "desc" as const, limit: 100, unacknowledged: false },
  ])("visits every delivery exactly once in order, in full pages of at most the budget: %o", async (options) => {
    const pages = await walk({ ...options, pageBytes: BUDGET });
    const expected = await idsInOrder(options.order, options.unacknowledged);
    expect(pages.flat().map((delivery) => delivery.id)).toEqual(expected);

    const flat = pages.flat();
    let position = 0;
    for (const page of pages) {
      position += page.length;
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThanOrEqual(options.limit);
      if (page.length > 1) expect(bytesOf(page)).toBeLessThanOrEqual(BUDGET);
      for (const delivery of page) expect(delivery.sizeBytes).toBe(sizes.get(delivery.id));
      // Not cut early: the page is full, or the next delivery would have taken it over the budget.
      const next = flat[position];
      if (next && page.length < options.limit) expect(bytesOf(page) + next.sizeBytes).toBeGreaterThan(BUDGET);
    }
    expect(pages.length).toBeGreaterThan(Math.ceil(expected.length / options.limit));
  });

  it("gives a delivery larger than the budget a page of its own", async () => {
    const pages = await walk({ order: "desc", limit: 100, pageBytes: BUDGET });
    const large = pages.find((page) => page.some((delivery) => delivery.sizeBytes > BUDGET));
    expect(large).toHaveLength(1);
  });

  it("leaves payloads out with withPayload=false, and then only the limit cuts pages", async () => {
    const pages = await walk({ order: "desc", limit: 40, pageBytes: BUDGET, withPayload: false });
    expect(pages.map((page) => page.length)).toEqual([40, 40, COUNT - 80]);
    for (const delivery of pages.flat()) expect(JSON.parse(JSON.stringify(delivery))).not.toHaveProperty("rawPayload");
    const [full] = await walk({ order: "desc", limit: 1, pageBytes: BUDGET });
    // The payload is the stored JSON text, served as written.
    expect(JSON.parse(serializeJson(full![0]!.rawPayload))).toMatchObject({ n: expect.any(Number) });
  });
});
