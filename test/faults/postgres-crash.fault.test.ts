import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort, isProcessAlive, runningEmbeddedUrl } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import {
  checkStored,
  createEndpoint,
  expectEverythingAcknowledgedOnce,
  ok,
  printedLiveKey,
  report,
  sleep,
  startLoad,
  summarize,
  type Load,
} from "./harness";

/*
 * The embedded PostgreSQL itself is killed with SIGKILL under ingest load (as the OOM killer would): the launcher
 * stays up and answers 503, never 200, while its database is gone; it is then restarted on the same data folder,
 * PostgreSQL replays its write-ahead log, and every delivery answered 200 before the kill is there, intact.
 */

const ROUNDS = 2;
const OK_PER_ROUND = 80;
/** Each restart may take a while on a busy machine; the whole test is still bounded. */
const START_TIMEOUT_MS = 90_000;
const RESTARTS_TIMEOUT_MS = 400_000;

let dataDir: string;
let port: number;
let app: RunningApp | undefined;
let load: Load | undefined;

async function postmasterPid(): Promise<number> {
  const text = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
  return Number(text.split("\n")[0]);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-pg-crash-"));
  port = await findFreePort();
});

afterAll(async () => {
  if (load?.process.exitCode === null) await load.stop().catch(() => {});
  await app?.stop("SIGINT");
  const pid = await postmasterPid().catch(() => null);
  if (pid && isProcessAlive(pid)) process.kill(pid, "SIGINT");
  for (let waited = 0; pid && isProcessAlive(pid) && waited < 10_000; waited += 100) await sleep(100);
  await rm(dataDir, { recursive: true, force: true });
});

describe("kill -9 of the embedded PostgreSQL under ingest load", () => {
  it(
    `answers 503 while it is gone and keeps every delivery answered 200 across ${ROUNDS} kills`,
    async () => {
      const env = { DATABASE_URL: "", DATA_DIR: dataDir, PORT: String(port) };
      app = await startApp(env, START_TIMEOUT_MS);
      const key = printedLiveKey(app);
      const urls = [await createEndpoint(app.baseUrl, key, "pg crash")];
      load = await startLoad(urls);
      const running = load;

      const rounds: Record<string, unknown>[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const before = ok(await running.results()).length;
        await running.waitFor(
          `${OK_PER_ROUND} more 200s in round ${round}`,
          (results) => ok(results).length >= before + OK_PER_ROUND,
        );
        const pid = await postmasterPid();
        process.kill(pid, "SIGKILL");
        const killedAt = Date.now();

        // The launcher stays up and refuses deliveries it cannot store. (A backend busy when its postmaster died may
        // still commit for a moment, so requests of the first 200 ms may be 200 as well; every 200 is checked below.)
        const during = await running.waitFor(
          "20 answers sent after the kill",
          (results) => results.filter((result) => result.startedAt > killedAt + 200).length >= 20,
        );
        const afterKill = during.filter((result) => result.startedAt > killedAt + 200);
        expect(summarize(afterKill)).toEqual({ 503: afterKill.length });
        const health = await fetch(`${app.baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
        expect(health.status).toBe(503);
        expect(app.process.exitCode).toBeNull();

        // An operator (or a supervisor) restarts the launcher, which shuts down cleanly although its database is gone;
        // the next start finds the crashed cluster and PostgreSQL recovers it from its write-ahead log.
        expect(await app.stop("SIGTERM")).toBe(0);
        app = undefined;
        const restartedAt = Date.now();
        app = await startApp(env, START_TIMEOUT_MS);
        const first = await running.waitFor(`a 200 after restart ${round}`, (all) =>
          all.some((result) => result.startedAt > restartedAt && result.status === 200),
        );

        const stored = await checkStored((await runningEmbeddedUrl(dataDir))!, running.runId, first);
        expect(stored.missing).toEqual([]);
        expect(stored.altered).toEqual([]);
        expect(stored.duplicated).toEqual([]);
        rounds.push({ round, ...summarize(first), found: stored.found });
      }

      const results = await running.stop();
      const stored = await checkStored((await runningEmbeddedUrl(dataDir))!, running.runId, results);
      expect(stored.missing).toEqual([]);
      expect(stored.altered).toEqual([]);
      expect(stored.duplicated).toEqual([]);
      expect(stored.found).toBe(stored.answered);
      // 200 while stored, 503 while the database was gone, no answer while the launcher was restarting.
      for (const outcome of Object.keys(summarize(results))) expect(["200", "503", "network"]).toContain(outcome);

      const acknowledged = await expectEverythingAcknowledgedOnce(app!.baseUrl, key, results, stored);

      report("embedded PostgreSQL kill -9", {
        rounds: ROUNDS,
        sent: results.length,
        ...summarize(results),
        answered200: stored.answered,
        foundAfterCrashes: stored.found,
        storedWithout200: stored.storedWithout200,
        acknowledged: acknowledged.length,
        perRound: rounds,
      });
    },
    RESTARTS_TIMEOUT_MS,
  );
});
