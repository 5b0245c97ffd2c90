import { afterAll, describe, expect, it } from "vitest";
import { db, dbPool } from "./client";

/*
 * A server that stops answering in the middle of a transaction (here: its one backend process stopped with SIGSTOP)
 * makes the statement time out on our side while it is still running there, and the ROLLBACK time out behind it. The
 * connection then goes back to the pool inside that transaction: it must be closed, never lent again, or the next
 * borrower's writes would run (and be acknowledged) inside a transaction that never commits.
 */

// Read by `db()` on first use: this file's pool gives up on an unanswered statement after 0.5 s + 1 s.
process.env.DATABASE_STATEMENT_TIMEOUT_MS = "500";
process.env.DATABASE_POOL_SIZE = "1";

let stopped: number | undefined;
afterAll(() => {
  if (stopped) process.kill(stopped, "SIGCONT");
});

describe("a connection whose transaction went unanswered", () => {
  it("is closed, not handed to the next borrower", async () => {
    await db().$executeRawUnsafe("CREATE TABLE frozen_probe (n int)");
    const transaction = db().$transaction(
      async (tx) => {
        const [{ pid }] = await tx.$queryRaw<[{ pid: number }]>`SELECT pg_backend_pid() AS pid`;
        await tx.$executeRaw`INSERT INTO frozen_probe VALUES (1)`;
        stopped = pid;
        process.kill(pid, "SIGSTOP");
        await tx.$queryRaw`SELECT 1`; // unanswered: the backend is stopped
      },
      { timeout: 10_000 },
    );
    await expect(transaction).rejects.toThrow();
    process.kill(stopped!, "SIGCONT");
    const frozenPid = stopped;
    stopped = undefined;

    // The pool holds one connection at most: the next query gets a fresh one, in no transaction, on another backend.
    const { rows } = await dbPool().query<{ pid: number; inTransaction: boolean }>(
      'SELECT pg_backend_pid() AS pid, now() <> statement_timestamp() AS "inTransaction"',
    );
    expect(rows[0]).toEqual({ pid: expect.any(Number) as unknown, inTransaction: false });
    expect(rows[0]!.pid).not.toBe(frozenPid);
    // And the half-done transaction never committed.
    expect(await db().$queryRaw`SELECT count(*)::int AS n FROM frozen_probe`).toEqual([{ n: 0 }]);
  });
});
