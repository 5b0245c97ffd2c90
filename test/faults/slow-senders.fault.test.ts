import { connect, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { startApp, type RunningApp } from "@/test/app-server";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { createEndpoint, report, sleep } from "./harness";

/*
 * Issue #18, item 1: forty senders declare a 1 MiB body and trickle it a byte at a time. They must not hold back
 * anyone else's deliveries (the body budget goes by bytes that arrived, not by bytes declared), and they are cut
 * (408) once they fall below INGEST_MIN_BYTES_PER_SECOND for a grace period. The figure is the p99 of ordinary
 * deliveries to other endpoints while they trickle, against the p99 of the same deliveries measured just before.
 */

const SLOW_SENDERS = 40;
const DECLARED_BYTES = 1024 * 1024;
const TRICKLE_MS = 500;
const GRACE_MS = 8_000;
const DELIVERIES_PER_PHASE = 300;
const CONCURRENCY = 4;
/** A delivery unanswered after this long counts as this long (and fails the test): the phase stays bounded. */
const DELIVERY_TIMEOUT_MS = 4_000;
const PHASE_MAX_MS = 15_000;
/** "Within a few times": the loaded p99 may be at most this many times the unloaded one. */
const P99_RATIO_LIMIT = 5;

let app: RunningApp;
const slowSockets: { socket: Socket; received: string; closedAt?: number }[] = [];

/** Opens a connection that declares a 1 MiB JSON body and sends one byte of it every TRICKLE_MS. */
function openSlowSender(ingestUrl: string, runId: string): Promise<void> {
  const { hostname, port, host, pathname } = new URL(ingestUrl);
  return new Promise((resolve, reject) => {
    const slow: (typeof slowSockets)[number] = {
      socket: connect({ host: hostname, port: Number(port) }),
      received: "",
    };
    slowSockets.push(slow);
    let timer: NodeJS.Timeout | undefined;
    slow.socket.on("data", (chunk: Buffer) => (slow.received += chunk.toString("latin1")));
    slow.socket.once("close", () => {
      slow.closedAt = Date.now();
      clearInterval(timer);
    });
    slow.socket.once("error", reject);
    slow.socket.once("connect", () => {
      slow.socket.off("error", reject).on("error", () => {}); // a reset is a close for this test
      slow.socket.write(
        `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${DECLARED_BYTES}\r\nX-Fault-Run: ${runId}-slow\r\n\r\n{"a":"`,
      );
      timer = setInterval(() => slow.socket.writable && slow.socket.write("b"), TRICKLE_MS);
      resolve();
    });
  });
}

/** Posts DELIVERIES_PER_PHASE small deliveries, CONCURRENCY at a time, round-robin over `urls`; latencies in ms. */
async function deliveries(urls: string[], runId: string): Promise<{ latencies: number[]; statuses: number[] }> {
  const latencies: number[] = [];
  const statuses: number[] = [];
  const phaseEnds = Date.now() + PHASE_MAX_MS;
  let sent = 0;
  const worker = async () => {
    while (sent < DELIVERIES_PER_PHASE && Date.now() < phaseEnds) {
      const seq = sent++;
      const started = performance.now();
      try {
        const response = await fetch(urls[seq % urls.length]!, {
          method: "POST",
          headers: { "content-type": "application/json", "x-fault-run": runId },
          body: JSON.stringify({ seq, pad: "x".repeat(512) }),
          signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        statuses.push(response.status);
        latencies.push(performance.now() - started);
      } catch {
        statuses.push(0);
        latencies.push(DELIVERY_TIMEOUT_MS);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { latencies, statuses };
}

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

/** Stored deliveries per X-Fault-Run of this run (`runId`, `runId-…`). */
async function storedCounts(runId: string): Promise<Record<string, number>> {
  const database = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await database.connect();
  const counts = await database
    .query<{ run: string; count: string }>(
      `SELECT headers->>'x-fault-run' AS run, count(*) FROM webhook_deliveries
        WHERE starts_with(headers->>'x-fault-run', $1) GROUP BY 1`,
      [runId],
    )
    .finally(() => database.end());
  return Object.fromEntries(counts.rows.map((row) => [row.run, Number(row.count)]));
}

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    app = await startApp({
      ...ingestPath.env,
      HTTP_REQUEST_TIMEOUT_MS: "60000",
      INGEST_MIN_BYTES_PER_SECOND: "1024",
      INGEST_BODY_RATE_GRACE_MS: String(GRACE_MS),
    });
  });

  afterAll(async () => {
    for (const slow of slowSockets.splice(0)) slow.socket.destroy();
    await app?.stop();
  });

  describe("slow senders", () => {
    it(`${SLOW_SENDERS} trickling 1 MiB bodies leave other endpoints' deliveries fast, and are cut`, async () => {
      const workspace = await createWorkspace({ name: `slow senders, ${ingestPath.name}` });
      const { key } = await createApiKey({ workspaceId: workspace.id, name: "slow senders", mode: "live" });
      const slowTarget = await createEndpoint(app.baseUrl, key, "slow target");
      const others = [
        await createEndpoint(app.baseUrl, key, "other 1"),
        await createEndpoint(app.baseUrl, key, "other 2"),
      ];
      const runId = `slowsenders${Date.now()}`;

      await deliveries(others, `${runId}-warm-up`); // the first requests pay for lazy loading; not measured
      const unloaded = await deliveries(others, `${runId}-unloaded`);

      for (let index = 0; index < SLOW_SENDERS; index += 1) await openSlowSender(slowTarget, runId);
      await sleep(1_000); // every slow sender is past its endpoint lookup and reading its body
      const loadedStartedAt = Date.now();
      const loaded = await deliveries(others, `${runId}-loaded`);
      const loadedDoneAt = Date.now();

      const figures = {
        slowSenders: SLOW_SENDERS,
        unloadedP99Ms: Math.round(p99(unloaded.latencies)),
        loadedP99Ms: Math.round(p99(loaded.latencies)),
        loadedAnswered: loaded.statuses.filter((status) => status === 200).length,
        loadedSent: loaded.statuses.length,
        slowStillOpenAfterLoadedPhase: slowSockets.filter((slow) => !slow.closedAt || slow.closedAt > loadedDoneAt)
          .length,
      };
      report("slow senders (loaded phase)", figures);

      expect(unloaded.statuses).toEqual(unloaded.statuses.map(() => 200));
      expect(loaded.statuses).toEqual(Array.from({ length: DELIVERIES_PER_PHASE }, () => 200));
      expect(p99(loaded.latencies)).toBeLessThanOrEqual(P99_RATIO_LIMIT * p99(unloaded.latencies));
      // They were all trickling the whole time: the loaded phase ran against every one of them.
      expect(figures.slowStillOpenAfterLoadedPhase).toBe(SLOW_SENDERS);

      // Below the minimum data rate past the grace period, every slow sender is cut with a 408, long before
      // HTTP_REQUEST_TIMEOUT_MS (60 s), and nothing of theirs is stored.
      const deadline = Date.now() + 3 * GRACE_MS;
      while (slowSockets.some((slow) => slow.closedAt === undefined) && Date.now() < deadline) await sleep(200);
      expect(slowSockets.filter((slow) => slow.closedAt === undefined)).toHaveLength(0);
      for (const slow of slowSockets) expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(await storedCounts(runId)).toEqual({
        [`${runId}-warm-up`]: DELIVERIES_PER_PHASE,
        [`${runId}-unloaded`]: DELIVERIES_PER_PHASE,
        [`${runId}-loaded`]: DELIVERIES_PER_PHASE,
      });
      expect(app.output()).not.toMatch(/Database unavailable|Unhandled error/);
      report("slow senders (cut)", {
        cutAfterMs: [
          Math.min(...slowSockets.map((slow) => slow.closedAt! - loadedStartedAt)),
          Math.max(...slowSockets.map((slow) => slow.closedAt! - loadedStartedAt)),
        ],
      });
    });
  });
});
