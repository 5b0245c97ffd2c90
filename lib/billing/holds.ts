import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { paymentRequired, startDuePeriod } from "./balances";

/*
 * Holds: the authorisation half of the ledger. A live priced call holds what it may charge before any upstream work;
 * the statement that writes its usage entry (`recordUsage` with the hold's id) deletes the hold and debits the actual
 * cost, and a call that fails releases it. A workspace can hold only what its balance minus its other unexpired holds
 * covers, so concurrent calls can never start more upstream work than the balance pays for.
 *
 * Crash safety: a hold whose process died mid-call is never settled. It stops counting when it expires and is deleted
 * the next time the workspace places a hold; no money moved for it, so there is nothing to give back.
 */

/**
 * How long a hold counts: well past the longest a call can run (a waterfall of a few providers, each cut off after
 * 25 s at most), so a live call's hold never lapses under it, and short enough that a crashed call frees its
 * workspace's money within minutes. A call that did outlive its hold is still debited only if the balance covers it.
 */
export const HOLD_LIFETIME_SECONDS = 10 * 60;

export interface Hold {
  id: string;
  /** What the call may charge and spend upstream: min(wanted, what the balance can still hold). */
  amountCents: number;
}

/**
 * Holds up to `wantedCents` of the workspace's available balance (balance minus unexpired holds) for one call, or
 * refuses with 402 when less than `requiredCents` is available. Two statements in one transaction: the first locks
 * the workspace row, so holds are placed one at a time per workspace, and the second reads the holds after the lock
 * (one statement would keep the snapshot taken before it waited, missing a hold committed meanwhile).
 */
export async function placeHold(options: {
  workspaceId: string;
  apiKeyId: string;
  operation: string;
  wantedCents: number;
  requiredCents: number;
}): Promise<Hold> {
  const { workspaceId, apiKeyId, operation, wantedCents, requiredCents } = options;
  await startDuePeriod(workspaceId);
  const id = randomUUID();
  const [, held] = await db().$transaction(
    [
      db().$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`,
      db().$queryRaw<{ amount_cents: number }[]>`
        WITH expired AS (
          DELETE FROM ledger_holds WHERE workspace_id = ${workspaceId} AND expires_at <= now()
        ),
        available AS (
          SELECT w.subscription_remaining_cents + w.purchased_balance_cents - COALESCE((
            SELECT sum(h.amount_cents) FROM ledger_holds h WHERE h.workspace_id = w.id AND h.expires_at > now()
          ), 0)::int AS cents
          FROM workspaces w WHERE w.id = ${workspaceId}
        )
        INSERT INTO ledger_holds (id, workspace_id, api_key_id, operation, amount_cents, expires_at)
        SELECT ${id}::uuid, ${workspaceId}, ${apiKeyId}, ${operation}, LEAST(${wantedCents}::int, cents),
               now() + make_interval(secs => ${HOLD_LIFETIME_SECONDS})
        FROM available WHERE cents >= ${requiredCents}
        RETURNING amount_cents`,
    ],
    // Calls of one workspace queue for its row; a burst of them may wait a while for the pool and the lock.
    { maxWait: 30_000, timeout: 30_000 },
  );
  const [row] = held;
  if (!row) throw paymentRequired(requiredCents, workspaceId);
  return { id, amountCents: row.amount_cents };
}

/** Gives a hold back when its call ends without a usage entry (it failed). Deleting a settled hold does nothing. */
export async function releaseHold(workspaceId: string, holdId: string): Promise<void> {
  await db().$executeRaw`DELETE FROM ledger_holds WHERE workspace_id = ${workspaceId} AND id = ${holdId}::uuid`;
}
