import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { domainEmailsContract, intelligenceContract } from "@/lib/contracts/enrichment";
import { db } from "@/lib/db/client";
import { PRICES } from "@/lib/billing/prices";
import { startApp, type RunningApp } from "@/test/app-server";
import { balances, enrichmentHarness, usageRows } from "@/test/enrichment-harness";
import { startFakeHunter, type FakeHunter } from "@/test/fakes/hunter-server";
import { errorOf } from "@/test/http-api";

/*
 * The money rules over real HTTP (DESIGN §5, Pricing): a call holds what it may charge before any upstream work, so a
 * crowd of calls cannot make more paid vendor calls than the balance pays for; a hold left by a process that died
 * stops counting when it expires; a workspace repeats its own paid answer free, but another workspace's answer is
 * charged like a fresh one and looks like one; a call for which no source could be attempted is free. The app runs
 * with the email-finder vendor against its local fake (which counts its calls) and no first-party collector.
 */

const DOMAIN_EMAILS = domainEmailsContract.path;
const INTELLIGENCE = intelligenceContract.path;
const ACME = "acme-robotics.example";
const GLOBEX = "globex-logistics.example";
const MIN_DOMAIN_EMAILS_CENTS = PRICES.companies_domain_emails.baseCents;
const APP_ENV = {
  OUTBOUND_ALLOW_LOOPBACK: "true",
  ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
  SEC_EDGAR_ENABLED: "false",
  PEOPLEDATALABS_API_KEY: "",
  BUILTWITH_API_KEY: "",
  // A crowd of calls from one key is the point here, not something to throttle.
  RATE_LIMIT_API_PER_MINUTE: "0",
};

let app: RunningApp;
let hunter: FakeHunter;
const { raw, account } = enrichmentHarness(() => app.baseUrl, "Money rules");

const hunterEnv = () => ({ ...APP_ENV, HUNTER_API_KEY: hunter.apiKey, HUNTER_API_URL: hunter.baseUrl });
/** Paid calls the vendor fake received (its domain search is what domain-emails buys). */
const vendorCalls = () => hunter.requests.filter((request) => request.path.endsWith("/domain-search")).length;
const holdsOf = (workspaceId: string) => db().ledgerHold.findMany({ where: { workspaceId } });
const metaOf = (json: unknown) => (json as { meta: Record<string, unknown> }).meta;

/** The usage entries explain the balance change to the cent, and no hold is left behind. */
async function expectLedgerConsistent(workspaceId: string, before: { sub: number; pur: number }) {
  const after = await balances(workspaceId);
  expect(after.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
  expect(after.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
  const rows = await usageRows(workspaceId);
  expect(rows.reduce((sum, row) => sum + row.subscriptionDeltaCents, 0)).toBe(
    after.subscriptionRemainingCents - before.sub,
  );
  expect(rows.reduce((sum, row) => sum + row.purchasedDeltaCents, 0)).toBe(after.purchasedBalanceCents - before.pur);
  for (const row of rows) expect(row.costCents + row.subscriptionDeltaCents + row.purchasedDeltaCents).toBe(0);
  expect(await holdsOf(workspaceId)).toEqual([]);
  return { after, rows };
}

beforeAll(async () => {
  hunter = await startFakeHunter({ slowMs: 20_000 });
  app = await startApp(hunterEnv());
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await hunter?.close();
});

beforeEach(async () => {
  hunter.setMode("normal");
  await db().enrichmentCacheEntry.deleteMany();
});

describe("reserve before spending", () => {
  it.each([
    [1, 1],
    [4, 7],
  ])(
    "200 concurrent domain-emails calls on %i¢ allowance + %i¢ purchased make no more vendor calls than the balance pays for",
    async (sub, pur) => {
      const target = await account(sub, pur);
      const payable = Math.floor((sub + pur) / MIN_DOMAIN_EMAILS_CENTS);
      const vendorBefore = vendorCalls();

      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          raw(DOMAIN_EMAILS, {
            key: target.liveKey,
            // At most 3¢ a call (2 + 1 address), so several holds fit in the larger balance at once.
            body: { domain: ACME, limit: 1 },
            headers: { "cache-control": "no-cache" },
          }),
        ),
      );

      expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 402)).toEqual([]);
      for (const answer of answers.filter((item) => item.status === 402))
        expect(errorOf(answer.json).code).toBe("payment_required");
      const succeeded = answers.filter((answer) => answer.status === 200);
      expect(succeeded.length).toBeGreaterThanOrEqual(1);
      expect(succeeded.length).toBeLessThanOrEqual(payable);
      expect(vendorCalls() - vendorBefore).toBeLessThanOrEqual(payable);

      const { after, rows } = await expectLedgerConsistent(target.workspaceId, { sub, pur });
      const charged = succeeded.reduce((sum, answer) => sum + (metaOf(answer.json).costCents as number), 0);
      expect(charged).toBe(sub + pur - after.subscriptionRemainingCents - after.purchasedBalanceCents);
      expect(rows).toHaveLength(succeeded.length);
    },
    120_000,
  );

  it("a hold left by a process killed mid-call blocks its money only until it expires, and the ledger stays consistent", async () => {
    const target = await account(0, 10);
    // A second instance of the app on the same database, killed while its call waits for the vendor.
    const doomed = await startApp(hunterEnv());
    try {
      hunter.setMode("slow");
      const vendorBefore = vendorCalls();
      const pending = fetch(`${doomed.baseUrl}${DOMAIN_EMAILS}`, {
        method: "POST",
        headers: { authorization: `Bearer ${target.liveKey}`, "content-type": "application/json" },
        body: JSON.stringify({ domain: ACME, limit: 8 }),
      }).catch(() => null);
      await expect.poll(vendorCalls, { timeout: 20_000 }).toBeGreaterThan(vendorBefore);
      await doomed.stop("SIGKILL");
      await pending;
    } finally {
      await doomed.stop("SIGKILL");
    }
    hunter.setMode("normal");

    // The crashed call held its maximum price (2 + 8 = 10): the whole balance, so nothing else can start.
    const [hold] = await holdsOf(target.workspaceId);
    expect(hold).toMatchObject({ amountCents: 10, operation: "companies_domain_emails" });
    const vendorBefore = vendorCalls();
    const blocked = await raw(DOMAIN_EMAILS, { key: target.liveKey, body: { domain: ACME, limit: 2 } });
    expect(blocked.status).toBe(402);
    expect(vendorCalls()).toBe(vendorBefore);

    // Once it expires (its lifetime passed), it no longer counts and is cleaned up by the next call.
    await db().ledgerHold.updateMany({ where: { id: hold!.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const answer = await raw(DOMAIN_EMAILS, { key: target.liveKey, body: { domain: ACME, limit: 2 } });
    expect(answer.status).toBe(200);
    expect(metaOf(answer.json)).toMatchObject({ costCents: 4, purchasedBalanceCents: 6, cached: false });
    // The crashed call moved no money and wrote no usage entry: the ledger holds the one answered call.
    const { rows } = await expectLedgerConsistent(target.workspaceId, { sub: 0, pur: 10 });
    expect(rows.map((row) => row.costCents)).toEqual([4]);
  }, 120_000);
});

describe("the answer cache is each workspace's own", () => {
  it("charges another workspace for an answer one paid for, like a fresh answer, and refuses it without a balance", async () => {
    const first = await account(0, 100);
    const broke = await account(0, 0);
    const second = await account(0, 100);
    const body = { domain: GLOBEX, limit: 2 };

    const paid = await raw(DOMAIN_EMAILS, { key: first.liveKey, body });
    expect(paid.status).toBe(200);
    expect(metaOf(paid.json)).toMatchObject({ cached: false, costCents: 4, providersAttempted: 1 });
    const vendorAfterFirst = vendorCalls();

    // 0¢: refused before anything, exactly as for a domain nobody asked about, so nothing shows what others asked.
    const refused = await raw(DOMAIN_EMAILS, { key: broke.liveKey, body });
    const refusedUnasked = await raw(DOMAIN_EMAILS, { key: broke.liveKey, body: { domain: ACME, limit: 2 } });
    expect([refused.status, refusedUnasked.status]).toEqual([402, 402]);
    expect(refused.json).toEqual(refusedUnasked.json);
    expect(await usageRows(broke.workspaceId)).toEqual([]);

    // With a balance: charged as a fresh answer and reported as one (only the balances and latency differ).
    const bought = await raw(DOMAIN_EMAILS, { key: second.liveKey, body });
    expect(bought.status).toBe(200);
    expect(metaOf(bought.json)).toEqual({
      ...metaOf(paid.json),
      latencyMs: expect.any(Number),
      purchasedBalanceCents: 96,
    });
    expect((bought.json as { data: unknown }).data).toEqual((paid.json as { data: unknown }).data);
    const [row] = await usageRows(second.workspaceId);
    expect(row).toMatchObject({ costCents: 4, cached: false, providersAttempted: 1, purchasedDeltaCents: -4 });
    // The paid answer was the source: the vendor was not bought from again.
    expect(vendorCalls()).toBe(vendorAfterFirst);

    // Each workspace that paid now repeats its own call free.
    for (const target of [first, second]) {
      const again = await raw(DOMAIN_EMAILS, { key: target.liveKey, body });
      expect(metaOf(again.json)).toMatchObject({
        cached: true,
        costCents: 0,
        providersAttempted: 0,
        purchasedBalanceCents: 96,
      });
    }
    await expectLedgerConsistent(second.workspaceId, { sub: 0, pur: 100 });
  });
});

describe("no charge when no source could be attempted", () => {
  it("answers funding with no funding source at 0¢, with a complete meta", async () => {
    const target = await account(0, 20);
    const answer = await raw(INTELLIGENCE, { key: target.liveKey, body: { domain: ACME, signal: "funding" } });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      success: true,
      data: { domain: ACME, signal: "funding", funding: null },
      meta: {
        costCents: 0,
        purchasedBalanceCents: 20,
        subscriptionRemainingCents: 0,
        cached: false,
        latencyMs: expect.any(Number),
        priceRange: {
          minCents: PRICES.companies_intelligence.funding,
          maxCents: PRICES.companies_intelligence.funding,
        },
        providersAttempted: 0,
        fieldsReturned: [],
        fieldsMissing: ["funding"],
      },
    });
    const { rows } = await expectLedgerConsistent(target.workspaceId, { sub: 0, pur: 20 });
    expect(rows).toMatchObject([{ costCents: 0, providersAttempted: 0 }]);
  });
});
