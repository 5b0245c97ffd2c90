/**
 * The bare forwarder: the best simple at-least-once forwarder this stack allows, to hold the app's forwarding worker
 * against. It drains `bench_forward_queue` (bench/lib/database.ts fills it with the rows the app forwarded in the same
 * run: the same body bytes and headers) to RECEIVER_URL and exits, printing one JSON line (`{forwarded, seconds,
 * cpuSeconds}`, of the draining only: module loading before it is not counted).
 *
 * FORWARD_CONCURRENCY lanes, each a loop: claim a batch of BATCH pending rows (`FOR UPDATE SKIP LOCKED`, a lease of a
 * minute, so a row whose forwarder died is claimed again once it runs out), POST each with node:http on keep-alive
 * connections (one agent, a socket per lane), signed like the app (Standard Webhooks: `webhook-id` = the row id,
 * `webhook-timestamp`, `webhook-signature` = HMAC-SHA256 with node:crypto), then one statement that marks the 2xx rows
 * done and writes an attempt row for every row sent. No framework, no ORM, no per-destination settings, no retry
 * schedule (a failed row waits for its lease to run out). A lane stops when its claim finds nothing: the run is over.
 *
 * Environment: DATABASE_URL, RECEIVER_URL, FORWARD_CONCURRENCY (10), BATCH (10), FORWARD_SECRET (base64).
 */
import { createHmac } from "node:crypto";
import http from "node:http";
import process from "node:process";
import pg from "pg";

const concurrency = Number(process.env.FORWARD_CONCURRENCY ?? 10);
const batch = Number(process.env.BATCH ?? 10);
const target = new URL(process.env.RECEIVER_URL ?? "");
const key = Buffer.from(process.env.FORWARD_SECRET ?? "YmVuY2gtZm9yd2FyZGVyLXNlY3JldA==", "base64");

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: concurrency });
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

// What travels with the body: the sender's headers minus those of its connection to us (as the app drops them).
const NOT_FORWARDED = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);

const CLAIM = `
  UPDATE bench_forward_queue q SET locked_until = now() + interval '1 minute', attempt_count = q.attempt_count + 1
  WHERE q.id IN (SELECT id FROM bench_forward_queue
                 WHERE status = 'pending' AND (locked_until IS NULL OR locked_until < now())
                 ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING q.id::text, q.body, q.headers, q.attempt_count`;

const COMPLETE = `
  WITH done AS (
    UPDATE bench_forward_queue q SET status = 'done', done_at = now(), locked_until = NULL
    FROM unnest($1::uuid[], $2::int[]) AS r (id, status)
    WHERE q.id = r.id AND r.status BETWEEN 200 AND 299)
  INSERT INTO bench_forward_attempts (queue_id, attempt_number, started_at, duration_ms, response_status, error)
  SELECT * FROM unnest($1::uuid[], $3::int[], $4::timestamptz[], $5::int[], $2::int[], $6::text[])`;

interface QueueRow {
  id: string;
  body: Buffer;
  headers: Record<string, string>;
  attempt_count: number;
}

interface Sent {
  status: number | null;
  startedAt: Date;
  durationMs: number;
  error: string | null;
}

function sign(id: string, timestamp: number, body: Buffer): string {
  const hmac = createHmac("sha256", key);
  hmac.update(`${id}.${timestamp}.`);
  hmac.update(body);
  return `v1,${hmac.digest("base64")}`;
}

function send(row: QueueRow): Promise<Sent> {
  const startedAt = new Date();
  const started = performance.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(row.headers)) if (!NOT_FORWARDED.has(name)) headers[name] = value;
  headers["content-length"] = row.body.byteLength;
  headers["webhook-id"] = row.id;
  headers["webhook-timestamp"] = String(timestamp);
  headers["webhook-signature"] = sign(row.id, timestamp, row.body);
  return new Promise((resolve) => {
    const done = (status: number | null, error: string | null) =>
      resolve({ status, startedAt, durationMs: Math.round(performance.now() - started), error });
    const request = http.request(target, { method: "POST", headers, agent, timeout: 10_000 }, (response) => {
      response.resume();
      response.once("end", () => done(response.statusCode ?? 0, null));
      response.once("error", (error) => done(null, error.message));
    });
    request.once("timeout", () => request.destroy(new Error("timeout")));
    request.once("error", (error) => done(null, error.message));
    request.end(row.body);
  });
}

async function lane(): Promise<number> {
  let forwarded = 0;
  for (;;) {
    const { rows } = await pool.query<QueueRow>(CLAIM, [batch]);
    if (rows.length === 0) return forwarded;
    const sent: Sent[] = [];
    for (const row of rows) sent.push(await send(row));
    await pool.query(COMPLETE, [
      rows.map((row) => row.id),
      sent.map((result) => result.status),
      rows.map((row) => row.attempt_count),
      sent.map((result) => result.startedAt),
      sent.map((result) => result.durationMs),
      sent.map((result) => result.error),
    ]);
    forwarded += sent.filter((result) => result.status !== null && result.status >= 200 && result.status < 300).length;
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const forwarded = (await Promise.all(Array.from({ length: concurrency }, lane))).reduce((a, b) => a + b, 0);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  agent.destroy();
  await pool.end();
  process.stdout.write(`${JSON.stringify({ forwarded, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
