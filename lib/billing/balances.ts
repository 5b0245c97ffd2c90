import { v7 as uuidv7 } from "uuid";
import { ApiError } from "@/lib/errors";
import { db } from "@/lib/db/client";
import type { ApiKeyMode } from "@/lib/db/generated/enums";

export interface Balances {
  subscriptionRemainingCents: number;
  purchasedBalanceCents: number;
}

interface BalanceRow {
  subscription_remaining_cents: number;
  purchased_balance_cents: number;
}

/**
 * A ledger entry's id: a UUIDv7, so entries written in the same millisecond (`created_at` keeps milliseconds) still
 * list in the order they were written; this process's v7 ids increase monotonically.
 */
const newLedgerEntryId = (): string => uuidv7();

const toBalances = (row: BalanceRow): Balances => ({
  subscriptionRemainingCents: row.subscription_remaining_cents,
  purchasedBalanceCents: row.purchased_balance_cents,
});

/**
 * Starts a new subscription period when a month (or more) has passed: the remaining allowance is reset to the
 * allowance, in the same statement as its ledger entry. Idempotent and safe under concurrency (row lock).
 */
export async function startDuePeriod(workspaceId: string): Promise<void> {
  await db().$executeRaw`
    WITH due AS (
      SELECT id, subscription_remaining_cents AS before,
             (extract(year FROM age(now(), period_started_at)) * 12 + extract(month FROM age(now(), period_started_at)))::int AS months
      FROM workspaces WHERE id = ${workspaceId} AND period_started_at + interval '1 month' <= now()
      FOR UPDATE
    ),
    reset AS (
      UPDATE workspaces w
      SET subscription_remaining_cents = w.subscription_allowance_cents,
          period_started_at = w.period_started_at + make_interval(months => due.months)
      FROM due WHERE w.id = due.id
      RETURNING w.id, w.subscription_remaining_cents, w.purchased_balance_cents, due.before
    )
    INSERT INTO ledger_entries (id, workspace_id, kind, subscription_delta_cents, subscription_remaining_cents, purchased_balance_cents, note)
    SELECT ${newLedgerEntryId()}::uuid, id, 'period_reset', subscription_remaining_cents - before, subscription_remaining_cents, purchased_balance_cents,
           'New subscription period'
    FROM reset`;
}

/** The workspace's balances now, after starting a due subscription period. */
export async function getBalances(workspaceId: string): Promise<Balances> {
  await startDuePeriod(workspaceId);
  const [row] = await db().$queryRaw<BalanceRow[]>`
    SELECT subscription_remaining_cents, purchased_balance_cents FROM workspaces WHERE id = ${workspaceId}`;
  if (!row) throw new ApiError("not_found", "No such workspace.");
  return toBalances(row);
}

export interface UsageRecord {
  workspaceId: string;
  apiKeyId: string;
  keyMode: ApiKeyMode;
  operation: string;
  inputHash: string;
  /** What the call cost (test keys: what it would have cost). */
  costCents: number;
  /** False for test keys and free answers: the entry is written, no balance moves. */
  debit: boolean;
  cached: boolean;
  latencyMs: number;
  providersAttempted: number;
  records: number | null;
  /** The call's hold (holds.ts), deleted in the statement that writes the entry: captured, or released when free. */
  holdId?: string;
}

/**
 * Writes a usage entry to the ledger and, when `debit` is set, takes its cost from the subscription allowance first
 * and the purchased balance second — one statement, so the debit, its ledger row and the end of the call's hold
 * commit together. The row lock and the coverage check keep a balance from ever going negative: a cost the balance
 * can no longer cover (a hold that outlived its lifetime, an allowance lowered meanwhile) gets 402 and debits nothing.
 */
export async function recordUsage(usage: UsageRecord): Promise<Balances> {
  const cost = usage.debit ? usage.costCents : 0;
  if (cost === 0) return recordFreeUsage(usage);
  const [row] = await db().$queryRaw<BalanceRow[]>`
    WITH settled AS (
      DELETE FROM ledger_holds WHERE workspace_id = ${usage.workspaceId} AND id = ${usage.holdId ?? null}::uuid
    ),
    current AS (
      SELECT id, subscription_remaining_cents AS sub, purchased_balance_cents AS pur
      FROM workspaces WHERE id = ${usage.workspaceId}
      FOR UPDATE
    ),
    split AS (
      SELECT id, LEAST(sub, ${cost}) AS from_sub, ${cost} - LEAST(sub, ${cost}) AS from_pur
      FROM current WHERE sub + pur >= ${cost}
    ),
    debited AS (
      UPDATE workspaces w
      SET subscription_remaining_cents = w.subscription_remaining_cents - split.from_sub,
          purchased_balance_cents = w.purchased_balance_cents - split.from_pur
      FROM split WHERE w.id = split.id
      RETURNING w.id, w.subscription_remaining_cents, w.purchased_balance_cents, split.from_sub, split.from_pur
    )
    INSERT INTO ledger_entries
      (id, workspace_id, kind, api_key_id, key_mode, operation, input_hash, cost_cents, subscription_delta_cents, purchased_delta_cents,
       subscription_remaining_cents, purchased_balance_cents, cached, latency_ms, providers_attempted, records)
    SELECT ${newLedgerEntryId()}::uuid, id, 'usage', ${usage.apiKeyId}, ${usage.keyMode}::"ApiKeyMode", ${usage.operation}, ${usage.inputHash},
           ${usage.costCents}, -from_sub, -from_pur, subscription_remaining_cents, purchased_balance_cents, ${usage.cached},
           ${usage.latencyMs}, ${usage.providersAttempted}, ${usage.records}
    FROM debited
    RETURNING subscription_remaining_cents, purchased_balance_cents`;
  if (!row) throw paymentRequired(usage.costCents, usage.workspaceId);
  return toBalances(row);
}

/**
 * A usage entry that moves no money (a cached answer, a test key, a call that found nothing to charge): the balances
 * are read, not locked and rewritten, so free calls never queue behind each other or behind debits on the workspace row.
 */
async function recordFreeUsage(usage: UsageRecord): Promise<Balances> {
  const [row] = await db().$queryRaw<BalanceRow[]>`
    WITH released AS (
      DELETE FROM ledger_holds WHERE workspace_id = ${usage.workspaceId} AND id = ${usage.holdId ?? null}::uuid
    )
    INSERT INTO ledger_entries
      (id, workspace_id, kind, api_key_id, key_mode, operation, input_hash, cost_cents, subscription_delta_cents, purchased_delta_cents,
       subscription_remaining_cents, purchased_balance_cents, cached, latency_ms, providers_attempted, records)
    SELECT ${newLedgerEntryId()}::uuid, id, 'usage', ${usage.apiKeyId}, ${usage.keyMode}::"ApiKeyMode", ${usage.operation}, ${usage.inputHash},
           ${usage.costCents}, 0, 0, subscription_remaining_cents, purchased_balance_cents, ${usage.cached},
           ${usage.latencyMs}, ${usage.providersAttempted}, ${usage.records}
    FROM workspaces WHERE id = ${usage.workspaceId}
    RETURNING subscription_remaining_cents, purchased_balance_cents`;
  if (!row) throw new ApiError("not_found", "No such workspace.");
  return toBalances(row);
}

/**
 * The 402 answer. It names the way to funds: on a self-hosted server that is its operator (dashboard "Operator" page,
 * or the billing command), not a purchase page.
 */
export function paymentRequired(cents: number, workspaceId: string): ApiError {
  return new ApiError(
    "payment_required",
    `This call needs ${cents} cents and the balance of workspace ${workspaceId} cannot cover it. ` +
      "Ask an operator of this Signalbox server to add funds (dashboard: Operator > Add funds, or " +
      `\`npm run billing -- credit ${workspaceId} <cents>\`), or wait for the next subscription period. ` +
      "Test keys (sbx_test_) cost nothing.",
  );
}

/** Operator action: adds to the purchased balance, with a ledger entry naming why. */
export async function creditWorkspace(options: {
  workspaceId: string;
  cents: number;
  note: string;
}): Promise<Balances> {
  if (!Number.isInteger(options.cents) || options.cents <= 0)
    throw new Error("Credit must be a positive whole number of cents");
  const [row] = await db().$queryRaw<BalanceRow[]>`
    WITH credited AS (
      UPDATE workspaces SET purchased_balance_cents = purchased_balance_cents + ${options.cents}
      WHERE id = ${options.workspaceId}
      RETURNING id, subscription_remaining_cents, purchased_balance_cents
    )
    INSERT INTO ledger_entries (id, workspace_id, kind, purchased_delta_cents, subscription_remaining_cents, purchased_balance_cents, note)
    SELECT ${newLedgerEntryId()}::uuid, id, 'credit', ${options.cents}, subscription_remaining_cents, purchased_balance_cents, ${options.note}
    FROM credited
    RETURNING subscription_remaining_cents, purchased_balance_cents`;
  if (!row) throw new Error(`No workspace ${options.workspaceId}`);
  return toBalances(row);
}

/**
 * Operator action: sets the monthly allowance. The remaining allowance of the current period is set to the new
 * allowance as well (a plan change takes effect now), and the change is written to the ledger.
 */
export async function setSubscriptionAllowance(options: {
  workspaceId: string;
  allowanceCents: number;
  note: string;
}): Promise<Balances> {
  if (!Number.isInteger(options.allowanceCents) || options.allowanceCents < 0)
    throw new Error("Allowance must be a whole number of cents, 0 or more");
  const [row] = await db().$queryRaw<BalanceRow[]>`
    WITH current AS (
      SELECT id, subscription_remaining_cents AS before FROM workspaces WHERE id = ${options.workspaceId} FOR UPDATE
    ),
    changed AS (
      UPDATE workspaces w
      SET subscription_allowance_cents = ${options.allowanceCents}, subscription_remaining_cents = ${options.allowanceCents}
      FROM current WHERE w.id = current.id
      RETURNING w.id, w.subscription_remaining_cents, w.purchased_balance_cents, current.before
    )
    INSERT INTO ledger_entries (id, workspace_id, kind, subscription_delta_cents, subscription_remaining_cents, purchased_balance_cents, note)
    SELECT ${newLedgerEntryId()}::uuid, id, 'allowance', subscription_remaining_cents - before, subscription_remaining_cents, purchased_balance_cents, ${options.note}
    FROM changed
    RETURNING subscription_remaining_cents, purchased_balance_cents`;
  if (!row) throw new Error(`No workspace ${options.workspaceId}`);
  return toBalances(row);
}
