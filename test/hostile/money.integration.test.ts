import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema } from "@/lib/contracts/errors";
import { intelligenceContract } from "@/lib/contracts/enrichment";
import { PRICES } from "@/lib/billing/prices";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { balances, enrichmentHarness, usageRows } from "@/test/enrichment-harness";
import { startFakeBuiltWith, type FakeBuiltWith } from "@/test/fakes/builtwith-server";

/*
 * Money under a crowd: 200 priced calls at once on a balance that covers exactly N of them. The call is company
 * intelligence (technographics, flat-priced) answered by the technographics vendor adapter against its local fake,
 * which answers at once; first-party collectors are off, and `Cache-Control: no-cache` makes every call a charged
 * one. The balance is split between the subscription allowance and the purchased balance, so both are spent.
 * lib/enrichment/enrichment.integration.test.ts races 40 calls; lib/billing/balances.integration.test.ts 100 debits
 * without HTTP. This is the 200-call version over HTTP, with the database's own guard checked too.
 */

const CALLS = 200;
const PRICE = PRICES.companies_intelligence.technographics;
const COVERED = 37; // calls the balance pays for
const LEFT_OVER = PRICE - 1; // not enough for one more
const SUBSCRIPTION = 100;
const PURCHASED = COVERED * PRICE + LEFT_OVER - SUBSCRIPTION;

let app: RunningApp;
let builtWith: FakeBuiltWith;
const { raw, account } = enrichmentHarness(() => app.baseUrl, "Money under a crowd");

beforeAll(async () => {
  builtWith = await startFakeBuiltWith();
  app = await startApp({
    BUILTWITH_API_KEY: builtWith.apiKey,
    BUILTWITH_API_URL: builtWith.baseUrl,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
    SEC_EDGAR_ENABLED: "false",
    HUNTER_API_KEY: "",
    PEOPLEDATALABS_API_KEY: "",
    // 200 calls from one key in a moment is the point here, not something to throttle.
    RATE_LIMIT_API_PER_MINUTE: "0",
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await builtWith?.close();
});

describe("200 concurrent priced calls on a balance that covers exactly 37", () => {
  it("lets exactly 37 through, refuses the rest with 402, and the ledger adds up to the cent", async () => {
    expect(SUBSCRIPTION).toBeLessThan(COVERED * PRICE); // both balances are needed
    const target = await account(SUBSCRIPTION, PURCHASED);
    const before = await balances(target.workspaceId);
    expect(before).toEqual({ subscriptionRemainingCents: SUBSCRIPTION, purchasedBalanceCents: PURCHASED });
    const upstreamBefore = builtWith.requests.length;

    const answers = await Promise.all(
      Array.from({ length: CALLS }, () =>
        raw(intelligenceContract.path, {
          key: target.liveKey,
          body: { domain: "acme-robotics.example", signal: "technographics" },
          headers: { "cache-control": "no-cache" },
        }),
      ),
    );

    const statuses = answers.map((answer) => answer.status);
    const succeeded = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(
      statuses.filter((status) => status !== 200 && status !== 402),
      "only 200 and 402",
    ).toEqual([]);
    expect(succeeded).toHaveLength(COVERED);
    expect(refused).toHaveLength(CALLS - COVERED);
    for (const answer of refused) {
      const body = errorBodySchema.parse(answer.json);
      expect(body.error.code).toBe("payment_required");
    }

    // Each success saw its own debit: the balances after it are all different, never negative.
    const after = succeeded.map((answer) => {
      const meta = (
        answer.json as {
          meta: {
            costCents: number;
            cached: boolean;
            subscriptionRemainingCents: number;
            purchasedBalanceCents: number;
          };
        }
      ).meta;
      expect(meta).toMatchObject({ costCents: PRICE, cached: false });
      expect(meta.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
      expect(meta.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
      return meta.subscriptionRemainingCents + meta.purchasedBalanceCents;
    });
    expect(after.sort((a, b) => a - b)).toEqual(
      Array.from({ length: COVERED }, (_, index) => LEFT_OVER + PRICE * index),
    );

    // Subscription first, then purchased; what is left cannot pay for another call.
    const final = await balances(target.workspaceId);
    expect(final).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: LEFT_OVER });

    const rows = await usageRows(target.workspaceId);
    expect(rows).toHaveLength(COVERED);
    const moved = rows.reduce((sum, row) => sum + row.subscriptionDeltaCents + row.purchasedDeltaCents, 0);
    expect(moved).toBe(
      final.subscriptionRemainingCents +
        final.purchasedBalanceCents -
        before.subscriptionRemainingCents -
        before.purchasedBalanceCents,
    );
    expect(rows.reduce((sum, row) => sum + row.costCents, 0)).toBe(COVERED * PRICE);
    expect(rows.reduce((sum, row) => sum + row.subscriptionDeltaCents, 0)).toBe(-SUBSCRIPTION);
    expect(rows.reduce((sum, row) => sum + row.purchasedDeltaCents, 0)).toBe(-(COVERED * PRICE - SUBSCRIPTION));
    for (const row of rows) {
      expect(row).toMatchObject({
        kind: "usage",
        keyMode: "live",
        cached: false,
        costCents: PRICE,
        operation: "companies_intelligence",
      });
      expect(row.subscriptionDeltaCents + row.purchasedDeltaCents).toBe(-PRICE);
      expect(row.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
      expect(row.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
    }
    // The ledger as a whole (plan and top-up included) explains the balances exactly.
    const ledger = await db().ledgerEntry.findMany({ where: { workspaceId: target.workspaceId } });
    expect(ledger.reduce((sum, row) => sum + row.subscriptionDeltaCents, 0)).toBe(final.subscriptionRemainingCents);
    expect(ledger.reduce((sum, row) => sum + row.purchasedDeltaCents, 0)).toBe(final.purchasedBalanceCents);

    // Every success asked upstream; a refused call may or may not have (402 before upstream, or at the debit).
    const upstream = builtWith.requests.length - upstreamBefore;
    expect(upstream).toBeGreaterThanOrEqual(COVERED);
    expect(upstream).toBeLessThanOrEqual(CALLS);
    console.info(
      `[hostile] money: ${CALLS} concurrent calls, ${COVERED} × 200, ${CALLS - COVERED} × 402, ${upstream} upstream requests, final balance ${JSON.stringify(final)}`,
    );
  }, 120_000);

  it("is backed by a database constraint: no statement can make a balance negative", async () => {
    const [constraint] = await db().$queryRaw<{ definition: string }[]>`
      SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint
      WHERE conrelid = 'workspaces'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%purchased_balance_cents >= 0%'`;
    expect(constraint?.definition).toMatch(/subscription_remaining_cents >= 0/);
    expect(constraint?.definition).toMatch(/purchased_balance_cents >= 0/);

    const target = await account(1, 1);
    for (const column of ["subscription_remaining_cents", "purchased_balance_cents", "subscription_allowance_cents"]) {
      await expect(
        db().$executeRawUnsafe(`UPDATE workspaces SET ${column} = -1 WHERE id = $1`, target.workspaceId),
      ).rejects.toThrow(/23514|check constraint/i);
    }
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 1, purchasedBalanceCents: 1 });
  });
});
