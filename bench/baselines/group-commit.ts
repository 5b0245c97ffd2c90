/**
 * The group-commit baseline: a bare node:http server that reads the body, queues the row while a write is in flight,
 * and writes each batch (at most 100 rows) with one multi-row INSERT from `unnest` of arrays, one transaction and one
 * commit, answering each request after the commit that carried its row. Its table has the app's columns, indexes,
 * foreign keys and NOTIFY trigger. Bodies and headers go over the wire as binary arrays (lib/db/binary-array.ts), so
 * neither side re-encodes them as text: the best plain node-postgres can do for "store these requests durably".
 */
import { randomUUID } from "node:crypto";
import { byteaArray, jsonbArray } from "@/lib/db/binary-array";
import { createBatchQueue } from "@/lib/inbox/batch-queue";
import { serveBare, type BareRequest } from "./bare-server";
import { endpointId, pool, table, workspaceId } from "./baseline-table";

// dedup_key and signature are left to their default, NULL, as the single-row baseline writes them.
const INSERT = `
  INSERT INTO ${table}
    (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes)
  SELECT id, $1, $2, raw_body, content_type, headers, source_ip, query, size_bytes
  FROM unnest($3::uuid[], $4::bytea[], $5::text[], $6::jsonb[], $7::text[], $8::text[], $9::int[])
    AS batch (id, raw_body, content_type, headers, source_ip, query, size_bytes)`;

interface Row extends BareRequest {
  id: string;
}

async function writeBatch(rows: Row[]): Promise<string[]> {
  await pool.query(INSERT, [
    workspaceId,
    endpointId,
    rows.map((row) => row.id),
    byteaArray(rows.map((row) => row.body)),
    rows.map((row) => row.headers["content-type"] ?? null),
    jsonbArray(rows.map((row) => Buffer.from(JSON.stringify(row.headers), "utf8"))),
    rows.map((row) => row.sourceIp),
    rows.map(() => ""),
    rows.map((row) => row.body.byteLength),
  ]);
  return rows.map((row) => row.id);
}

// The app's own queue (lib/inbox/batch-queue.ts), held to the plain rule: one write in flight, everything that
// arrived meanwhile (up to 100 rows, whatever their size) in the next.
const queue = createBatchQueue<Row, string>({
  flush: writeBatch,
  maxInFlight: 1,
  maxItems: 100,
  maxWeight: Number.POSITIVE_INFINITY,
  weight: () => 0,
});

serveBare(
  (request) => queue.submit({ ...request, id: randomUUID() }),
  () => pool.end(),
);
