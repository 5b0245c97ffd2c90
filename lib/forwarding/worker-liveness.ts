import type pg from "pg";

/*
 * Jobs held by a dead process go back to the queue within seconds, not hours. graphile-worker 0.17 (the newest release
 * for Node 20) frees the jobs of a worker that vanished without shutting down (kill -9, a lost machine) only after
 * four hours. So each worker pool holds a PostgreSQL session-level advisory lock named after its id for as long as it
 * runs; PostgreSQL drops the lock the moment its connection dies. Any instance's sweep can then tell a live holder from
 * a dead one exactly, with no heartbeat to tune: a pool whose lock it can take is gone, and its jobs are unlocked with
 * graphile-worker's own force_unlock_workers. Jobs locked for less than LOCK_GRACE_SECONDS are left alone, which
 * covers a pool that has locked jobs but not yet its liveness lock.
 */

/** First key of the two-key advisory locks: this file's namespace (any constant not used elsewhere). */
const LIVENESS_NAMESPACE = 72_707_370;
export const LOCK_GRACE_SECONDS = 30;

/** Holds `poolId`'s liveness lock on `client` (a connection kept for the pool's life). */
export async function holdLiveness(client: pg.ClientBase, poolId: string): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [LIVENESS_NAMESPACE, poolId]);
}

/**
 * Unlocks the jobs and queues of every worker pool that holds jobs but not its liveness lock. Returns their ids. Safe
 * to run on every instance at once: taking a dead pool's lock is only a probe, released in the same statement.
 */
export async function releaseDeadWorkers(pool: pg.Pool, graceSeconds = LOCK_GRACE_SECONDS): Promise<string[]> {
  const { rows } = await pool.query<{ locked_by: string }>(
    `WITH holders AS (
       SELECT DISTINCT locked_by FROM graphile_worker._private_jobs
       WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $2)
       UNION
       SELECT DISTINCT locked_by FROM graphile_worker._private_job_queues
       WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $2)
     ),
     probed AS (
       SELECT locked_by, pg_try_advisory_lock($1, hashtext(locked_by)) AS taken FROM holders
     )
     SELECT locked_by FROM probed
     WHERE CASE WHEN taken THEN pg_advisory_unlock($1, hashtext(locked_by)) ELSE false END`,
    [LIVENESS_NAMESPACE, graceSeconds],
  );
  const dead = rows.map((row) => row.locked_by);
  if (dead.length > 0) await pool.query("SELECT graphile_worker.force_unlock_workers($1::text[])", [dead]);
  return dead;
}
