import { db } from "@/lib/db/client";
import { getBalances } from "./balances";

const RECENT_ENTRIES = 50;

/** The usage page's figures: balances, spend per UTC day and per operation over `days`, and recent ledger entries. */
export async function getUsage(options: { workspaceId: string; days: number }) {
  const { workspaceId, days } = options;
  const balances = await getBalances(workspaceId);
  const workspace = await db().workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { subscriptionAllowanceCents: true },
  });
  const since = new Date(Date.now() - days * 24 * 3600 * 1000);

  const perDay = await db().$queryRaw<{ day: string; cost_cents: bigint; calls: bigint }[]>`
    SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
           COALESCE(sum(-(subscription_delta_cents + purchased_delta_cents)), 0) AS cost_cents,
           count(*) AS calls
    FROM ledger_entries
    WHERE workspace_id = ${workspaceId} AND kind = 'usage' AND created_at >= ${since}
    GROUP BY 1 ORDER BY 1`;
  const perOperation = await db().$queryRaw<
    { operation: string; calls: bigint; cost_cents: bigint; cached_calls: bigint; test_calls: bigint }[]
  >`
    SELECT operation, count(*) AS calls,
           COALESCE(sum(-(subscription_delta_cents + purchased_delta_cents)), 0) AS cost_cents,
           count(*) FILTER (WHERE cached) AS cached_calls,
           count(*) FILTER (WHERE key_mode = 'test') AS test_calls
    FROM ledger_entries
    WHERE workspace_id = ${workspaceId} AND kind = 'usage' AND created_at >= ${since}
    GROUP BY operation ORDER BY operation`;
  const recent = await db().ledgerEntry.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: RECENT_ENTRIES,
    select: {
      id: true,
      kind: true,
      operation: true,
      keyMode: true,
      costCents: true,
      subscriptionDeltaCents: true,
      purchasedDeltaCents: true,
      cached: true,
      latencyMs: true,
      records: true,
      note: true,
      createdAt: true,
    },
  });

  return {
    balances: { subscriptionAllowanceCents: workspace.subscriptionAllowanceCents, ...balances },
    // Spend is what balances moved: test-key and cached calls count as calls at no cost.
    spendPerDay: perDay.map((row) => ({ day: row.day, costCents: Number(row.cost_cents), calls: Number(row.calls) })),
    operations: perOperation.map((row) => ({
      operation: row.operation,
      calls: Number(row.calls),
      costCents: Number(row.cost_cents),
      cachedCalls: Number(row.cached_calls),
      testCalls: Number(row.test_calls),
    })),
    recent: recent.map((entry) => ({ ...entry, createdAt: entry.createdAt.toISOString() })),
  };
}
