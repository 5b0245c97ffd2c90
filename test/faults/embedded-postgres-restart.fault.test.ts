import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive } from "@/lib/db/embedded-postgres";
import { startApp, type RunningApp } from "@/test/app-server";
import { createEndpoint, printedLiveKey, report, sleep } from "./harness";

/*
 * Issue #18, item 8: when the embedded PostgreSQL of a launcher dies (kill -9, the OOM killer), the launcher notices,
 * starts it again on the same port and data folder (with backoff, one log line each time) and ingest works again
 * without anyone restarting the launcher.
 */

const START_TIMEOUT_MS = 90_000;
const BACK_WITHIN_MS = 45_000;
const KILLS = 2;

let dataDir: string;
let app: RunningApp | undefined;

async function postmasterPid(): Promise<number> {
  return Number((await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-pg-restart-"));
  app = await startApp({ DATABASE_URL: "", DATA_DIR: dataDir }, START_TIMEOUT_MS);
});

afterAll(async () => {
  await app?.stop("SIGINT");
  const pid = await postmasterPid().catch(() => null);
  if (pid && isProcessAlive(pid)) process.kill(pid, "SIGINT");
  for (let waited = 0; pid && isProcessAlive(pid) && waited < 10_000; waited += 100) await sleep(100);
  await rm(dataDir, { recursive: true, force: true });
});

describe("the launcher's embedded PostgreSQL dies", () => {
  it(`is restarted by the launcher, and ingest works again (${KILLS} kills)`, async () => {
    const ingestUrl = await createEndpoint(app!.baseUrl, printedLiveKey(app!), "pg restart");
    const post = async (seq: number) => {
      try {
        const response = await fetch(ingestUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ seq }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        return response.status;
      } catch {
        return 0;
      }
    };
    expect(await post(0)).toBe(200);

    const backAfterMs: number[] = [];
    for (let kill = 1; kill <= KILLS; kill += 1) {
      const killed = await postmasterPid();
      process.kill(killed, "SIGKILL");
      const killedAt = Date.now();
      const statuses: number[] = [];
      // Backends outlive a killed postmaster for a moment, so a delivery right after the kill may still commit (its WAL
      // is on disk): done is a 200 from the restarted server, not just any 200.
      let restarted = false;
      for (let seq = 1; !(restarted && statuses.at(-1) === 200) && Date.now() - killedAt < BACK_WITHIN_MS; seq += 1) {
        statuses.push(await post(seq));
        restarted ||= (await postmasterPid().catch(() => killed)) !== killed;
        if (!(restarted && statuses.at(-1) === 200)) await sleep(250);
      }
      backAfterMs.push(Date.now() - killedAt);
      report(`embedded PostgreSQL restart ${kill}`, {
        backAfterMs: backAfterMs.at(-1),
        answersWhileDown: [...new Set(statuses.slice(0, -1))],
      });
      expect(restarted, `PostgreSQL restarted within ${BACK_WITHIN_MS} ms of kill ${kill}`).toBe(true);
      expect(statuses.at(-1), `ingest works again within ${BACK_WITHIN_MS} ms of kill ${kill}`).toBe(200);
      // 503 while it was down (or 200 from a backend that outlived the kill): never a hang or a dropped connection.
      expect(statuses.filter((status) => status !== 503 && status !== 200)).toEqual([]);
    }
    expect(app!.process.exitCode).toBeNull();
    // The launcher said so, once per death and once per restart.
    expect(app!.output().match(/Embedded PostgreSQL exited/g)).toHaveLength(KILLS);
    expect(app!.output().match(/Embedded PostgreSQL restarted/g)).toHaveLength(KILLS);
  });
});
