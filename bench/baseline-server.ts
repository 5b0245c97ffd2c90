/**
 * The baseline the ingest path is measured against: a bare node:http server that reads the body (streamed, at most
 * 1 MiB, like the inbox) and does one durable single-row INSERT into a table shaped like `webhook_deliveries` (same
 * columns, indexes and foreign keys; `synchronous_commit` on), then answers 200. No framework, no ORM, no parsing in
 * JavaScript, no endpoint lookup, no signatures, no dedup: the floor for "store this request durably".
 *
 * Environment: DATABASE_URL, BASELINE_TABLE, BASELINE_WORKSPACE_ID, BASELINE_ENDPOINT_ID, DATABASE_POOL_SIZE, PORT, HOST.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import process from "node:process";
import pg from "pg";

const LIMIT = 1_048_576;
const table = process.env.BASELINE_TABLE ?? "bench_baseline";
if (!/^[a-z_]+$/.test(table)) throw new Error("BASELINE_TABLE must be a plain identifier");
const workspaceId = process.env.BASELINE_WORKSPACE_ID ?? "";
const endpointId = process.env.BASELINE_ENDPOINT_ID ?? "";
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const INSERT = `
  INSERT INTO ${table}
    (id, workspace_id, webhook_endpoint_id, raw_payload, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key, signature)
  VALUES ($1::uuid, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8, $9, $10, NULL, NULL)`;

function readBody(request: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMIT) return resolve(null);
      chunks.push(chunk);
    });
    request.once("end", () => resolve(Buffer.concat(chunks, size)));
    request.once("error", reject);
  });
}

const server = createServer((request, response) => {
  void (async () => {
    try {
      const body = await readBody(request);
      if (!body) {
        response.writeHead(413).end();
        return;
      }
      const headers: Record<string, string> = {};
      for (let index = 0; index + 1 < request.rawHeaders.length; index += 2)
        headers[request.rawHeaders[index]!.toLowerCase()] = request.rawHeaders[index + 1]!;
      const id = randomUUID();
      await pool.query(INSERT, [
        id,
        workspaceId,
        endpointId,
        body.toString("utf8"),
        body,
        headers["content-type"] ?? null,
        JSON.stringify(headers),
        request.socket.remoteAddress ?? "",
        "",
        body.byteLength,
      ]);
      const answer = JSON.stringify({ received: true, deliveryId: id });
      response
        .writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) })
        .end(answer);
    } catch (error) {
      console.error(error);
      response.writeHead(500).end();
    }
  })();
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.info(`Ready on http://127.0.0.1:${port}`);
});

process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
});
