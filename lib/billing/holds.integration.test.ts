import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";
import { creditWorkspace, getBalances, recordUsage } from "./balances";
import { HOLD_LIFETIME_SECONDS, placeHold, releaseHold } from "./holds";

async function fundedWorkspace(purchasedCents: number) {
  const workspace = await createWorkspace({ name: "Holds" });
  const { apiKey } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  if (purchasedCents) await creditWorkspace({ workspaceId: workspace.id, cents: purchasedCents, note: "top-up" });
  return { workspaceId: workspace.id, apiKeyId: apiKey.id };
}

const hold = (target: { workspaceId: string; apiKeyId: string }, wantedCents: number, requiredCents: number) =>
  placeHold({ ...target, operation: "companies_domain_emails", wantedCents, requiredCents });

const holdsOf = (workspaceId: string) => db().ledgerHold.findMany({ where: { workspaceId } });

describe("holds", () => {
  it("never holds more than the balance, however many calls ask at once", async () => {
    const target = await fundedWorkspace(10);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => hold(target, 3, 2)));
    const placed = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    // 3 + 3 + 3 fit; the last cent is below the 2 a call needs.
    expect(placed.map((item) => item.amountCents)).toEqual([3, 3, 3]);
    for (const result of results.filter((item) => item.status === "rejected"))
      expect(result.reason).toMatchObject({ code: "payment_required" });
    expect((await holdsOf(target.workspaceId)).reduce((sum, row) => sum + row.amountCents, 0)).toBe(9);
    // Holds move no money: the balance is untouched until a hold is captured.
    expect(await getBalances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 10 });
  });

  it("holds less than wanted when that is all the balance can still hold, but never less than required", async () => {
    const target = await fundedWorkspace(7);
    expect((await hold(target, 5, 2)).amountCents).toBe(5);
    expect((await hold(target, 5, 2)).amountCents).toBe(2);
    await expect(hold(target, 5, 1)).rejects.toBeInstanceOf(ApiError);
  });

  it("captures the actual cost in the usage entry's statement and gives the rest back; release frees a failed call's hold", async () => {
    const target = await fundedWorkspace(10);
    const captured = await hold(target, 10, 2);
    await expect(hold(target, 2, 2)).rejects.toMatchObject({ code: "payment_required" });
    const balances = await recordUsage({
      ...target,
      keyMode: "live",
      operation: "companies_domain_emails",
      inputHash: "h",
      costCents: 4,
      debit: true,
      cached: false,
      latencyMs: 1,
      providersAttempted: 1,
      records: 2,
      holdId: captured.id,
    });
    expect(balances).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 6 });
    expect(await holdsOf(target.workspaceId)).toEqual([]);

    const failed = await hold(target, 6, 2);
    expect(failed.amountCents).toBe(6);
    await releaseHold(target.workspaceId, failed.id);
    expect(await holdsOf(target.workspaceId)).toEqual([]);
    expect((await hold(target, 6, 2)).amountCents).toBe(6);
  });

  it("stops counting a hold when it expires, and deletes it when the workspace next holds", async () => {
    const target = await fundedWorkspace(5);
    const placed = await hold(target, 5, 2);
    const [row] = await holdsOf(target.workspaceId);
    const lifetimeMs = row!.expiresAt.getTime() - row!.createdAt.getTime();
    expect(Math.abs(lifetimeMs - HOLD_LIFETIME_SECONDS * 1000)).toBeLessThan(60_000);
    await expect(hold(target, 5, 2)).rejects.toMatchObject({ code: "payment_required" });

    // As a process that died mid-call leaves it, once its lifetime has passed.
    await db().ledgerHold.updateMany({ where: { id: placed.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const next = await hold(target, 5, 2);
    expect(next.amountCents).toBe(5);
    expect((await holdsOf(target.workspaceId)).map((item) => item.id)).toEqual([next.id]);
  });

  it("settles nothing but the usage entry when the hold is unknown (already released or expired and deleted)", async () => {
    const target = await fundedWorkspace(5);
    const balances = await recordUsage({
      ...target,
      keyMode: "live",
      operation: "companies_domain_emails",
      inputHash: "h",
      costCents: 2,
      debit: true,
      cached: false,
      latencyMs: 1,
      providersAttempted: 1,
      records: 0,
      holdId: randomUUID(),
    });
    expect(balances).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 3 });
  });
});
