import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "@/lib/auth/workspaces";
import { serializeJson } from "@/lib/contracts/raw-json";
import { MAX_DECODED_BYTES } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { listDeliveries, type ListDeliveriesOptions } from "./deliveries";

// Pages cut by decoded bytes (issue #20): bodies sent with a Content-Encoding are decoded against a per-page budget,
// so a page of a hundred of them never holds a hundred times 4 MiB; the page stops before the delivery that does not
// fit, and following `nextCursor` still visits every delivery exactly once, each decoded in full.

let workspaceId: string;
let endpointSeq = 0;

interface Stored {
  id: string;
  kind: string;
}

/** An endpoint and its rows as ingest stores them, one second apart in the order given. */
async function seed(rows: { kind: string; body: Uint8Array; headers: Record<string, string> }[]): Promise<{
  endpointId: string;
  stored: Stored[];
}> {
  const endpointId = `we_decoded${++endpointSeq}`;
  await db().$executeRaw`
    INSERT INTO webhook_endpoints (id, workspace_id, name, updated_at) VALUES (${endpointId}, ${workspaceId}, 'D', now())`;
  const stored: Stored[] = [];
  for (const [second, { kind, body, headers }] of rows.entries()) {
    const [row] = await db().$queryRaw<{ id: string }[]>`
      INSERT INTO webhook_deliveries
        (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, size_bytes, created_at)
      VALUES (gen_random_uuid(), ${workspaceId}, ${endpointId}, ${Buffer.from(body)}, 'application/json',
              ${JSON.stringify(headers)}::jsonb, '203.0.113.7', ${body.length},
              timestamp '2026-01-01' + ${second} * interval '1 second')
      RETURNING id::text AS id`;
    stored.push({ id: row!.id, kind });
  }
  return { endpointId, stored };
}

type Walk = Omit<ListDeliveriesOptions, "workspaceId" | "cursor" | "limit" | "order">;

async function walk(endpointId: string, options: Walk = {}) {
  const pages: Awaited<ReturnType<typeof listDeliveries>>["deliveries"][] = [];
  let cursor: string | undefined;
  do {
    const page = await listDeliveries({ workspaceId, endpointId, limit: 100, order: "asc", cursor, ...options });
    pages.push(page.deliveries);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && pages.length <= 100);
  return pages;
}

const gzipped = (text: string | Buffer) => ({ body: gzipSync(text), headers: { "content-encoding": "gzip" } });

beforeAll(async () => {
  workspaceId = (await createWorkspace({ name: "Page decoded bytes" })).id;
});

describe("delivery pages cut by decoded bytes", () => {
  it("stops before the body that does not fit, gives the first of a page the full limit, and misses nothing", async () => {
    const json = (n: number) => JSON.stringify({ n, pad: "y".repeat(2_990) }); // ~3,000 bytes each
    const rows = [];
    for (let n = 0; n < 12; n++) {
      if (n === 5) rows.push({ kind: "bomb", ...gzipped(Buffer.alloc(64 * 1_048_576)) });
      if (n === 8) rows.push({ kind: "plain", body: Buffer.from(json(n)), headers: {} });
      rows.push({ kind: "gzip", ...gzipped(json(n)) });
    }
    const { endpointId, stored } = await seed(rows);
    const budget = 10_000; // three of the ~3,000-byte bodies fit, a fourth does not

    const pages = (await walk(endpointId, { pageDecodedBytes: budget })).map((page) =>
      page.map((shown) => {
        const status = shown.contentDecoding?.status;
        // What decoding produced: the decoded body, or the whole limit for a failure.
        const spent =
          status === "decoded" ? Buffer.byteLength(serializeJson(shown.rawPayload)) : status ? MAX_DECODED_BYTES : 0;
        return { kind: stored.find((row) => row.id === shown.id)!.kind, spent, status };
      }),
    );

    expect(pages.flat().map((shown) => shown.kind)).toEqual(stored.map((row) => row.kind));
    for (const page of pages) {
      // Past the first delivery (which may use the full per-delivery limit), a page stays within its budget.
      expect(page.slice(1).reduce((sum, shown) => sum + shown.spent, 0)).toBeLessThanOrEqual(budget);
    }
    // A fourth body does not fit after three. The bomb, first of its page, spends the per-delivery limit and leaves no
    // room for the next compressed body; a body without a coding costs nothing.
    expect(pages.map((page) => page.map((shown) => shown.kind).join(" "))).toEqual([
      "gzip gzip gzip",
      "gzip gzip",
      "bomb",
      "gzip gzip gzip plain",
      "gzip gzip gzip",
      "gzip",
    ]);
    const statuses = pages.flat().map((shown) => shown.status);
    expect(statuses.filter((status) => status === "decoded")).toHaveLength(12);
    expect(statuses.filter((status) => status === "too_large")).toHaveLength(1);
    expect(statuses.filter((status) => status === undefined)).toHaveLength(1); // the plain body: contentDecoding null
  });

  it("holds two bodies of 3 MiB decoded a page under the default 8 MiB budget, each decoded whole", async () => {
    const big = (n: number) => JSON.stringify({ n, pad: "x".repeat(3 * 1_048_576) });
    const { endpointId } = await seed([0, 1, 2, 3, 4].map((n) => ({ kind: "big", ...gzipped(big(n)) })));

    const pages = await walk(endpointId);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    for (const shown of pages.flat()) expect(shown.contentDecoding).toEqual({ encoding: "gzip", status: "decoded" });
    expect(pages.flat().map((shown) => (JSON.parse(serializeJson(shown.rawPayload)) as { n: number }).n)).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it("decodes nothing without payloads, so only `limit` cuts those pages", async () => {
    const { endpointId } = await seed([0, 1, 2].map((n) => ({ kind: "big", ...gzipped("x".repeat(n + 5_000)) })));
    const pages = await walk(endpointId, { withPayload: false, pageDecodedBytes: 1 });
    expect(pages.map((page) => page.length)).toEqual([3]);
    for (const shown of pages.flat()) expect([shown.rawPayload, shown.contentDecoding]).toEqual([undefined, undefined]);
  });
});
