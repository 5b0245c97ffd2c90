/**
 * Where a forward's time goes (`npm run bench:forward-costs -- [--forwards=5000]`), in layers, on a fresh embedded
 * PostgreSQL, each layer's wall time and CPU (this process's, PostgreSQL's from /proc) per forward:
 *
 * 1. ingest's batch INSERT (100 rows a statement, lib/inbox/delivery-writes.ts, one backend) for an endpoint without
 *    a destination, with one, and with one but the job-queueing trigger disabled: what the forward row and what its
 *    job cost ingest;
 * 2. graphile-worker alone (no-op jobs, the worker's settings), then the app's forwarding worker
 *    (lib/forwarding/forward-worker.ts) with a sender that answers 200 at once, no HTTP: one destination at
 *    concurrency 10 and 50, and the same forwards spread over 50 destinations;
 * 3. HTTP alone, 1 KB POSTs to a receiver process (bench/receiver.ts): the app's sender (lib/outbound/webhook-sender.ts)
 *    against node:http on keep-alive connections.
 *
 * A measure of work per forward, run on a shared machine: read it as shares and ratios.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { run } from "graphile-worker";
import pg from "pg";
import { disconnectDb } from "@/lib/db/client";
import { quietJobQueueLogger } from "@/lib/db/job-queue-logger";
import { piecewiseQuery } from "@/lib/db/piecewise-query";
import { startForwardWorker } from "@/lib/forwarding/forward-worker";
import { buildOutgoingRequest } from "@/lib/forwarding/outgoing-request";
import { deliveryInsert, type DeliveryRowInput } from "@/lib/inbox/delivery-writes";
import { ENDPOINT_STATE } from "@/lib/inbox/ingest-endpoints";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { createWebhookSender, type WebhookSender } from "@/lib/outbound/webhook-sender";
import { jsonBodyOfSize } from "./load";
import { cpuSeconds, postgresCpu, postgresCpuSpent } from "./lib/cpu-usage";
import { startBenchDatabase } from "./lib/database";
import { createBenchAccount, createBenchDestination, type BenchAccount } from "./lib/fixtures";
import { startServerProcess } from "./lib/processes";

const args = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => arg.slice(2).split("=") as [string, string]),
);
const forwards = Number(args.get("forwards") ?? 5000);
const BATCH = 100;
const body = Buffer.from(jsonBodyOfSize(1024));
const headers = Buffer.from(
  JSON.stringify({ "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" }),
);

/** Wall seconds, this process's CPU seconds and PostgreSQL's over `work`. */
async function measured(pool: pg.Pool, work: () => Promise<void>) {
  const postgresBefore = await postgresCpu(pool);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    seconds,
    node: (cpu.user + cpu.system) / 1e6,
    postgres: postgresCpuSpent(postgresBefore, await postgresCpu(pool)),
  };
}

function line(name: string, count: number, result: Awaited<ReturnType<typeof measured>>, extra = ""): void {
  const per = (seconds: number) => `${((seconds / count) * 1000).toFixed(3)} ms`;
  console.info(
    `  ${name.padEnd(58)} ${(count / result.seconds).toFixed(0).padStart(6)}/s; per item: wall ${per(result.seconds)}` +
      `, CPU here ${per(result.node)}, PostgreSQL ${per(result.postgres)}${extra}`,
  );
}

async function endpointState(pool: pg.Pool, endpointId: string): Promise<string> {
  const { rows } = await pool.query<{ state: string }>(
    `SELECT ${ENDPOINT_STATE} AS state FROM webhook_endpoints e WHERE e.id = $1`,
    [endpointId],
  );
  return rows[0]!.state;
}

/** `count` deliveries for an endpoint through ingest's own statement, 100 a statement, on one connection of `pool`. */
async function ingestRows(
  pool: pg.Pool,
  account: BenchAccount,
  endpointId: string,
  count: number,
  forwarding: boolean,
) {
  const state = await endpointState(pool, endpointId);
  for (let done = 0; done < count; done += BATCH) {
    const rows: DeliveryRowInput[] = Array.from({ length: Math.min(BATCH, count - done) }, () => ({
      id: randomUUID(),
      workspaceId: account.workspaceId,
      endpointId,
      endpointState: state,
      body,
      contentType: "application/json",
      headers,
      sourceIp: "127.0.0.1",
      query: "",
      dedupKey: null,
      signature: null,
      eventType: "invoice.paid",
      forwarding,
    }));
    const insert = deliveryInsert(rows);
    await piecewiseQuery(pool, insert.text, insert.parameters);
  }
}

async function newEndpoint(account: BenchAccount, name: string, destinations: number, url: string) {
  const endpoint = await createWebhookEndpoint({ workspaceId: account.workspaceId, name, baseUrl: "http://127.0.0.1" });
  const ids: string[] = [];
  for (let index = 0; index < destinations; index += 1)
    ids.push(await createBenchDestination(account.workspaceId, endpoint.id, url));
  return { endpointId: endpoint.id, destinationIds: ids };
}

async function waitUntil(pool: pg.Pool, sql: string, parameters: unknown[]): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ left: number }>(sql, parameters);
    if (rows[0]!.left === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PENDING = `SELECT count(*)::int AS "left" FROM delivery_forwards WHERE destination_id = ANY($1) AND status = 'pending'`;

const instantSender: WebhookSender = {
  sendWebhook: async () => ({
    kind: "response",
    status: 200,
    headers: {},
    bodyPrefix: Buffer.alloc(0),
    bodyTruncated: false,
    durationMs: 0,
  }),
};

async function ingestCosts(pool: pg.Pool, account: BenchAccount, url: string): Promise<void> {
  console.info(`1. Ingest's INSERT, ${forwards} deliveries of 1 KB, ${BATCH} a statement, one connection:`);
  const single = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  const pid = (await single.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  const variants = [
    { name: "endpoint without a destination", destinations: 0, trigger: true },
    { name: "endpoint with a destination (forward row + job)", destinations: 1, trigger: true },
    { name: "with a destination, job trigger disabled (forward row only)", destinations: 1, trigger: false },
  ];
  for (const variant of variants) {
    const { endpointId } = await newEndpoint(account, variant.name, variant.destinations, url);
    if (!variant.trigger) await pool.query("ALTER TABLE delivery_forwards DISABLE TRIGGER delivery_forwards_enqueue");
    await ingestRows(single, account, endpointId, 1_000, variant.destinations > 0);
    await pool.query("CHECKPOINT");
    const walBefore = (await pool.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]!.lsn;
    const backendBefore = await cpuSeconds(pid);
    const result = await measured(pool, () =>
      ingestRows(single, account, endpointId, forwards, variant.destinations > 0),
    );
    const backend = (await cpuSeconds(pid)) - backendBefore;
    const { rows: wal } = await pool.query<{ bytes: string }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS bytes",
      [walBefore],
    );
    line(
      variant.name,
      forwards,
      result,
      `; its backend ${((backend / forwards) * 1000).toFixed(3)} ms; WAL ${(Number(wal[0]!.bytes) / forwards).toFixed(0)} B`,
    );
    if (!variant.trigger) await pool.query("ALTER TABLE delivery_forwards ENABLE TRIGGER delivery_forwards_enqueue");
  }
  await single.end();
  // What these left queued is not this tool's to run.
  await pool.query(
    `SELECT graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker.jobs WHERE task_identifier IN ('forward', 'forward-batch')))`,
  );
}

async function workerCosts(pool: pg.Pool, account: BenchAccount, url: string): Promise<void> {
  console.info(`2. Jobs: ${forwards} at a time, run until none is left (the HTTP exchange left out):`);
  for (const concurrency of [10, 50]) {
    await pool.query(
      `SELECT graphile_worker.add_jobs(ARRAY(SELECT ROW('noop', '{}'::json, NULL, NULL, NULL, NULL, NULL, NULL)::graphile_worker.job_spec
                                              FROM generate_series(1, $1)))`,
      [forwards],
    );
    await pool.query("CHECKPOINT");
    const workerPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: concurrency + 4 });
    const result = await measured(pool, async () => {
      const runner = await run({
        pgPool: workerPool,
        concurrency,
        noHandleSignals: true,
        logger: quietJobQueueLogger,
        // lib/forwarding/forward-worker.ts's settings.
        preset: { worker: { localQueue: { size: concurrency }, completeJobBatchDelay: 0 } },
        taskList: { noop: async () => {} },
      });
      await waitUntil(
        pool,
        `SELECT count(*)::int AS "left" FROM graphile_worker.jobs WHERE task_identifier = 'noop'`,
        [],
      );
      await runner.stop();
    });
    await workerPool.end();
    line(`graphile-worker alone, no-op jobs, concurrency ${concurrency}`, forwards, result);
  }
  const runs = [
    { destinations: 1, concurrency: 10 },
    { destinations: 1, concurrency: 50 },
    { destinations: 50, concurrency: 50 },
  ];
  for (const { destinations, concurrency } of runs) {
    const { endpointId, destinationIds } = await newEndpoint(
      account,
      `Worker ${destinations} × ${concurrency}`,
      destinations,
      url,
    );
    await ingestRows(pool, account, endpointId, forwards / destinations, true);
    await pool.query("CHECKPOINT");
    let stop = async () => {};
    const result = await measured(pool, async () => {
      const worker = await startForwardWorker({
        connectionString: process.env.DATABASE_URL!,
        concurrency,
        sender: instantSender,
      });
      stop = () => worker.stop();
      await waitUntil(pool, PENDING, [destinationIds]);
    });
    await stop();
    line(
      `app worker, instant sender, ${destinations} destination${destinations > 1 ? "s" : ""}, concurrency ${concurrency}`,
      forwards,
      result,
    );
  }
}

async function httpCosts(pool: pg.Pool, url: string): Promise<void> {
  console.info(`3. HTTP alone: ${forwards} POSTs of 1 KB to the receiver process, 10 at a time:`);
  const sender = createWebhookSender({ allowance: { private: true, ranges: [] } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 10 });
  const request = buildOutgoingRequest(
    { id: randomUUID(), body, contentType: "application/json", headers: {} },
    { url, headers: {}, secret: "whsec_YmVuY2gtZm9yd2FyZC1jb3N0cy1zZWNyZXQ=" },
    new Date(),
  );
  const keepAlive = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = http.request(url, { method: "POST", headers: request.headers, agent }, (response) => {
        response.resume();
        response.once("end", resolve);
      });
      outgoing.once("error", reject);
      outgoing.end(request.body);
    });
  const variants: [string, () => Promise<unknown>][] = [
    [
      "the app's sender (a new connection each, pinned address)",
      () => sender.sendWebhook({ ...request, timeoutMs: 10_000 }),
    ],
    ["node:http, keep-alive agent", keepAlive],
  ];
  for (const [name, send] of variants) {
    let next = 0;
    const lane = async () => {
      while (next < forwards) {
        next += 1;
        await send();
      }
    };
    const result = await measured(pool, async () => void (await Promise.all(Array.from({ length: 10 }, lane))));
    line(name, forwards, result);
  }
  agent.destroy();
}

async function main(): Promise<void> {
  const database = await startBenchDatabase();
  const receiver = await startServerProcess(path.join("bench", "receiver.ts"), {});
  try {
    process.env.DATABASE_URL = database.url;
    process.env.SIGNALBOX_SECRET = "forward-costs-secret-forward-costs-secret";
    const account = await createBenchAccount("Forward costs", "http://127.0.0.1");
    const url = `${receiver.baseUrl}/hooks`;
    console.info(
      `Forward costs, ${forwards} forwards of 1 KB per run; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    await ingestCosts(database.pool, account, url);
    await workerCosts(database.pool, account, url);
    await httpCosts(database.pool, url);
  } finally {
    await receiver.stop();
    await disconnectDb().catch(() => {});
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
