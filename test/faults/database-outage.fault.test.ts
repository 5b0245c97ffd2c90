import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "@/lib/db/database";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import { checkStored, createEndpoint, ok, printedLiveKey, report, startLoad, summarize, type Load } from "./harness";

/*
 * PostgreSQL is stopped while a sender in another process keeps posting (test/database-outage.integration.test.ts
 * covers single requests): ingest answers 503, never 200, /healthz 503, the launcher stays up, and no request hangs
 * past the sender's timeout. Started again, the service recovers by itself, without a restart of the app.
 */

const REQUEST_TIMEOUT_MS = 10_000;
/** How long PostgreSQL stays down at least. */
const OUTAGE_MS = 3_000;

let dataDir: string;
let postgres: EmbeddedDatabase | undefined;
let app: RunningApp | undefined;
let load: Load | undefined;
let databaseUrl: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-outage-load-"));
  postgres = await startEmbeddedPostgres({ dataDir });
  databaseUrl = await ensureDatabase(postgres.url, "signalbox");
  app = await startApp({ DATABASE_URL: databaseUrl });
});

afterAll(async () => {
  if (load?.process.exitCode === null) await load.stop().catch(() => {});
  await app?.stop();
  await postgres?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const health = () => fetch(`${app!.baseUrl}/healthz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

describe("a database outage under ingest load", () => {
  it("answers 503 (never 200) while PostgreSQL is down, hangs nothing, and recovers without a restart", async () => {
    const key = printedLiveKey(app!);
    load = await startLoad([await createEndpoint(app!.baseUrl, key, "outage")], { timeoutMs: REQUEST_TIMEOUT_MS });
    const running = load;
    await running.waitFor("60 200s before the outage", (results) => ok(results).length >= 60);

    const stoppingAt = Date.now();
    await postgres!.stop();
    postgres = undefined;
    const stoppedAt = Date.now();

    // While it is down: only 503s, the health check says so, the launcher stays up.
    const during = await running.waitFor(
      "100 answers and 3 s of outage",
      (results) =>
        results.filter((result) => result.startedAt > stoppedAt).length >= 100 && Date.now() - stoppedAt >= OUTAGE_MS,
    );
    const healthDuring = await health();
    expect(healthDuring.status).toBe(503);
    expect(await healthDuring.json()).toMatchObject({ success: false, error: { code: "service_unavailable" } });
    expect(app!.process.exitCode).toBeNull();
    const outage = during.filter((result) => result.startedAt > stoppedAt);
    expect(summarize(outage)).toEqual({ 503: outage.length });

    // Back on the same port: the app's pool reconnects by itself.
    const port = Number(new URL(databaseUrl).port);
    const restartingAt = Date.now();
    postgres = await startEmbeddedPostgres({ dataDir, port });
    const readyAt = Date.now();
    const recovered = await running.waitFor(
      "a 200 within 15 s of PostgreSQL being back",
      (results) => results.some((result) => result.startedAt >= readyAt && result.status === 200),
      15_000,
    );
    const firstOk = Math.min(
      ...recovered
        .filter((result) => result.startedAt >= readyAt && result.status === 200)
        .map((result) => result.finishedAt),
    );
    expect((await health()).status).toBe(200);
    const countBefore = ok(recovered).length;
    await running.waitFor("60 more 200s after recovery", (results) => ok(results).length >= countBefore + 60);
    expect(app!.process.exitCode).toBeNull();

    const results = await running.stop();
    const outcomes = summarize(results);
    // Every request got an answer within its timeout (no hang, no dropped connection), and only these two.
    expect(Object.keys(outcomes).sort()).toEqual(["200", "503"]);
    const stored = await checkStored(databaseUrl, running.runId, results);
    expect(stored.missing).toEqual([]);
    expect(stored.altered).toEqual([]);
    expect(stored.duplicated).toEqual([]);
    expect(stored.found).toBe(stored.answered);

    report("database outage", {
      sent: results.length,
      ...outcomes,
      hangs: results.filter((result) => result.error === "timeout").length,
      slowestAnswerMs: Math.max(...results.map((result) => result.finishedAt - result.startedAt)),
      stopTookMs: stoppedAt - stoppingAt,
      outageMs: readyAt - stoppedAt,
      postgresStartMs: readyAt - restartingAt,
      firstStored200AfterRestartMs: firstOk - readyAt,
      found: stored.found,
      storedWithout200: stored.storedWithout200,
    });
  });
});
