import type pg from "pg";
import type { TaskList } from "graphile-worker";
import { takeForwardSlot } from "@/lib/ratelimit/limits";
import {
  attemptForward,
  failForward,
  readForward,
  readOldestPendingForward,
  type AttemptDependencies,
  type ForwardRow,
} from "./attempt-forward";

/*
 * The two kinds of forwarding job (queued by the delivery_forwards trigger, migration 20261128030000):
 * - `forward` {forwardId, workspaceId, attempt}: one attempt of one forward to an unordered destination; a retry is a
 *   new job for the next attempt, queued in the transaction that records this one.
 * - `forward-ordered` {destinationId, workspaceId}: walks an ordered destination's pending forwards oldest first, one
 *   at a time; a failure that will be retried stops the walk, and the walk's next job waits for that retry.
 */

export interface ForwardJob {
  forwardId: string;
  workspaceId: string;
  attempt: number;
}

export interface OrderedForwardJob {
  destinationId: string;
  workspaceId: string;
}

/** Forwards an ordered walk sends before it queues its own continuation, so one busy destination cannot hog a worker. */
const ORDERED_WALK_BATCH = 100;

const ADD_JOB = `SELECT graphile_worker.add_job($1, $2::json, queue_name => $3, run_at => $4, job_key => $5)`;

function queueForward(runner: pg.Pool | pg.PoolClient, job: ForwardJob, at: Date): Promise<unknown> {
  return runner.query(ADD_JOB, ["forward", JSON.stringify(job), null, at, null]);
}

function queueOrderedWalk(runner: pg.Pool | pg.PoolClient, job: OrderedForwardJob, at: Date): Promise<unknown> {
  const key = `ordered:${job.destinationId}`;
  return runner.query(ADD_JOB, ["forward-ordered", JSON.stringify(job), key, at, key]);
}

type Readiness =
  | { kind: "send"; forward: ForwardRow & { raw_body: Buffer; delivery_headers: Record<string, string> } }
  | { kind: "wait"; until: Date }
  | { kind: "ended" };

/** Whether a pending forward can be sent now: its delivery still stored, its destination enabled, time and rate left. */
async function readiness(forward: ForwardRow, dependencies: AttemptDependencies): Promise<Readiness> {
  const now = (dependencies.now ?? (() => new Date()))();
  const { raw_body: body, delivery_headers: headers } = forward;
  let problem: string | undefined;
  if (body === null || headers === null) problem = "the delivery is no longer stored";
  else if (!forward.enabled) problem = "the destination is disabled";
  else if (now.getTime() > forward.forward_created_at.getTime() + forward.max_age_seconds * 1000)
    problem = "it is older than the destination's maxAgeSeconds";
  if (problem !== undefined || body === null || headers === null) {
    await failForward(dependencies.pool, forward, problem ?? "");
    return { kind: "ended" };
  }
  if (forward.rate_limit_per_second !== null) {
    const decision = await takeForwardSlot(forward.destination_id, forward.rate_limit_per_second);
    if (!decision.allowed) return { kind: "wait", until: new Date(now.getTime() + decision.retryAfterSeconds * 1000) };
  }
  return { kind: "send", forward: { ...forward, raw_body: body, delivery_headers: headers } };
}

async function runForward(job: ForwardJob, dependencies: AttemptDependencies): Promise<void> {
  const forward = await readForward(dependencies.pool, job.workspaceId, job.forwardId);
  // Deleted, finished, or an attempt already recorded (this job ran before and was run again): nothing to do.
  if (!forward || forward.status !== "pending" || forward.attempt_count !== job.attempt - 1) return;
  const ready = await readiness(forward, dependencies);
  if (ready.kind === "wait") await queueForward(dependencies.pool, job, ready.until);
  if (ready.kind !== "send") return;
  await attemptForward(ready.forward, dependencies, (client, at) =>
    queueForward(client, { ...job, attempt: job.attempt + 1 }, at).then(() => {}),
  );
}

async function runOrderedWalk(job: OrderedForwardJob, dependencies: AttemptDependencies): Promise<void> {
  const now = dependencies.now ?? (() => new Date());
  for (let sent = 0; sent < ORDERED_WALK_BATCH; sent += 1) {
    const head = await readOldestPendingForward(dependencies.pool, job.workspaceId, job.destinationId);
    if (!head) return;
    // The head waits for its retry, and everything behind it with it.
    if (head.next_attempt_at !== null && head.next_attempt_at > now()) {
      await queueOrderedWalk(dependencies.pool, job, head.next_attempt_at);
      return;
    }
    const ready = await readiness(head, dependencies);
    if (ready.kind === "wait") {
      await queueOrderedWalk(dependencies.pool, job, ready.until);
      return;
    }
    if (ready.kind === "ended") continue;
    const outcome = await attemptForward(ready.forward, dependencies, (client, at) =>
      queueOrderedWalk(client, job, at).then(() => {}),
    );
    if (outcome.kind === "retry") return;
  }
  await queueOrderedWalk(dependencies.pool, job, now());
}

/** The task list a forwarding worker runs. */
export function forwardTasks(dependencies: AttemptDependencies): TaskList {
  return {
    forward: (payload) => runForward(payload as ForwardJob, dependencies),
    "forward-ordered": (payload) => runOrderedWalk(payload as OrderedForwardJob, dependencies),
  };
}
