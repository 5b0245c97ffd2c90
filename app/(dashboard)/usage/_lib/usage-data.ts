import type { z } from "zod";
import { formatCents } from "@/app/(dashboard)/_lib/display-format";
import type { getUsageContract } from "@/lib/contracts/workspace-admin";

export type Usage = z.output<typeof getUsageContract.response>["data"];
export type LedgerEntry = Usage["recent"][number];
export type DaySpend = Usage["spendPerDay"][number];

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 24 * 3600 * 1000;

/** `YYYY-MM-DD` of an instant, in UTC (the API's days are UTC days). */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * One entry per UTC day from `days - 1` days before `today` through `today` (earlier if the API reported an earlier
 * day), with zeros for the days the API left out: it lists only days with calls, and a chart needs the quiet days.
 */
export function fillSpendPerDay(spend: readonly DaySpend[], days: number, today: Date): DaySpend[] {
  const byDay = new Map(spend.map((entry) => [entry.day, entry]));
  const last = [utcDay(today), ...spend.map((entry) => entry.day)].sort().at(-1)!;
  let cursor = Date.parse(`${last}T00:00:00.000Z`) - (days - 1) * DAY_MS;
  const first = spend.map((entry) => entry.day).sort()[0];
  if (first) cursor = Math.min(cursor, Date.parse(`${first}T00:00:00.000Z`));
  const filled: DaySpend[] = [];
  for (const end = Date.parse(`${last}T00:00:00.000Z`); cursor <= end; cursor += DAY_MS) {
    const day = utcDay(new Date(cursor));
    filled.push(byDay.get(day) ?? { day, costCents: 0, calls: 0 });
  }
  return filled;
}

export function totals(spend: readonly DaySpend[]): { costCents: number; calls: number } {
  return spend.reduce(
    (sum, entry) => ({ costCents: sum.costCents + entry.costCents, calls: sum.calls + entry.calls }),
    { costCents: 0, calls: 0 },
  );
}

/** The day that cost the most, or null when nothing was spent. */
export function busiestDay(spend: readonly DaySpend[]): DaySpend | null {
  let best: DaySpend | null = null;
  for (const entry of spend) if (entry.costCents > 0 && (!best || entry.costCents > best.costCents)) best = entry;
  return best;
}

/** `companies_domain_emails` → `Companies: domain emails`. */
export function operationLabel(operation: string): string {
  const [group, ...rest] = operation.split("_");
  if (!group) return operation;
  const head = group.charAt(0).toUpperCase() + group.slice(1);
  return rest.length ? `${head}: ${rest.join(" ")}` : head;
}

/** How much of the allowance is left, 0–1 (a zero allowance counts as used up). */
export function remainingShare(remainingCents: number, allowanceCents: number): number {
  if (allowanceCents <= 0) return 0;
  return Math.min(1, Math.max(0, remainingCents / allowanceCents));
}

export interface LedgerRow {
  kind: string;
  /** Money moved: a call's charge, or a signed change of a balance. */
  amount: string;
  /** Why the amount differs from the price, or the operator's note. */
  detail: string | null;
}

/** What a ledger entry means in words. Money moved is what the balances moved, not the list price. */
export function describeLedgerEntry(entry: LedgerEntry, options: { locale?: string } = {}): LedgerRow {
  const moved = entry.subscriptionDeltaCents + entry.purchasedDeltaCents;
  switch (entry.kind) {
    case "usage": {
      const charged = formatCents(-moved, options);
      if (entry.keyMode === "test")
        return {
          kind: "Call",
          amount: charged,
          detail: `Test key: free (live price ${formatCents(entry.costCents, options)})`,
        };
      if (entry.cached) return { kind: "Call", amount: charged, detail: "Answered from cache: free" };
      return { kind: "Call", amount: charged, detail: null };
    }
    case "credit":
      return { kind: "Credit", amount: formatCents(moved, { ...options, signed: true }), detail: entry.note };
    case "allowance":
      return {
        kind: "Allowance changed",
        amount: formatCents(moved, { ...options, signed: true }),
        detail: entry.note,
      };
    case "period_reset":
      return {
        kind: "New period",
        amount: formatCents(moved, { ...options, signed: true }),
        detail: entry.note ?? "Allowance refilled",
      };
  }
}
