/**
 * The single-row baseline: a bare node:http server that reads the body and does one durable single-row INSERT per
 * request into a table shaped like `webhook_deliveries` (same columns, indexes and foreign keys; `synchronous_commit`
 * on), then answers 200. No framework, no ORM, no parsing in JavaScript, no endpoint lookup, no signatures, no dedup:
 * the plainest way to "store this request durably".
 */
import { randomUUID } from "node:crypto";
import { serveBare } from "./bare-server";
import { endpointId, pool, table, workspaceId } from "./baseline-table";

const INSERT = `
  INSERT INTO ${table}
    (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature)
  VALUES ($1::uuid, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, NULL, NULL)`;

serveBare(
  async ({ body, headers, sourceIp }) => {
    const id = randomUUID();
    await pool.query(INSERT, [
      id,
      workspaceId,
      endpointId,
      body,
      headers["content-type"] ?? null,
      JSON.stringify(headers),
      sourceIp,
      "",
      body.byteLength,
    ]);
    return id;
  },
  () => pool.end(),
);
