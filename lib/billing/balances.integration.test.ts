import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { creditWorkspace, getBalances, recordUsage, setSubscriptionAllowance, type UsageRecord } from "./balances";

async function fundedWorkspace(allowanceCents: number, purchasedCents: number) {
  const workspace = await createWorkspace({ name: "Billing" });
  const { apiKey } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  if (allowanceCents) await setSubscriptionAllowance({ workspaceId: workspace.id, allowanceCents, note: "plan" });
  if (purchasedCents) await creditWorkspace({ workspaceId: workspace.id, cents: purchasedCents, note: "top-up" });
  return { workspaceId: workspace.id, apiKeyId: apiKey.id };
}

function usage(
  target: { workspaceId: string; apiKeyId: string },
  costCents: number,
  overrides: Partial<UsageRecord> = {},
): UsageRecord {
  return {
    ...target,
    keyMode: "live",
    operation: "companies_intelligence",
    inputHash: "h",
    costCents,
    debit: true,
    cached: false,
    latencyMs: 5,
    providersAttempted: 1,
    records: null,
    ...overrides,
  };
}

async function ledger(workspaceId: string) {
  return db().ledgerEntry.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

describe("balances and the ledger", () => {
  it("debits the subscription allowance first, then the purchased balance", async () => {
    const target = await fundedWorkspace(10, 50);
    expect(await recordUsage(usage(target, 4))).toEqual({ subscriptionRemainingCents: 6, purchasedBalanceCents: 50 });
    expect(await recordUsage(usage(target, 8))).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 48 });
    expect(await recordUsage(usage(target, 5))).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 43 });

    const entries = (await ledger(target.workspaceId)).filter((entry) => entry.kind === "usage");
    expect(entries.map((entry) => [entry.costCents, entry.subscriptionDeltaCents, entry.purchasedDeltaCents])).toEqual([
      [4, -4, 0],
      [8, -6, -2],
      [5, 0, -5],
    ]);
  });

  it("refuses a cost the balances cannot cover with 402 and moves nothing", async () => {
    const target = await fundedWorkspace(3, 2);
    const before = await ledger(target.workspaceId);
    const error = await recordUsage(usage(target, 6)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "payment_required" });
    expect(await getBalances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 3, purchasedBalanceCents: 2 });
    expect(await ledger(target.workspaceId)).toHaveLength(before.length);
    // Exactly enough is enough.
    expect(await recordUsage(usage(target, 5))).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
  });

  it("records test-key and cached calls without moving a balance", async () => {
    const target = await fundedWorkspace(10, 0);
    expect(await recordUsage(usage(target, 7, { debit: false, keyMode: "test" }))).toEqual({
      subscriptionRemainingCents: 10,
      purchasedBalanceCents: 0,
    });
    expect(await recordUsage(usage(target, 0, { debit: false, cached: true }))).toEqual({
      subscriptionRemainingCents: 10,
      purchasedBalanceCents: 0,
    });
    const entries = (await ledger(target.workspaceId)).filter((entry) => entry.kind === "usage");
    expect(
      entries.map((entry) => [
        entry.keyMode,
        entry.costCents,
        entry.subscriptionDeltaCents + entry.purchasedDeltaCents,
        entry.cached,
      ]),
    ).toEqual([
      ["test", 7, 0, false],
      ["live", 0, 0, true],
    ]);
  });

  it("never goes negative under 100 concurrent debits, and the ledger adds up", async () => {
    // 37 cents covers exactly 12 calls of 3 cents (with 1 cent left over).
    const target = await fundedWorkspace(20, 17);
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => recordUsage(usage(target, 3))));
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled").length;
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(succeeded).toBe(12);
    for (const outcome of refused)
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: "payment_required" });

    const balances = await getBalances(target.workspaceId);
    expect(balances).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 1 });
    const entries = await ledger(target.workspaceId);
    const moved = entries.reduce((sum, entry) => sum + entry.subscriptionDeltaCents + entry.purchasedDeltaCents, 0);
    expect(moved).toBe(balances.subscriptionRemainingCents + balances.purchasedBalanceCents);
    // No lost update: the 12 debits left 34, 31, …, 1 cents behind, each exactly once. (Timestamps are each
    // transaction's start, not its commit, so they cannot order concurrent entries; the balances after can.)
    const after = entries
      .filter((entry) => entry.kind === "usage")
      .map((entry) => entry.subscriptionRemainingCents + entry.purchasedBalanceCents);
    expect(after.sort((a, b) => b - a)).toEqual(Array.from({ length: 12 }, (_, index) => 37 - 3 * (index + 1)));
  });

  it("starts a new period when a month has passed, once, with a ledger entry", async () => {
    const target = await fundedWorkspace(30, 0);
    await recordUsage(usage(target, 25));
    await db()
      .$executeRaw`UPDATE workspaces SET period_started_at = now() - interval '2 months 3 days' WHERE id = ${target.workspaceId}`;

    const [first, second] = await Promise.all([getBalances(target.workspaceId), getBalances(target.workspaceId)]);
    expect(first).toEqual({ subscriptionRemainingCents: 30, purchasedBalanceCents: 0 });
    expect(second).toEqual(first);
    const resets = (await ledger(target.workspaceId)).filter((entry) => entry.kind === "period_reset");
    expect(resets).toHaveLength(1);
    expect(resets[0]).toMatchObject({ subscriptionDeltaCents: 25, subscriptionRemainingCents: 30 });

    const workspace = await db().workspace.findUniqueOrThrow({ where: { id: target.workspaceId } });
    const sinceStart = Date.now() - workspace.periodStartedAt.getTime();
    expect(sinceStart).toBeGreaterThanOrEqual(0);
    expect(sinceStart).toBeLessThan(32 * 24 * 3600 * 1000);
  });

  it("audits operator credits and allowance changes", async () => {
    const target = await fundedWorkspace(0, 0);
    await creditWorkspace({ workspaceId: target.workspaceId, cents: 500, note: "Invoice 42" });
    await setSubscriptionAllowance({ workspaceId: target.workspaceId, allowanceCents: 200, note: "Pro plan" });
    const entries = await ledger(target.workspaceId);
    expect(
      entries.map((entry) => [entry.kind, entry.purchasedDeltaCents, entry.subscriptionDeltaCents, entry.note]),
    ).toEqual([
      ["credit", 500, 0, "Invoice 42"],
      ["allowance", 0, 200, "Pro plan"],
    ]);
    await expect(creditWorkspace({ workspaceId: target.workspaceId, cents: -5, note: "x" })).rejects.toThrow(
      /positive/,
    );
    await expect(creditWorkspace({ workspaceId: "ws_missing", cents: 5, note: "x" })).rejects.toThrow(/No workspace/);
  });

  it("lists entries written in the same millisecond in the order they were written", async () => {
    const target = await fundedWorkspace(0, 0);
    const notes = Array.from({ length: 30 }, (_, index) => `Credit ${index}`);
    for (const note of notes) await creditWorkspace({ workspaceId: target.workspaceId, cents: 1, note });
    const entries = await ledger(target.workspaceId);
    expect(entries.map((entry) => entry.note)).toEqual(notes);
    expect(entries.map((entry) => entry.purchasedBalanceCents)).toEqual(notes.map((_, index) => index + 1));
  });

  it("is backed by a database constraint that refuses negative balances", async () => {
    const target = await fundedWorkspace(1, 0);
    await expect(
      db().$executeRaw`UPDATE workspaces SET purchased_balance_cents = -1 WHERE id = ${target.workspaceId}`,
    ).rejects.toThrow();
  });
});
