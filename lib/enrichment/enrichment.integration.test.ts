import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { domainEmailsContract, intelligenceContract } from "@/lib/contracts/enrichment";
import { db } from "@/lib/db/client";
import { liveProviders } from "@/lib/providers/registry";
import { startApp, type RunningApp } from "@/test/app-server";
import { type Account, balances, enrichmentHarness, usageRows } from "@/test/enrichment-harness";
import {
  FAKE_HUNTER_COMPANIES,
  startFakeHunter,
  type FakeHunter,
  type FakeHunterMode,
} from "@/test/fakes/hunter-server";
import { detailPaths, errorOf } from "@/test/http-api";
import { inputHash } from "@/lib/billing/answer-cache";

/*
 * The two enrichment endpoints over real HTTP: the launcher in its own process with the email-finder adapter pointed
 * at a local fake of its vendor, and this file's own database for the balances, the ledger and the cache.
 * Each test makes its own workspace; another workspace's cached answer is a source for the next, so the cache is
 * emptied before each test.
 */

const DOMAIN_EMAILS = domainEmailsContract.path;
const INTELLIGENCE = intelligenceContract.path;
const ACME = "acme-robotics.example";
const GLOBEX = "globex-logistics.example";
const QUIET = "quiet-holdings.example";
/** Everything the domain-emails operation asks its providers for (reported in fieldsReturned / fieldsMissing). */
const DOMAIN_EMAIL_FIELDS = ["domain", "organization", "pattern", "acceptAll", "webmail", "disposable", "emails"];
/** DESIGN §5: every field of one email. */
const EMAIL_KEYS = [
  "confidence",
  "department",
  "firstName",
  "lastName",
  "linkedin",
  "phoneNumber",
  "position",
  "seniority",
  "sources",
  "twitter",
  "type",
  "value",
  "verification",
];
const FIRST_PARTY_PROVIDERS = "website,fingerprints,company-store,public-filings";
/** The adapter's default time limit is 10 s; the fake's slow mode answers after this much longer. */
const FAKE_SLOW_MS = 12_000;

let app: RunningApp;
const { recorded, raw, account } = enrichmentHarness(() => app.baseUrl, "Enrichment tests");
let fake: FakeHunter;

// ---------------------------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------------------------
// Money and keys.

type UsageRow = Awaited<ReturnType<typeof usageRows>>[number];

/** The meta of a 200 answer's raw JSON. */
function metaOf(json: unknown): Record<string, unknown> {
  return (json as { meta: Record<string, unknown> }).meta;
}

/** Asserts the meta's balances are the database's, and returns the one usage row written since `before`. */
async function expectOneNewRow(
  workspaceId: string,
  before: UsageRow[],
  meta: Record<string, unknown>,
): Promise<UsageRow> {
  expect(await balances(workspaceId)).toEqual({
    subscriptionRemainingCents: meta.subscriptionRemainingCents,
    purchasedBalanceCents: meta.purchasedBalanceCents,
  });
  const seen = new Set(before.map((row) => row.id));
  const fresh = (await usageRows(workspaceId)).filter((row) => !seen.has(row.id));
  expect(fresh).toHaveLength(1);
  return fresh[0] as UsageRow;
}

/** A usage row says what the answer's meta says. */
function expectRowMatchesMeta(
  row: UsageRow,
  meta: Record<string, unknown>,
  expected: {
    operation: string;
    apiKeyId: string;
    keyMode: "live" | "test";
    subscriptionDelta: number;
    purchasedDelta: number;
  },
) {
  expect(row).toMatchObject({
    kind: "usage",
    operation: expected.operation,
    apiKeyId: expected.apiKeyId,
    keyMode: expected.keyMode,
    costCents: meta.costCents,
    subscriptionDeltaCents: expected.subscriptionDelta,
    purchasedDeltaCents: expected.purchasedDelta,
    subscriptionRemainingCents: meta.subscriptionRemainingCents,
    purchasedBalanceCents: meta.purchasedBalanceCents,
    cached: meta.cached,
    latencyMs: meta.latencyMs,
    providersAttempted: meta.providersAttempted,
    records: meta.records ?? null,
  });
  expect(row.inputHash).toMatch(/^[0-9a-f]{64}$/);
}

// ---------------------------------------------------------------------------------------------------------------
// What the fake knows, in the API's shape and order.

type FakeCompany = (typeof FAKE_HUNTER_COMPANIES)[number];

function fakeCompany(domain: string): FakeCompany {
  const company = FAKE_HUNTER_COMPANIES.find((item) => item.domain === domain);
  if (!company) throw new Error(`The fake does not know ${domain}`);
  return company;
}

/** The fake's addresses of `domain` as the API should answer them: DESIGN §5 names, most confident first, then by address. */
function expectedEmails(domain: string, filter: (email: FakeCompany["emails"][number]) => boolean = () => true) {
  return fakeCompany(domain)
    .emails.filter(filter)
    .map((email) => ({
      value: email.value,
      type: email.type,
      confidence: email.confidence,
      firstName: email.first_name,
      lastName: email.last_name,
      position: email.position,
      seniority: email.seniority,
      department: email.department,
      linkedin: email.linkedin ?? null,
      twitter: email.twitter ?? null,
      phoneNumber: email.phone_number ?? null,
      sources: email.sources.map((item) => ({ uri: item.uri, extractedOn: item.extracted_on })),
      verification: { date: email.verification.date, status: email.verification.status },
    }))
    .sort((a, b) => b.confidence - a.confidence || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  fake = await startFakeHunter({ slowMs: FAKE_SLOW_MS });
  // This process builds the same provider list as the app (for the leak scan's provider ids).
  // The first-party collectors have their own file (lib/providers/first-party/first-party.integration.test.ts): here
  // the engine runs with the vendor adapter alone, reached on loopback.
  const appEnv = {
    HUNTER_API_KEY: fake.apiKey,
    HUNTER_API_URL: fake.baseUrl,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    ENRICHMENT_PROVIDERS_DISABLED: FIRST_PARTY_PROVIDERS,
  };
  Object.assign(process.env, appEnv);
  app = await startApp(appEnv);
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

beforeEach(async () => {
  fake.setMode("normal");
  await db().enrichmentCacheEntry.deleteMany();
});

describe("request validation", () => {
  let target: Account;

  beforeAll(async () => {
    target = await account(100, 100);
  });

  const domainEmailCases: [string, unknown, string[]][] = [
    ["unknown keys", { domain: ACME, foo: 1, bar: "x" }, ["bar", "foo"]],
    ["a numeric domain", { domain: 42 }, ["domain"]],
    ["a boolean company", { company: true }, ["company"]],
    ["limit 0", { domain: ACME, limit: 0 }, ["limit"]],
    ["limit 101", { domain: ACME, limit: 101 }, ["limit"]],
    ["limit 1.5", { domain: ACME, limit: 1.5 }, ["limit"]],
    ['limit "10"', { domain: ACME, limit: "10" }, ["limit"]],
    ["limit null", { domain: ACME, limit: null }, ["limit"]],
    ["offset -1", { domain: ACME, offset: -1 }, ["offset"]],
    ["offset 2.5", { domain: ACME, offset: 2.5 }, ["offset"]],
    ['offset "0"', { domain: ACME, offset: "0" }, ["offset"]],
    ["an unknown type", { domain: ACME, type: "boss" }, ["type"]],
    ["an upper-case type", { domain: ACME, type: "PERSONAL" }, ["type"]],
    ["an empty domain", { domain: "" }, ["domain"]],
    ["an empty company", { company: "" }, ["company"]],
    ["a blank company", { company: "   " }, ["company"]],
    ["an empty seniority", { domain: ACME, seniority: "" }, ["seniority"]],
    ["an empty department", { domain: ACME, department: "" }, ["department"]],
    ["a numeric seniority", { domain: ACME, seniority: 3 }, ["seniority"]],
    ["neither domain nor company", {}, ["domain"]],
    ["only paging, no domain or company", { limit: 5, offset: 0, type: "personal" }, ["domain"]],
    ["a domain with a scheme", { domain: `https://${ACME}` }, ["domain"]],
    ["a domain with a path", { domain: `${ACME}/team` }, ["domain"]],
    ["a domain with a port", { domain: `${ACME}:8443` }, ["domain"]],
    ["a domain with a user", { domain: `admin@${ACME}` }, ["domain"]],
    ["an IPv4 address", { domain: "93.184.216.34" }, ["domain"]],
    ["a loopback address", { domain: "127.0.0.1" }, ["domain"]],
    ["an IPv6 address", { domain: "[::1]" }, ["domain"]],
    ["localhost", { domain: "localhost" }, ["domain"]],
    ["a .localhost name", { domain: "api.localhost" }, ["domain"]],
    ["a .local name", { domain: "printer.local" }, ["domain"]],
    ["a .internal name", { domain: "db.internal" }, ["domain"]],
    ["a single label", { domain: "intranet" }, ["domain"]],
    [
      "many bad fields at once",
      { domain: "localhost", limit: 0, offset: -1, type: "x", seniority: "", department: "", extra: true },
      ["department", "domain", "extra", "limit", "offset", "seniority", "type"],
    ],
    ["a JSON array", [], [""]],
    ["a JSON string", '"acme-robotics.example"', [""]],
    ["JSON null", "null", [""]],
  ];

  it.each(domainEmailCases)("domain-emails refuses %s with 400 naming each bad field", async (_case, body, paths) => {
    const answer = await raw(DOMAIN_EMAILS, { key: target.testKey, body });
    expect(answer.status).toBe(400);
    const error = errorOf(answer.json);
    expect(error.code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
    for (const detail of error.details ?? []) expect(detail.message).not.toBe("");
  });

  const intelligenceCases: [string, unknown, string[]][] = [
    ["an empty body object", {}, ["domain", "signal"]],
    ["a missing signal", { domain: ACME }, ["signal"]],
    ["a missing domain", { signal: "funding" }, ["domain"]],
    ["an unknown signal", { domain: ACME, signal: "revenue" }, ["signal"]],
    ["an upper-case signal", { domain: ACME, signal: "FUNDING" }, ["signal"]],
    ["an empty signal", { domain: ACME, signal: "" }, ["signal"]],
    ["a numeric signal", { domain: ACME, signal: 1 }, ["signal"]],
    ["an empty domain", { domain: "", signal: "funding" }, ["domain"]],
    ["a domain with a scheme", { domain: `http://${ACME}`, signal: "funding" }, ["domain"]],
    ["a domain with a path", { domain: `${ACME}/about`, signal: "funding" }, ["domain"]],
    ["a domain with a port", { domain: `${ACME}:80`, signal: "funding" }, ["domain"]],
    ["an IP address", { domain: "10.0.0.1", signal: "funding" }, ["domain"]],
    ["localhost", { domain: "localhost", signal: "competitors" }, ["domain"]],
    ["a .local name", { domain: "nas.local", signal: "technographics" }, ["domain"]],
    ["unknown keys", { domain: ACME, signal: "funding", limit: 5 }, ["limit"]],
    ["many bad fields at once", { domain: "localhost", signal: "x", extra: 1 }, ["domain", "extra", "signal"]],
    ["a JSON array", [{ domain: ACME, signal: "funding" }], [""]],
  ];

  it.each(intelligenceCases)("intelligence refuses %s with 400 naming each bad field", async (_case, body, paths) => {
    const answer = await raw(INTELLIGENCE, { key: target.testKey, body });
    expect(answer.status).toBe(400);
    expect(errorOf(answer.json).code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
  });

  describe.each([
    ["domain-emails", DOMAIN_EMAILS, { domain: ACME }],
    ["intelligence", INTELLIGENCE, { domain: ACME, signal: "funding" }],
  ])("%s", (_name, path, goodBody) => {
    it("refuses malformed JSON with 400", async () => {
      const answer = await raw(path, { key: target.testKey, body: '{"domain": "acme-robotics.example",' });
      expect(answer.status).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
    });

    it("refuses a missing body with 400", async () => {
      const answer = await raw(path, { key: target.testKey });
      expect(answer.status).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
    });

    it.each(["text/plain", "application/x-www-form-urlencoded", "application/xml"])(
      "refuses a %s body with 415",
      async (contentType) => {
        const answer = await raw(path, { key: target.testKey, body: JSON.stringify(goodBody), contentType });
        expect(answer.status).toBe(415);
        expect(errorOf(answer.json).code).toBe("unsupported_media_type");
      },
    );

    it("accepts application/json with a charset and application/*+json", async () => {
      for (const contentType of ["application/json; charset=utf-8", "application/vnd.api+json"]) {
        const answer = await raw(path, { key: target.testKey, body: goodBody, contentType });
        expect(answer.status, contentType).toBe(200);
      }
    });

    it.each(["abc", "-1", "1.5", "Infinity"])("refuses X-Budget-Cents %j with 400 naming the header", async (value) => {
      const answer = await raw(path, { key: target.liveKey, body: goodBody, headers: { "x-budget-cents": value } });
      expect(answer.status).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
      expect(detailPaths(answer.json)).toEqual(["x-budget-cents"]);
    });
  });

  it("moves no money, writes no ledger row and calls no provider for a refused request", async () => {
    const target = await account(100, 100);
    const requestsBefore = fake.requests.length;
    const before = await balances(target.workspaceId);
    await raw(DOMAIN_EMAILS, { key: target.liveKey, body: { domain: ACME, limit: 0 } });
    await raw(DOMAIN_EMAILS, { key: target.liveKey, body: { domain: ACME }, headers: { "x-budget-cents": "abc" } });
    await raw(DOMAIN_EMAILS, { key: target.liveKey, body: "{", contentType: "application/json" });
    await raw(INTELLIGENCE, { key: target.liveKey, body: { domain: ACME, signal: "nope" } });
    expect(await balances(target.workspaceId)).toEqual(before);
    expect(await usageRows(target.workspaceId)).toEqual([]);
    expect(fake.requests.length).toBe(requestsBefore);
  });
});

describe("authentication", () => {
  const cases: [string, (keys: { revokedLive: string; revokedTest: string }) => string | undefined][] = [
    ["no Authorization header", () => undefined],
    ["an empty bearer", () => "Bearer "],
    ["another scheme", () => "Basic dXNlcjpwYXNz"],
    ["a malformed key", () => "Bearer sbx_live_short"],
    ["an unknown live key", () => `Bearer sbx_live_${"A".repeat(40)}`],
    ["an unknown test key", () => `Bearer sbx_test_${"B".repeat(40)}`],
    ["a revoked live key", (keys) => `Bearer ${keys.revokedLive}`],
    ["a revoked test key", (keys) => `Bearer ${keys.revokedTest}`],
  ];
  let keys: { revokedLive: string; revokedTest: string };
  let target: Account;

  beforeAll(async () => {
    target = await account(50, 50);
    const workspace = await createWorkspace({ name: "Revoked" });
    const live = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
    const test = await createApiKey({ workspaceId: workspace.id, name: "test", mode: "test" });
    await revokeApiKey({ workspaceId: workspace.id, apiKeyId: live.apiKey.id });
    await revokeApiKey({ workspaceId: workspace.id, apiKeyId: test.apiKey.id });
    keys = { revokedLive: live.key, revokedTest: test.key };
  });

  describe.each([
    ["domain-emails", DOMAIN_EMAILS, { domain: ACME }],
    ["intelligence", INTELLIGENCE, { domain: ACME, signal: "technographics" }],
  ])("%s", (_name, path, body) => {
    it.each(cases)("answers 401 with the error body for %s", async (_case, authorization) => {
      const requestsBefore = fake.requests.length;
      const header = authorization(keys);
      const answer = await raw(path, { body, ...(header === undefined ? { key: null } : { authorization: header }) });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(answer.json).toEqual({ success: false, error: { code: "unauthorized", message: expect.any(String) } });
      expect(fake.requests.length).toBe(requestsBefore);
    });

    it("checks the key before the body and the budget", async () => {
      const answer = await raw(path, { body: { limit: 0 }, headers: { "x-budget-cents": "abc" } });
      expect(answer.status).toBe(401);
    });
  });

  it("stops a key's calls as soon as it is revoked", async () => {
    const { key, apiKey } = await createApiKey({ workspaceId: target.workspaceId, name: "soon revoked", mode: "live" });
    expect((await raw(INTELLIGENCE, { key, body: { domain: ACME, signal: "technographics" } })).status).toBe(200);
    await revokeApiKey({ workspaceId: target.workspaceId, apiKeyId: apiKey.id });
    const before = await balances(target.workspaceId);
    expect((await raw(INTELLIGENCE, { key, body: { domain: ACME, signal: "technographics" } })).status).toBe(401);
    expect(await balances(target.workspaceId)).toEqual(before);
  });
});

describe("payment required", () => {
  it("refuses domain-emails with 402 before any upstream call when the balance is below the minimum price", async () => {
    const target = await account(1, 0);
    const requestsBefore = fake.requests.length;
    const answer = await raw(DOMAIN_EMAILS, { key: target.liveKey, body: { domain: ACME } });
    expect(answer.status).toBe(402);
    expect(errorOf(answer.json).code).toBe("payment_required");
    expect(fake.requests.length).toBe(requestsBefore);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 1, purchasedBalanceCents: 0 });
    expect(await usageRows(target.workspaceId)).toEqual([]);
  });

  it("counts the subscription and the purchased balance together", async () => {
    const target = await account(1, 1);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 5 } });
    // Exactly the minimum: the page is cut to what 2 cents buy (no address), and the balance ends at 0.
    expect(answer.meta).toMatchObject({
      costCents: 2,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 0,
      records: 0,
      budgetCentsPerRecord: 1,
    });
    expect(answer.data.emails).toEqual([]);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
  });

  it.each([
    ["funding", 9],
    ["competitors", 7],
    ["technographics", 4],
  ] as const)(
    "refuses intelligence %s with 402 when the balance is %i cents, one below its price",
    async (signal, cents) => {
      const target = await account(0, cents);
      const answer = await raw(INTELLIGENCE, { key: target.liveKey, body: { domain: ACME, signal } });
      expect(answer.status).toBe(402);
      expect(errorOf(answer.json).code).toBe("payment_required");
      expect(await balances(target.workspaceId)).toEqual({
        subscriptionRemainingCents: 0,
        purchasedBalanceCents: cents,
      });
      expect(await usageRows(target.workspaceId)).toEqual([]);
    },
  );

  it.each([
    [DOMAIN_EMAILS, { domain: ACME }, "1"],
    [DOMAIN_EMAILS, { domain: ACME, limit: 50 }, "0"],
    [INTELLIGENCE, { domain: ACME, signal: "funding" }, "9"],
    [INTELLIGENCE, { domain: ACME, signal: "competitors" }, "7"],
    [INTELLIGENCE, { domain: ACME, signal: "technographics" }, "0"],
  ])(
    "refuses %s %j with 402 when X-Budget-Cents %s is below the minimum, whatever the balance",
    async (path, body, budget) => {
      const target = await account(500, 500);
      const requestsBefore = fake.requests.length;
      const answer = await raw(path, { key: target.liveKey, body, headers: { "x-budget-cents": budget } });
      expect(answer.status).toBe(402);
      expect(errorOf(answer.json).code).toBe("payment_required");
      expect(fake.requests.length).toBe(requestsBefore);
      expect(await balances(target.workspaceId)).toEqual({
        subscriptionRemainingCents: 500,
        purchasedBalanceCents: 500,
      });
      expect(await usageRows(target.workspaceId)).toEqual([]);
    },
  );

  it("refuses a test key's call too when X-Budget-Cents is below the minimum", async () => {
    const target = await account();
    const answer = await raw(DOMAIN_EMAILS, {
      key: target.testKey,
      body: { domain: ACME },
      headers: { "x-budget-cents": "1" },
    });
    expect(answer.status).toBe(402);
    expect(errorOf(answer.json).code).toBe("payment_required");
  });
});

describe("debits and the ledger", () => {
  it("takes the subscription first, then the purchased balance, and writes a ledger row matching each answer", async () => {
    const target = await account(5, 20);
    let before = await usageRows(target.workspaceId);

    // 2 + 2 emails = 4 cents, all from the subscription: 5 → 1.
    const first = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 2 } });
    expect(first.meta).toMatchObject({
      costCents: 4,
      subscriptionRemainingCents: 1,
      purchasedBalanceCents: 20,
      cached: false,
      records: 2,
      providersAttempted: 1,
    });
    let row = await expectOneNewRow(target.workspaceId, before, first.meta);
    expectRowMatchesMeta(row, first.meta, {
      operation: "companies_domain_emails",
      apiKeyId: target.liveKeyId,
      keyMode: "live",
      subscriptionDelta: -4,
      purchasedDelta: 0,
    });
    const firstHash = row.inputHash;
    // Paging is applied to the answer, so it is not part of the input the hash (and the cache) is keyed by.
    expect(firstHash).toBe(inputHash("companies_domain_emails", { domain: ACME }));

    // 2 + 3 emails = 5 cents: the last cent of the subscription, then 4 purchased.
    before = await usageRows(target.workspaceId);
    const second = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: GLOBEX, limit: 3 } });
    expect(second.meta).toMatchObject({
      costCents: 5,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 16,
      cached: false,
      records: 3,
    });
    row = await expectOneNewRow(target.workspaceId, before, second.meta);
    expectRowMatchesMeta(row, second.meta, {
      operation: "companies_domain_emails",
      apiKeyId: target.liveKeyId,
      keyMode: "live",
      subscriptionDelta: -1,
      purchasedDelta: -4,
    });
    expect(row.inputHash).not.toBe(firstHash);

    // No live provider here answers funding: no source could be attempted, so the call is free (meta says so).
    before = await usageRows(target.workspaceId);
    const third = await target.live.call(intelligenceContract, {
      headers: {},
      body: { domain: ACME, signal: "funding" },
    });
    expect(third.meta).toMatchObject({
      costCents: 0,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 16,
      cached: false,
      providersAttempted: 0,
      priceRange: { minCents: 10, maxCents: 10 },
      fieldsReturned: [],
      fieldsMissing: ["funding"],
    });
    expect(third.meta.records).toBeUndefined();
    row = await expectOneNewRow(target.workspaceId, before, third.meta);
    expectRowMatchesMeta(row, third.meta, {
      operation: "companies_intelligence",
      apiKeyId: target.liveKeyId,
      keyMode: "live",
      subscriptionDelta: 0,
      purchasedDelta: 0,
    });

    // The first question again: served from the cache, free, still on the ledger.
    before = await usageRows(target.workspaceId);
    const again = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 2 } });
    expect(again.meta).toMatchObject({
      costCents: 0,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 16,
      cached: true,
      records: 2,
      providersAttempted: 0,
    });
    expect(again.data).toEqual(first.data);
    row = await expectOneNewRow(target.workspaceId, before, again.meta);
    expectRowMatchesMeta(row, again.meta, {
      operation: "companies_domain_emails",
      apiKeyId: target.liveKeyId,
      keyMode: "live",
      subscriptionDelta: 0,
      purchasedDelta: 0,
    });
    expect(row.inputHash).toBe(firstHash);

    // The ledger adds up to the balance change.
    const rows = await usageRows(target.workspaceId);
    expect(rows.reduce((sum, entry) => sum + entry.costCents, 0)).toBe(25 - 16);
    expect(rows.reduce((sum, entry) => sum + entry.subscriptionDeltaCents + entry.purchasedDeltaCents, 0)).toBe(
      -(25 - 16),
    );
  });

  it("lets exactly as many concurrent calls through as the balance covers, and never goes negative", async () => {
    // X-Budget-Cents 2 makes domain-emails a flat 2-cent call (the page is cut to no address); no-cache makes every
    // call a paid one. 63 cents cover 31 calls with 1 left over.
    const target = await account(30, 33);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        raw(DOMAIN_EMAILS, {
          key: target.liveKey,
          body: { domain: ACME },
          headers: { "x-budget-cents": "2", "cache-control": "no-cache" },
        }),
      ),
    );
    const succeeded = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(succeeded).toHaveLength(31);
    expect(refused).toHaveLength(9);
    for (const answer of refused) {
      expect(answer.status).toBe(402);
      expect(errorOf(answer.json).code).toBe("payment_required");
    }
    // Every success saw a different balance after its own debit; none negative.
    const remaining = succeeded.map((answer) => {
      const meta = metaOf(answer.json);
      expect(meta.costCents).toBe(2);
      expect(meta.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
      expect(meta.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
      return (meta.subscriptionRemainingCents as number) + (meta.purchasedBalanceCents as number);
    });
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 31 }, (_, index) => 1 + 2 * index));

    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 1 });
    const rows = await usageRows(target.workspaceId);
    expect(rows).toHaveLength(31);
    expect(rows.reduce((sum, row) => sum + row.costCents, 0)).toBe(62);
    expect(rows.reduce((sum, row) => sum + row.subscriptionDeltaCents, 0)).toBe(-30);
    expect(rows.reduce((sum, row) => sum + row.purchasedDeltaCents, 0)).toBe(-32);
    for (const row of rows) {
      expect(row.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
      expect(row.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
    }
  });

  it("never debits more than the balance when concurrent domain-emails calls race for it", async () => {
    // 20 cents; each call asks for up to 5 addresses (max 7 cents) and is capped by what is left when it starts.
    const target = await account(0, 20);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        raw(DOMAIN_EMAILS, {
          key: target.liveKey,
          body: { domain: ACME, limit: 5, offset: index },
          headers: { "cache-control": "no-cache" },
        }),
      ),
    );
    const charged = answers
      .filter((answer) => answer.status === 200)
      .reduce((sum, answer) => sum + (metaOf(answer.json).costCents as number), 0);
    for (const answer of answers) expect([200, 402]).toContain(answer.status);
    const after = await balances(target.workspaceId);
    expect(after.subscriptionRemainingCents).toBe(0);
    expect(after.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
    expect(charged).toBe(20 - after.purchasedBalanceCents);
    const rows = await usageRows(target.workspaceId);
    expect(rows.reduce((sum, row) => sum + row.costCents, 0)).toBe(charged);
  });
});

describe("cache", () => {
  it("answers the same question from the cache for free, without asking upstream", async () => {
    const target = await account(0, 100);
    const requestsBefore = fake.requests.length;
    const first = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 5 } });
    expect(first.meta).toMatchObject({ cached: false, costCents: 7, records: 5, providersAttempted: 1 });
    expect(fake.requests.length).toBe(requestsBefore + 1);

    const second = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 5 } });
    expect(second.meta).toMatchObject({
      cached: true,
      costCents: 0,
      records: 5,
      providersAttempted: 0,
      purchasedBalanceCents: 93,
    });
    expect(second.meta.fieldsReturned).toEqual(first.meta.fieldsReturned);
    expect(second.data).toEqual(first.data);
    expect(fake.requests.length).toBe(requestsBefore + 1);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 93 });
    const rows = await usageRows(target.workspaceId);
    expect(rows.map((row) => [row.cached, row.costCents])).toEqual([
      [false, 7],
      [true, 0],
    ]);
  });

  it("treats equal inputs as equal: case, www., trailing dot, key order and defaults", async () => {
    const target = await account(0, 100);
    await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME } });
    const requestsBefore = fake.requests.length;
    for (const body of [
      { domain: `WWW.${ACME.toUpperCase()}.` },
      { limit: 10, domain: ACME },
      { domain: ACME, offset: 0, limit: 10 },
    ]) {
      const answer = await raw(DOMAIN_EMAILS, { key: target.liveKey, body });
      expect(answer.status).toBe(200);
      expect(metaOf(answer.json), JSON.stringify(body)).toMatchObject({ cached: true, costCents: 0 });
    }
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it("goes upstream again and charges with Cache-Control: no-cache", async () => {
    const target = await account(0, 100);
    await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 3 } });
    const requestsBefore = fake.requests.length;
    for (const cacheControl of ["no-cache", "max-age=0, no-cache", "No-Cache"]) {
      const answer = await target.live.call(domainEmailsContract, {
        headers: { "cache-control": cacheControl },
        body: { domain: ACME, limit: 3 },
      });
      expect(answer.meta, cacheControl).toMatchObject({ cached: false, costCents: 5, providersAttempted: 1 });
    }
    expect(fake.requests.length).toBe(requestsBefore + 3);
    expect(await balances(target.workspaceId)).toEqual({
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 100 - 4 * 5,
    });
    // The refreshed answer is cached again.
    const afterwards = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 3 } });
    expect(afterwards.meta).toMatchObject({ cached: true, costCents: 0 });
  });

  it("keeps different filters apart", async () => {
    const target = await account(0, 500);
    const base = { domain: ACME, limit: 4 };
    await target.live.call(domainEmailsContract, { headers: {}, body: base });
    for (const body of [
      { ...base, type: "personal" as const },
      { ...base, seniority: "senior" },
      { ...base, department: "it" },
      { ...base, company: "Acme Robotics", domain: undefined },
    ]) {
      const requestsBefore = fake.requests.length;
      const answer = await target.live.call(domainEmailsContract, { headers: {}, body });
      expect(answer.meta, JSON.stringify(body)).toMatchObject({ cached: false, providersAttempted: 1 });
      expect(answer.meta.costCents).toBeGreaterThan(0);
      expect(fake.requests.length).toBe(requestsBefore + 1);
    }
  });

  it("serves other pages of the same question from the same cached answer", async () => {
    const target = await account(0, 500);
    const first = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 4 } });
    const requestsBefore = fake.requests.length;
    for (const body of [
      { domain: ACME, limit: 5 },
      { domain: ACME, limit: 4, offset: 4 },
    ]) {
      const answer = await target.live.call(domainEmailsContract, { headers: {}, body });
      expect(answer.meta, JSON.stringify(body)).toMatchObject({ cached: true, costCents: 0, providersAttempted: 0 });
      expect(answer.data.total).toBe(first.data.total);
    }
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it("keeps the two operations and the intelligence signals apart (nothing found is never cached, nor charged when no source could be attempted)", async () => {
    const target = await account(0, 100);
    for (let round = 0; round < 2; round += 1) {
      const answer = await target.live.call(intelligenceContract, {
        headers: {},
        body: { domain: ACME, signal: "competitors" },
      });
      expect(answer.meta).toMatchObject({
        cached: false,
        costCents: 0,
        providersAttempted: 0,
        fieldsReturned: [],
        fieldsMissing: ["competitors"],
      });
      expect(answer.data).toEqual({ domain: ACME, signal: "competitors", competitors: null });
    }
    expect(await db().enrichmentCacheEntry.count()).toBe(0);
  });

  it("never serves a test key from the cache, nor lets it fill the cache", async () => {
    const target = await account(0, 100);
    // A test key first: the sandbox answers, nothing is cached.
    const sandbox = await target.test.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 3 } });
    expect(sandbox.meta.cached).toBe(false);
    expect(await db().enrichmentCacheEntry.count()).toBe(0);
    // A live key: the provider answers and the answer is cached.
    const requestsBefore = fake.requests.length;
    const live = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 3 } });
    expect(live.meta.cached).toBe(false);
    expect(live.data.organization).toBe("Acme Robotics");
    expect(fake.requests.length).toBe(requestsBefore + 1);
    // The test key still gets the sandbox, not the cached live answer.
    const sandboxAgain = await target.test.call(domainEmailsContract, {
      headers: {},
      body: { domain: ACME, limit: 3 },
    });
    expect(sandboxAgain.meta.cached).toBe(false);
    expect(sandboxAgain.data).toEqual(sandbox.data);
    expect(sandboxAgain.data.organization).not.toBe("Acme Robotics");
  });
});

describe("budget", () => {
  it("cuts the page to what X-Budget-Cents affords and says so", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: { "x-budget-cents": "5" },
      body: { domain: ACME, limit: 10 },
    });
    expect(answer.data.emails.map((email) => email.value)).toEqual(
      expectedEmails(ACME)
        .slice(0, 3)
        .map((email) => email.value),
    );
    expect(answer.meta).toMatchObject({
      costCents: 5,
      budgetCents: 5,
      budgetCentsPerRecord: 1,
      records: 3,
      priceRange: { minCents: 2, maxCents: 12 },
      providersAttempted: 1,
      purchasedBalanceCents: 95,
    });
    expect(answer.meta.costCents).toBeLessThanOrEqual(5);
    const [row] = await usageRows(target.workspaceId);
    expect(row).toMatchObject({ costCents: 5, records: 3, purchasedDeltaCents: -5 });
  });

  it("applies the budget after the offset", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: { "x-budget-cents": "4" },
      body: { domain: ACME, limit: 10, offset: 2 },
    });
    expect(answer.data.emails.map((email) => email.value)).toEqual(
      expectedEmails(ACME)
        .slice(2, 4)
        .map((email) => email.value),
    );
    expect(answer.meta).toMatchObject({ costCents: 4, records: 2, budgetCentsPerRecord: 1 });
  });

  it("does not mention a per-record budget when the budget covers the whole page", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: { "x-budget-cents": "12" },
      body: { domain: ACME, limit: 10 },
    });
    expect(answer.data.emails).toHaveLength(10);
    expect(answer.meta).toMatchObject({ costCents: 12, budgetCents: 12, records: 10 });
    expect(answer.meta.budgetCentsPerRecord).toBeUndefined();
  });

  it("at exactly the minimum price answers the company's facts with no address", async () => {
    // The provider costs us 1 cent and the minimum price is 2, so a budget that meets the minimum always allows the
    // provider call; the page is empty because no address is affordable.
    const target = await account(0, 100);
    const requestsBefore = fake.requests.length;
    const answer = await target.live.call(domainEmailsContract, {
      headers: { "x-budget-cents": "2" },
      body: { domain: ACME, limit: 10 },
    });
    expect(answer.data).toMatchObject({
      domain: ACME,
      organization: "Acme Robotics",
      pattern: "{first}.{last}",
      emails: [],
    });
    expect(answer.data.total).toBeGreaterThan(0);
    expect(answer.meta).toMatchObject({
      costCents: 2,
      budgetCents: 2,
      budgetCentsPerRecord: 1,
      records: 0,
      providersAttempted: 1,
    });
    expect(fake.requests.length).toBe(requestsBefore + 1);
  });

  it("caps a call by the balance when it is below the maximum price, leaving 0", async () => {
    const target = await account(2, 4);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 10 } });
    expect(answer.data.emails).toHaveLength(4);
    expect(answer.meta).toMatchObject({
      costCents: 6,
      records: 4,
      budgetCentsPerRecord: 1,
      subscriptionRemainingCents: 0,
      purchasedBalanceCents: 0,
    });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
  });

  it("echoes the budget of a flat-priced intelligence call (free here: no source could be attempted)", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(intelligenceContract, {
      headers: { "x-budget-cents": "50" },
      body: { domain: ACME, signal: "funding" },
    });
    expect(answer.meta).toMatchObject({
      costCents: 0,
      budgetCents: 50,
      priceRange: { minCents: 10, maxCents: 10 },
      providersAttempted: 0,
    });
  });
});

describe("failing provider", () => {
  const modes: FakeHunterMode[] = ["server_error", "rate_limited", "malformed", "unexpected_shape", "redirect", "slow"];

  // `slow` waits for the adapter's 10 s time limit.
  it.each(modes)(
    "skips a provider in %s mode: 200, fields missing, well-formed meta, nothing cached",
    async (mode) => {
      const target = await account(0, 100);
      fake.setMode(mode);
      const requestsBefore = fake.requests.length;
      const body = { domain: ACME, limit: 4 };
      const answer = await target.live.call(domainEmailsContract, { headers: {}, body });
      // A 5xx is retried once (it may be a blip); every other failure is not.
      const attempts = mode === "server_error" ? 2 : 1;
      expect(fake.requests.length).toBe(requestsBefore + attempts);
      expect(answer.data).toEqual({
        domain: ACME,
        organization: null,
        pattern: null,
        acceptAll: null,
        webmail: null,
        disposable: null,
        emails: [],
        total: 0,
      });
      expect(answer.meta).toEqual({
        costCents: 2,
        purchasedBalanceCents: 98,
        subscriptionRemainingCents: 0,
        cached: false,
        latencyMs: expect.any(Number),
        priceRange: { minCents: 2, maxCents: 6 },
        providersAttempted: 1,
        fieldsReturned: [],
        fieldsMissing: DOMAIN_EMAIL_FIELDS,
        records: 0,
      });
      if (mode === "slow") expect(answer.meta.latencyMs).toBeGreaterThanOrEqual(9_000);
      expect(await db().enrichmentCacheEntry.count()).toBe(0);

      // Nothing was cached: once the provider recovers, the same question goes upstream again.
      fake.setMode("normal");
      const recovered = await target.live.call(domainEmailsContract, { headers: {}, body });
      expect(recovered.meta).toMatchObject({ cached: false, providersAttempted: 1, costCents: 6, fieldsMissing: [] });
      expect(fake.requests.length).toBe(requestsBefore + attempts + 1);
    },
    30_000,
  );
});

describe("domain-emails data", () => {
  it("answers every field of DESIGN §5 as the provider found it, most confident first", async () => {
    const target = await account(0, 1_000);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 100 } });
    const company = fakeCompany(ACME);
    expect(answer.data).toEqual({
      domain: ACME,
      organization: company.organization,
      pattern: company.pattern,
      acceptAll: company.accept_all,
      webmail: company.webmail,
      disposable: company.disposable,
      emails: expectedEmails(ACME),
      total: 12,
    });
    for (const email of answer.data.emails) expect(Object.keys(email).sort()).toEqual(EMAIL_KEYS);
    expect(answer.meta).toMatchObject({
      costCents: 14,
      records: 12,
      priceRange: { minCents: 2, maxCents: 102 },
      fieldsReturned: DOMAIN_EMAIL_FIELDS,
      fieldsMissing: [],
      providersAttempted: 1,
    });
    expect(answer.meta.budgetCentsPerRecord).toBeUndefined();

    // The provider was asked once, with the key in a header and the normalized domain.
    const request = fake.requests.at(-1);
    expect(request?.query).toMatchObject({ domain: ACME, limit: "100", offset: "0" });
    expect(request?.headers["x-api-key"]).toBe(fake.apiKey);
    expect(request?.url).not.toContain(fake.apiKey);
  });

  it("answers the accept-all company's data", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: GLOBEX } });
    expect(answer.data).toMatchObject({
      domain: GLOBEX,
      organization: "Globex Logistics",
      pattern: "{f}{last}",
      acceptAll: true,
      total: 5,
    });
    expect(answer.data.emails).toEqual(expectedEmails(GLOBEX));
  });

  it("answers a company with nothing found: facts only, no address, base price", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: QUIET } });
    expect(answer.data).toEqual({
      domain: QUIET,
      organization: null,
      pattern: null,
      acceptAll: false,
      webmail: false,
      disposable: false,
      emails: [],
      total: 0,
    });
    expect(answer.meta).toMatchObject({
      costCents: 2,
      records: 0,
      fieldsMissing: ["organization", "pattern", "emails"],
    });
  });

  it.each([
    ["type generic", { type: "generic" }, (email: FakeCompany["emails"][number]) => email.type === "generic"],
    ["type personal", { type: "personal" }, (email: FakeCompany["emails"][number]) => email.type === "personal"],
    [
      "seniority executive",
      { seniority: "executive" },
      (email: FakeCompany["emails"][number]) => email.seniority === "executive",
    ],
    [
      "department sales",
      { department: "sales" },
      (email: FakeCompany["emails"][number]) => email.department === "sales",
    ],
    [
      "department SALES (any case)",
      { department: "SALES" },
      (email: FakeCompany["emails"][number]) => email.department === "sales",
    ],
    [
      "personal in it",
      { type: "personal", department: "it" },
      (email: FakeCompany["emails"][number]) => email.type === "personal" && email.department === "it",
    ],
    ["an unknown department", { department: "legal" }, () => false],
  ] as const)("filters by %s", async (_name, filter, predicate) => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: {},
      body: { domain: ACME, limit: 100, ...filter },
    });
    const expected = expectedEmails(ACME, predicate);
    expect(expected.length === 0 || expected.length < 12).toBe(true);
    expect(answer.data.emails).toEqual(expected);
    expect(answer.data.total).toBe(expected.length);
    expect(answer.meta).toMatchObject({ records: expected.length, costCents: 2 + expected.length });
  });

  it("serves a page in the stable order: confidence, then address", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: {},
      body: { domain: ACME, limit: 6, offset: 6 },
    });
    expect(answer.data.emails).toEqual(expectedEmails(ACME).slice(6, 12));
    expect(answer.data.total).toBe(12);
    expect(answer.meta).toMatchObject({ records: 6, costCents: 8 });
  });

  it("answers an offset past the end with no address, the total and the base price", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: {},
      body: { domain: ACME, limit: 5, offset: 20 },
    });
    expect(answer.data.emails).toEqual([]);
    expect(answer.data.total).toBe(12);
    expect(answer.meta).toMatchObject({ costCents: 2, records: 0 });
  });

  it("resolves a company name to its domain through the provider", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: {},
      body: { company: "  Globex Logistics " },
    });
    expect(answer.data).toMatchObject({ domain: GLOBEX, organization: "Globex Logistics", total: 5 });
    expect(answer.data.emails).toEqual(expectedEmails(GLOBEX));
    const request = fake.requests.at(-1);
    expect(request?.query.company).toBe("Globex Logistics");
    expect(request?.query.domain).toBeUndefined();

    // The same name in another case is the same question.
    const again = await target.live.call(domainEmailsContract, { headers: {}, body: { company: "GLOBEX LOGISTICS" } });
    expect(again.meta).toMatchObject({ cached: true, costCents: 0 });
    expect(again.data).toEqual(answer.data);
  });

  it("prefers the domain when both a domain and a company are given", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, {
      headers: {},
      body: { domain: ACME, company: "Globex Logistics", limit: 2 },
    });
    expect(answer.data.organization).toBe("Acme Robotics");
    expect(fake.requests.at(-1)?.query).toMatchObject({ domain: ACME });
    expect(fake.requests.at(-1)?.query.company).toBeUndefined();
  });

  it("answers an unknown company name with no domain and no address", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { company: "Nobody Inc" } });
    expect(answer.data).toMatchObject({ domain: null, organization: null, emails: [], total: 0 });
    expect(answer.meta.fieldsMissing).toEqual(expect.arrayContaining(["domain", "organization", "emails"]));
  });
});

describe("test keys (sandbox)", () => {
  it("answers domain-emails deterministically with synthetic .example data, moving no money and calling no provider", async () => {
    const target = await account(7, 3);
    const requestsBefore = fake.requests.length;
    const first = await target.test.call(domainEmailsContract, {
      headers: {},
      body: { domain: "Stripe.com", limit: 100 },
    });
    const second = await target.test.call(domainEmailsContract, {
      headers: {},
      body: { domain: "stripe.com", limit: 100 },
    });
    expect(second.data).toEqual(first.data);
    expect(fake.requests.length).toBe(requestsBefore);

    const { data, meta } = first;
    expect(data.domain).toBe("stripe.com");
    expect(data.total).toBe(data.emails.length);
    expect(data.emails.length).toBeGreaterThanOrEqual(5);
    for (const email of data.emails) {
      expect(Object.keys(email).sort()).toEqual(EMAIL_KEYS);
      expect(email.value).toMatch(/@[a-z0-9-]+\.example$/);
      for (const item of email.sources) expect(new URL(item.uri).hostname).toMatch(/\.example$/);
      if (email.linkedin !== null) expect(new URL(email.linkedin).hostname).toMatch(/\.example$/);
      if (email.phoneNumber !== null) expect(email.phoneNumber).toMatch(/555-01\d\d$/);
    }
    const order = [...data.emails].sort(
      (a, b) => b.confidence - a.confidence || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
    );
    expect(data.emails).toEqual(order);

    // Full meta with the would-be cost; balances as they were.
    expect(meta).toEqual({
      costCents: 2 + data.emails.length,
      purchasedBalanceCents: 3,
      subscriptionRemainingCents: 7,
      cached: false,
      latencyMs: expect.any(Number),
      priceRange: { minCents: 2, maxCents: 102 },
      providersAttempted: expect.any(Number),
      fieldsReturned: DOMAIN_EMAIL_FIELDS,
      fieldsMissing: [],
      records: data.emails.length,
    });
    expect(second.meta.cached).toBe(false);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 7, purchasedBalanceCents: 3 });

    const rows = await usageRows(target.workspaceId);
    expect(rows).toHaveLength(2);
    for (const [index, row] of rows.entries()) {
      expectRowMatchesMeta(row, [first, second][index]?.meta as Record<string, unknown>, {
        operation: "companies_domain_emails",
        apiKeyId: target.testKeyId,
        keyMode: "test",
        subscriptionDelta: 0,
        purchasedDelta: 0,
      });
    }
  });

  it("works with an empty balance", async () => {
    const target = await account();
    const answer = await target.test.call(intelligenceContract, {
      headers: {},
      body: { domain: "example.org", signal: "funding" },
    });
    expect(answer.meta).toMatchObject({ costCents: 10, subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
  });

  it.each([
    ["funding", 10],
    ["competitors", 8],
    ["technographics", 5],
  ] as const)("answers intelligence %s deterministically at its flat price", async (signal, price) => {
    const target = await account(0, 50);
    const first = await target.test.call(intelligenceContract, {
      headers: {},
      body: { domain: "acme-corp.com", signal },
    });
    const second = await target.test.call(intelligenceContract, {
      headers: {},
      body: { domain: "ACME-corp.com", signal },
    });
    expect(second.data).toEqual(first.data);
    expect(first.data.domain).toBe("acme-corp.com");
    expect(first.data.signal).toBe(signal);
    expect(first.data[signal]).not.toBeNull();
    expect(Object.keys(first.data).sort()).toEqual(["domain", "signal", signal].sort());
    expect(first.meta).toMatchObject({
      costCents: price,
      priceRange: { minCents: price, maxCents: price },
      cached: false,
      fieldsReturned: [signal],
      fieldsMissing: [],
      purchasedBalanceCents: 50,
      subscriptionRemainingCents: 0,
    });
    if (signal === "competitors")
      for (const rival of first.data.competitors ?? []) expect(rival.domain).toMatch(/\.example$/);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 50 });
    const rows = await usageRows(target.workspaceId);
    expect(
      rows.map((row) => [row.keyMode, row.costCents, row.subscriptionDeltaCents, row.purchasedDeltaCents]),
    ).toEqual([
      ["test", price, 0, 0],
      ["test", price, 0, 0],
    ]);
  });

  it("filters and pages the sandbox's data consistently", async () => {
    const target = await account();
    const domain = "filters-and-pages.com";
    const all = await target.test.call(domainEmailsContract, { headers: {}, body: { domain, limit: 100 } });
    const generic = await target.test.call(domainEmailsContract, {
      headers: {},
      body: { domain, limit: 100, type: "generic" },
    });
    expect(generic.data.emails).toEqual(all.data.emails.filter((email) => email.type === "generic"));
    expect(generic.data.total).toBe(generic.data.emails.length);

    const pages: string[] = [];
    for (let offset = 0; offset < all.data.total; offset += 4) {
      const page = await target.test.call(domainEmailsContract, { headers: {}, body: { domain, limit: 4, offset } });
      expect(page.data.total).toBe(all.data.total);
      pages.push(...page.data.emails.map((email) => email.value));
    }
    expect(pages).toEqual(all.data.emails.map((email) => email.value));
  });

  it("cuts a test key's page to its budget as a live key's would be", async () => {
    const target = await account();
    const answer = await target.test.call(domainEmailsContract, {
      headers: { "x-budget-cents": "4" },
      body: { domain: "budgeted.com", limit: 10 },
    });
    expect(answer.data.emails).toHaveLength(2);
    expect(answer.meta).toMatchObject({ costCents: 4, budgetCents: 4, budgetCentsPerRecord: 1, records: 2 });
  });
});

describe("paging through domain emails, and the budget header", () => {
  it("domain-emails reports the total before paging, not the size of what the provider was asked for", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 5 } });
    expect(answer.data.emails).toHaveLength(5);
    expect(answer.data.total).toBe(12);
  });

  it("domain-emails pages through the addresses without skips or repeats", async () => {
    const target = await account(0, 100);
    const pages: string[] = [];
    for (const offset of [0, 5, 10]) {
      const answer = await target.live.call(domainEmailsContract, {
        headers: {},
        body: { domain: ACME, limit: 5, offset },
      });
      pages.push(...answer.data.emails.map((email) => email.value));
    }
    expect(pages).toEqual(expectedEmails(ACME).map((email) => email.value));
  });

  it("domain-emails answers the most confident addresses on the first page", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(domainEmailsContract, { headers: {}, body: { domain: ACME, limit: 6 } });
    expect(answer.data.emails).toEqual(expectedEmails(ACME).slice(0, 6));
  });

  it.each(["", " ", "0x10"])("refuses X-Budget-Cents %j with 400", async (value) => {
    const target = await account(0, 100);
    const answer = await raw(INTELLIGENCE, {
      key: target.liveKey,
      body: { domain: ACME, signal: "technographics" },
      headers: { "x-budget-cents": value },
    });
    expect(answer.status).toBe(400);
    expect(detailPaths(answer.json)).toEqual(["x-budget-cents"]);
  });
});

describe("provider names never leave the server", () => {
  it("does not name a provider or leak its key in any body or header, on success or failure", async () => {
    const ids = [...liveProviders().domainEmails, ...liveProviders().intelligence].map((provider) =>
      provider.id.toLowerCase(),
    );
    const needles = [...new Set([...ids, "hunter", fake.apiKey.toLowerCase(), new URL(fake.baseUrl).host])];
    expect(ids.length).toBeGreaterThan(0);

    const target = await account(0, 10_000);
    const poor = await account(0, 1);
    const start = recorded.length;
    const bodies: [string, unknown][] = [
      [DOMAIN_EMAILS, { domain: ACME, limit: 3 }],
      [DOMAIN_EMAILS, { company: "Acme Robotics", limit: 1 }],
      [DOMAIN_EMAILS, { domain: "unknown-company.example" }],
      [INTELLIGENCE, { domain: ACME, signal: "funding" }],
      [INTELLIGENCE, { domain: ACME, signal: "technographics" }],
    ];
    for (const mode of [
      "normal",
      "server_error",
      "rate_limited",
      "malformed",
      "unexpected_shape",
      "redirect",
    ] as const) {
      fake.setMode(mode);
      for (const key of [target.liveKey, target.testKey]) {
        for (const [path, body] of bodies) {
          await raw(path, { key, body, headers: { "cache-control": "no-cache" } });
          await raw(path, { key, body, headers: { "x-budget-cents": "1" } }); // 402
          await raw(path, { key, body: { ...(body as object), bogus: 1 } }); // 400
        }
      }
    }
    fake.setMode("normal");
    for (const [path, body] of bodies) {
      await raw(path, { key: poor.liveKey, body }); // 402 on balance
      await raw(path, { key: `sbx_live_${"Z".repeat(40)}`, body }); // 401
      await raw(path, { key: target.liveKey, body: "{", contentType: "application/json" }); // 400
      await raw(path, { key: target.liveKey, body: "domain=x", contentType: "text/plain" }); // 415
    }
    const statuses = new Set(recorded.slice(start).map((entry) => entry.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 402, 415]);

    // Everything this file received, not only the responses above.
    for (const entry of recorded) {
      const haystack =
        `${entry.text}\n${entry.headers.map(([name, value]) => `${name}: ${value}`).join("\n")}`.toLowerCase();
      for (const needle of needles) expect(haystack.includes(needle), `${entry.what} contains "${needle}"`).toBe(false);
    }
    // The provider's key is a secret: not even the server's own log carries it.
    expect(app.output()).not.toContain(fake.apiKey);
  });
});
