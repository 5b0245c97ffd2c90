import type { TaskList } from "graphile-worker";
import { takeForwardSlot } from "@/lib/ratelimit/limits";
import {
  acknowledgeWhenAllAccepted,
  attemptForward,
  failForward,
  queueJob,
  readForward,
  readOldestPendingForward,
  type AttemptDependencies,
  type ForwardRow,
  type NextAttemptJob,
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

function forwardJob(job: ForwardJob): NextAttemptJob {
  return { identifier: "forward", payload: job, queueName: null, jobKey: null };
}

function orderedWalkJob(job: OrderedForwardJob): NextAttemptJob {
  const key = `ordered:${job.destinationId}`;
  return { identifier: "forward-ordered", payload: job, queueName: key, jobKey: key };
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
  if (!forward) return; // deleted with its destination
  // This job ran before and was run again (its instance died): what it recorded stands. A success whose instance
  // died before acknowledging acknowledges now.
  if (forward.status !== "pending" || forward.attempt_count !== job.attempt - 1) {
    if (forward.status === "succeeded" && forward.auto_acknowledge)
      await acknowledgeWhenAllAccepted(dependencies.pool, forward);
    return;
  }
  const ready = await readiness(forward, dependencies);
  if (ready.kind === "wait") await queueJob(dependencies.pool, forwardJob(job), ready.until);
  if (ready.kind !== "send") return;
  await attemptForward(ready.forward, dependencies, forwardJob({ ...job, attempt: job.attempt + 1 }));
}

async function runOrderedWalk(job: OrderedForwardJob, dependencies: AttemptDependencies): Promise<void> {
  const now = dependencies.now ?? (() => new Date());
  for (let sent = 0; sent < ORDERED_WALK_BATCH; sent += 1) {
    const head = await readOldestPendingForward(dependencies.pool, job.workspaceId, job.destinationId);
    if (!head) return;
    // The head waits for its retry, and everything behind it with it.
    if (head.next_attempt_at !== null && head.next_attempt_at > now()) {
      await queueJob(dependencies.pool, orderedWalkJob(job), head.next_attempt_at);
      return;
    }
    const ready = await readiness(head, dependencies);
    if (ready.kind === "wait") {
      await queueJob(dependencies.pool, orderedWalkJob(job), ready.until);
      return;
    }
    if (ready.kind === "ended") continue;
    const outcome = await attemptForward(ready.forward, dependencies, orderedWalkJob(job));
    if (outcome.kind === "retry") return;
  }
  await queueJob(dependencies.pool, orderedWalkJob(job), now());
}

/** The task list a forwarding worker runs. */
export function forwardTasks(dependencies: AttemptDependencies): TaskList {
  return {
    forward: (payload) => runForward(payload as ForwardJob, dependencies),
    "forward-ordered": (payload) => runOrderedWalk(payload as OrderedForwardJob, dependencies),
  };
}
