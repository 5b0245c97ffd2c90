import type { TaskList } from "graphile-worker";
import { takeForwardSlot } from "@/lib/ratelimit/limits";
import {
  acknowledgeWhenAllAccepted,
  attemptForward,
  failForward,
  queueJob,
  readForward,
  readForwards,
  readOldestPendingForward,
  type AttemptDependencies,
  type ForwardToSend,
  type NextAttemptJob,
} from "./attempt-forward";

/*
 * The kinds of forwarding job (queued by the delivery_forwards trigger, migration 20261128030000):
 * - `forward-batch` {workspaceId, forwardIds}: the first attempts of the forwards one statement wrote to one unordered
 *   destination;
 * - `forward` {forwardId, workspaceId, attempt}: one attempt of one forward to an unordered destination (a retry, or a
 *   first attempt that waited for the rate limit), queued in the statement that records the attempt before it;
 * - `forward-ordered` {destinationId, workspaceId}: walks an ordered destination's pending forwards oldest first, one
 *   at a time; a failure that will be retried stops the walk, and the walk's next job waits for that retry.
 */

export interface ForwardJob {
  forwardId: string;
  workspaceId: string;
  attempt: number;
}

export interface ForwardBatchJob {
  workspaceId: string;
  forwardIds: string[];
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
  | { kind: "send"; forward: ForwardToSend & { raw_body: Buffer; delivery_headers: Record<string, string> } }
  | { kind: "wait"; until: Date }
  | { kind: "ended" };

/** Whether a pending forward can be sent now: its delivery still stored, its destination enabled, time and rate left. */
async function readiness(forward: ForwardToSend, dependencies: AttemptDependencies): Promise<Readiness> {
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

/** Makes attempt number `attempt` of `forward`, unless it was made already. */
async function forwardOnce(forward: ForwardToSend, attempt: number, dependencies: AttemptDependencies): Promise<void> {
  // This job ran before and was run again (its instance died): what it recorded stands. A success whose instance
  // died before acknowledging acknowledges now.
  if (forward.status !== "pending" || forward.attempt_count !== attempt - 1) {
    if (forward.status === "succeeded" && forward.auto_acknowledge)
      await acknowledgeWhenAllAccepted(dependencies.pool, forward);
    return;
  }
  const job: ForwardJob = { forwardId: forward.id, workspaceId: forward.workspace_id, attempt };
  const ready = await readiness(forward, dependencies);
  if (ready.kind === "wait") await queueJob(dependencies.pool, forwardJob(job), ready.until);
  if (ready.kind !== "send") return;
  await dependencies.limit(() =>
    attemptForward(ready.forward, dependencies, forwardJob({ ...job, attempt: attempt + 1 })),
  );
}

async function runForward(job: ForwardJob, dependencies: AttemptDependencies): Promise<void> {
  const forward = await readForward(dependencies.pool, job.workspaceId, job.forwardId);
  if (forward) await forwardOnce(forward, job.attempt, dependencies); // else deleted with its destination
}

/** The first attempts of the forwards one statement wrote to one destination, as many at once as the limit allows. */
async function runForwardBatch(job: ForwardBatchJob, dependencies: AttemptDependencies): Promise<void> {
  const forwards = await readForwards(dependencies.pool, job.workspaceId, job.forwardIds);
  const settled = await Promise.allSettled(forwards.map((forward) => forwardOnce(forward, 1, dependencies)));
  // The job fails (and is run again later) if any forward could not be recorded; those recorded are skipped then.
  const failed = settled.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
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
    const outcome = await dependencies.limit(() => attemptForward(ready.forward, dependencies, orderedWalkJob(job)));
    if (outcome.kind === "retry") return;
  }
  await queueJob(dependencies.pool, orderedWalkJob(job), now());
}

/** The task list a forwarding worker runs. */
export function forwardTasks(dependencies: AttemptDependencies): TaskList {
  return {
    forward: (payload) => runForward(payload as ForwardJob, dependencies),
    "forward-batch": (payload) => runForwardBatch(payload as ForwardBatchJob, dependencies),
    "forward-ordered": (payload) => runOrderedWalk(payload as OrderedForwardJob, dependencies),
  };
}
