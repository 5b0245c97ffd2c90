import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import {
  checkStored,
  crash,
  createEndpoint,
  expectEverythingAcknowledgedOnce,
  ok,
  printedLiveKey,
  report,
  startLoad,
  summarize,
  type Load,
} from "./harness";

/*
 * The promise: a 200 from ingest means the delivery is committed and survives a crash. The launcher (which answers
 * ingest itself and runs Next.js in-process) is killed with SIGKILL while a sender in another process keeps posting,
 * then started again on the same database and port; every delivery id that was answered 200 must be in the database
 * with its payload, bytes and headers as sent. Three rounds, one sender throughout.
 */

const ROUNDS = 3;
/** 200s to collect before each kill, so the kill lands mid-load. */
const OK_PER_ROUND = 80;
/** Each restart may take a while on a busy machine; the whole test is still bounded. */
const START_TIMEOUT_MS = 90_000;
const RESTARTS_TIMEOUT_MS = 400_000;

let port: number;
let app: RunningApp | undefined;
let load: Load | undefined;

beforeAll(async () => {
  port = await findFreePort();
});

afterAll(async () => {
  if (load?.process.exitCode === null) await load.stop().catch(() => {});
  await app?.stop();
});

describe("kill -9 of the launcher under ingest load", () => {
  it(
    `keeps every delivery answered 200, intact, across ${ROUNDS} crashes`,
    async () => {
      const env = { PORT: String(port) };
      app = await startApp(env, START_TIMEOUT_MS);
      const key = printedLiveKey(app);
      const urls = [
        await createEndpoint(app.baseUrl, key, "crash A"),
        await createEndpoint(app.baseUrl, key, "crash B"),
      ];
      load = await startLoad(urls);
      const running = load;

      const rounds: Record<string, unknown>[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const before = ok(await running.results()).length;
        await running.waitFor(
          `${OK_PER_ROUND} more 200s in round ${round}`,
          (results) => ok(results).length >= before + OK_PER_ROUND,
        );
        const killedAt = Date.now();
        const killed = await crash(app!);
        app = undefined;
        // The sender keeps going against the dead address: its requests now fail without an answer.
        await running.waitFor("a refused request after the kill", (results) =>
          results.some((result) => result.startedAt > killedAt && result.error === "network"),
        );

        // Every 200 the sender has was answered by the process now dead.
        const results = await running.results();
        const stored = await checkStored(process.env.DATABASE_URL!, running.runId, results);
        expect(stored.missing).toEqual([]);
        expect(stored.altered).toEqual([]);
        expect(stored.duplicated).toEqual([]);
        expect(stored.found).toBe(stored.answered);
        rounds.push({ round, childProcessesKilled: killed, ...summarize(results), found: stored.found });

        const restartedAt = Date.now();
        app = await startApp(env, START_TIMEOUT_MS);
        await running.waitFor(`a 200 after restart ${round}`, (all) =>
          all.some((result) => result.startedAt > restartedAt && result.status === 200),
        );
      }

      const results = await running.stop();
      const stored = await checkStored(process.env.DATABASE_URL!, running.runId, results);
      expect(stored.missing).toEqual([]);
      expect(stored.altered).toEqual([]);
      expect(stored.duplicated).toEqual([]);
      expect(stored.found).toBe(stored.answered);
      // Only 200s, or no answer at all while the server was down: never an error status for a healthy database.
      expect(Object.keys(summarize(results)).sort()).toEqual(["200", "network"]);

      const acknowledged = await expectEverythingAcknowledgedOnce(app!.baseUrl, key, results, stored);

      report("launcher kill -9", {
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
