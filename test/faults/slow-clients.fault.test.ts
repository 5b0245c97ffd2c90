import { connect, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/test/app-server";
import { createEndpoint, printedLiveKey, report, sleep } from "./harness";

/*
 * Slow-loris senders (headers or body trickled a byte at a time), idle connections that never send a byte and idle
 * keep-alive connections must not starve other senders, and must not be kept for ever: the launcher's node:http
 * server cuts them after HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS (answering 408) and
 * HTTP_KEEP_ALIVE_TIMEOUT_MS. The slow bodies outnumber the database pool: reading a body holds no connection.
 */

const HEADERS_TIMEOUT_MS = 8_000;
const REQUEST_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_TIMEOUT_MS = 2_000;
const POOL_SIZE = 3;
const SLOW_HEADERS = 12;
const SLOW_BODIES = 12;
const IDLE = 40;
const IDLE_KEEP_ALIVE = 8;
const NORMAL_REQUESTS = 20;
const TRICKLE_MS = 250;

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
  });
});

afterAll(async () => {
  for (const client of clients) client.socket.destroy();
  await app?.stop();
});

interface SlowClient {
  kind: "headers" | "body" | "idle" | "keep-alive";
  socket: Socket;
  received: string;
  closedAt?: number;
  timer?: NodeJS.Timeout;
}

const clients: SlowClient[] = [];

/** A raw connection that writes `first`, then `trickle()` every TRICKLE_MS until the server closes it. */
function openClient(kind: SlowClient["kind"], first: string, trickle?: () => string): Promise<SlowClient> {
  const { hostname, port } = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const client: SlowClient = { kind, socket: connect({ host: hostname, port: Number(port) }), received: "" };
    clients.push(client);
    client.socket.once("error", () => {}); // a reset is a close as far as this test goes
    client.socket.on("data", (chunk: Buffer) => (client.received += chunk.toString("latin1")));
    client.socket.once("close", () => {
      client.closedAt = Date.now();
      clearInterval(client.timer);
    });
    client.socket.once("connect", () => {
      if (first) client.socket.write(first);
      if (trickle)
        client.timer = setInterval(() => client.socket.writable && client.socket.write(trickle()), TRICKLE_MS);
      resolve(client);
    });
    client.socket.once("error", reject);
  });
}

describe("slow and idle clients", () => {
  it("cut slow-loris and idle connections after the timeouts while other senders are served at once", async () => {
    const key = printedLiveKey(app);
    const ingestUrl = await createEndpoint(app.baseUrl, key, "slow clients");
    const { host, pathname } = new URL(ingestUrl);
    const runId = `slow${Date.now()}`;

    let header = 0;
    for (let index = 0; index < SLOW_HEADERS; index += 1) {
      await openClient(
        "headers",
        `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n`,
        () => `X-Trickle-${header++}: ${"a".repeat(8)}\r\n`,
      );
    }
    for (let index = 0; index < SLOW_BODIES; index += 1) {
      const head = `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nX-Fault-Run: ${runId}\r\n\r\n{"a":"`;
      await openClient("body", head, () => "b");
    }
    for (let index = 0; index < IDLE; index += 1) await openClient("idle", "");
    for (let index = 0; index < IDLE_KEEP_ALIVE; index += 1)
      await openClient("keep-alive", `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const slowOpenedAt = Date.now();

    // Meanwhile an ordinary sender posts, a few at a time, and every request is stored at once.
    let sent = 0;
    const latencies: number[] = [];
    const statuses: number[] = [];
    const sender = async () => {
      while (sent < NORMAL_REQUESTS) {
        sent += 1;
        const started = Date.now();
        const response = await fetch(ingestUrl, {
          method: "POST",
          headers: { "content-type": "application/json", "x-fault-run": `${runId}-normal` },
          body: JSON.stringify({ n: sent }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        statuses.push(response.status);
        latencies.push(Date.now() - started);
      }
    };
    await Promise.all([sender(), sender(), sender()]);
    const normalDoneAt = Date.now();
    expect(statuses).toEqual(Array.from({ length: NORMAL_REQUESTS }, () => 200));
    // All of that happened while every slow sender was still connected (the first cut comes after 8 s).
    const slowOnes = clients.filter((client) => client.kind !== "keep-alive");
    expect(slowOnes.filter((client) => client.closedAt !== undefined && client.closedAt < normalDoneAt)).toEqual([]);

    // Then the server cuts every one of them: 408 for the unfinished requests, a plain close for the idle keep-alive.
    const deadline = Date.now() + REQUEST_TIMEOUT_MS + 20_000;
    while (clients.some((client) => client.closedAt === undefined) && Date.now() < deadline) await sleep(200);
    const open = clients.filter((client) => client.closedAt === undefined).map((client) => client.kind);
    expect(open).toEqual([]);
    for (const client of clients) {
      if (client.kind === "keep-alive") expect(client.received).toMatch(/^HTTP\/1\.1 200 /);
      else expect(client.received, client.kind).toMatch(/^HTTP\/1\.1 408 /);
    }
    // The idle keep-alive ones went first, after their own shorter timeout.
    const closeOf = (kind: SlowClient["kind"]) =>
      clients.filter((client) => client.kind === kind).map((client) => client.closedAt! - slowOpenedAt);
    expect(Math.max(...closeOf("keep-alive"))).toBeLessThan(
      Math.min(...closeOf("headers"), ...closeOf("idle"), ...closeOf("body")),
    );

    // Nothing of the cut bodies was stored; the ordinary deliveries all were.
    const database = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await database.connect();
    const counts = await database
      .query<{ run: string; count: string }>(
        `SELECT headers->>'x-fault-run' AS run, count(*) FROM webhook_deliveries GROUP BY 1`,
      )
      .finally(() => database.end());
    expect(Object.fromEntries(counts.rows.map((row) => [row.run, Number(row.count)]))).toEqual({
      [`${runId}-normal`]: NORMAL_REQUESTS,
    });
    // A cut body is no database trouble and no bug: nothing of the kind was logged.
    expect(app.output()).not.toMatch(/Database unavailable|Unhandled error/);
    // And the server serves as before.
    expect((await fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).status).toBe(
      200,
    );
    expect(app.process.exitCode).toBeNull();

    report("slow clients", {
      slowHeaders: SLOW_HEADERS,
      slowBodies: SLOW_BODIES,
      idle: IDLE,
      idleKeepAlive: IDLE_KEEP_ALIVE,
      poolSize: POOL_SIZE,
      normalRequests: NORMAL_REQUESTS,
      normalSlowestMs: Math.max(...latencies),
      normalAllDoneMs: normalDoneAt - slowOpenedAt,
      keepAliveClosedMs: Math.max(...closeOf("keep-alive")),
      headersCutMs: [Math.min(...closeOf("headers")), Math.max(...closeOf("headers"))],
      idleCutMs: [Math.min(...closeOf("idle")), Math.max(...closeOf("idle"))],
      bodiesCutMs: [Math.min(...closeOf("body")), Math.max(...closeOf("body"))],
    });
  });
});
