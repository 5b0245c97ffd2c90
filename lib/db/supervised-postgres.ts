import { setTimeout as sleep } from "node:timers/promises";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres";

/** Waits before restarting a server that died: doubled after each failed start or early death, up to the maximum. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A server that ran this long before dying is restarted after the first delay again. */
const STABLE_AFTER_MS = 60_000;

export interface SupervisedPostgres {
  /** Connection string to the `postgres` maintenance database (the same across restarts: same port). */
  url: string;
  /** Stops the server and its supervision; a restart under way is stopped once it has started. */
  stop: () => Promise<void>;
}

/**
 * An embedded PostgreSQL kept running: when its server dies (kill -9, the OOM killer), it is started again on the same
 * port and data folder, so the app's connection string stays valid and its pool reconnects by itself. `notice` gets
 * one line per death, per restart and per failed attempt.
 */
export async function startSupervisedPostgres(options: {
  dataDir: string;
  onLog?: (line: string) => void;
  notice: (line: string) => void;
}): Promise<SupervisedPostgres> {
  let current = await startEmbeddedPostgres({ dataDir: options.dataDir, onLog: options.onLog });
  const { port } = current;
  let stopping = false;
  const stopped = new AbortController(); // ends a wait between restarts at once
  let delay = FIRST_DELAY_MS;
  let restarting: Promise<void> = Promise.resolve();

  const restart = async (reason: string, ranForMs: number) => {
    if (ranForMs >= STABLE_AFTER_MS) delay = FIRST_DELAY_MS;
    options.notice(`Embedded PostgreSQL exited (${reason}); restarting it in ${delay / 1000} s`);
    for (let attempt = 1; ; attempt += 1) {
      if (!(await sleep(delay, true, { signal: stopped.signal }).catch(() => false))) return;
      delay = Math.min(delay * 2, MAX_DELAY_MS);
      try {
        current = await startEmbeddedPostgres({ dataDir: options.dataDir, port, onLog: options.onLog });
      } catch (error) {
        const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
        options.notice(`Embedded PostgreSQL did not start (attempt ${attempt}: ${why}); next try in ${delay / 1000} s`);
        continue;
      }
      options.notice(`Embedded PostgreSQL restarted on port ${port}`);
      watch(current);
      return;
    }
  };

  const watch = (server: EmbeddedDatabase) => {
    const startedAt = Date.now();
    void server.exited.then((reason) => {
      if (!stopping) restarting = restart(reason, Date.now() - startedAt);
    });
  };
  watch(current);

  return {
    url: current.url,
    stop: async () => {
      stopping = true;
      stopped.abort();
      await restarting;
      await current.stop();
    },
  };
}
