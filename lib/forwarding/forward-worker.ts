import { EventEmitter } from "node:events";
import { run, type Runner, type WorkerEvents } from "graphile-worker";
import pLimit from "p-limit";
import pg from "pg";
import { quietJobQueueLogger } from "@/lib/db/job-queue-logger";
import type { WebhookSender } from "@/lib/outbound/webhook-sender";
import { forwardTasks } from "./forward-jobs";
import { holdLiveness, releaseDeadWorkers } from "./worker-liveness";

/*
 * The forwarding worker of one instance: graphile-worker running the forwarding jobs on a connection pool of its own
 * (forwarding never takes connections from ingest or the API), and a sweep that returns the jobs of dead instances to
 * the queue (./worker-liveness.ts). Any number of instances run one; the queue hands each job to one of them.
 */

export interface ForwardWorkerOptions {
  connectionString: string;
  /** Attempts in flight at once on this instance. */
  concurrency: number;
  sender: WebhookSender;
  /** How often dead instances' jobs are looked for; default 10 s. */
  sweepIntervalMs?: number;
  /** Jobs locked for less than this are never taken back (./worker-liveness.ts); tests shorten it. */
  lockGraceSeconds?: number;
}

export interface ForwardWorker {
  /** Lets attempts in flight finish (up to their timeout), then stops. */
  stop(): Promise<void>;
}

const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

export async function startForwardWorker(options: ForwardWorkerOptions): Promise<ForwardWorker> {
  // Jobs, their bookkeeping and the attempts' own queries; graphile-worker's LISTEN holds one more.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.concurrency + 4 });
  const warn = (error: Error) => console.warn(`Forwarding: a database connection failed (${error.message}).`);
  pool.on("error", warn);
  // A checked-out connection's errors too (graphile-worker warns at start-up without this).
  pool.on("connect", (client) => client.on("error", warn));
  const liveness = new pg.Client({ connectionString: options.connectionString });
  liveness.on("error", (error) => console.warn(`Forwarding: the liveness connection failed (${error.message}).`));
  await liveness.connect();
  const abort = new AbortController();

  const events = new EventEmitter() as WorkerEvents;
  const held: Promise<void>[] = [];
  events.on("pool:create", ({ workerPool }) => {
    held.push(holdLiveness(liveness, workerPool.id));
  });

  let runner: Runner;
  try {
    runner = await run({
      pgPool: pool,
      concurrency: options.concurrency,
      noHandleSignals: true,
      logger: quietJobQueueLogger,
      events,
      // Measured (README "Forwarding"): fetching a few jobs at once and completing them in batches tripled the jobs a
      // second over one fetch and one completion per job, at the same latency.
      preset: { worker: { localQueue: { size: options.concurrency }, completeJobBatchDelay: 0 } },
      taskList: forwardTasks({
        pool,
        sender: options.sender,
        signal: abort.signal,
        limit: pLimit(options.concurrency),
      }),
    });
    await Promise.all(held);
  } catch (error) {
    await liveness.end().catch(() => {});
    await pool.end().catch(() => {});
    throw error;
  }

  const sweep = async () => {
    const dead = await releaseDeadWorkers(pool, options.lockGraceSeconds);
    if (dead.length > 0)
      console.warn(`Forwarding: returned the jobs of ${dead.length} stopped worker(s) to the queue.`);
  };
  void sweep().catch(() => {});
  const sweeper = setInterval(() => void sweep().catch(() => {}), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    async stop() {
      clearInterval(sweeper);
      await runner.stop();
      abort.abort();
      await liveness.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
