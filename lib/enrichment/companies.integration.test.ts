import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { companyDiscoverContract, companyEnrichContract, companySearchContract } from "@/lib/contracts/companies";
import { db } from "@/lib/db/client";
import { saveCompany } from "@/lib/providers/first-party/companies/company-store";
import { liveProviders } from "@/lib/providers/registry";
import { startApp, type RunningApp } from "@/test/app-server";
import { type Account, balances, closedPort, enrichmentHarness, usageRows } from "@/test/enrichment-harness";
import { startCompanySites, type CompanySites } from "@/test/fakes/company-sites";
import { startFakeDnsServer, type FakeDnsServer } from "@/test/fakes/dns-server";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import { detailPaths, errorOf } from "@/test/http-api";
import { inputHash } from "@/lib/billing/answer-cache";
import { COMPANY_PROFILE_FIELDS } from "@/lib/providers/fields/company";

/*
 * The companies endpoints over real HTTP, through the real waterfall: the launcher in its own process, its DNS
 * answered by a local DNS server, the companies' websites served on loopback (reached as http://acme.example/), the
 * company-data vendor's local fake configured behind them, and this file's own database for the company store, the
 * balances, the ledger and the cache. Nothing inside the app is faked.
 */

const ENRICH = companyEnrichContract.path;
const SEARCH = companySearchContract.path;
const DISCOVER = companyDiscoverContract.path;
const ACME = "acme.example";
const TECHNOLOGY_FIELDS = ["category", "name"];
const GOOGLE_MX = [
  { exchange: "aspmx.l.google.com", priority: 1 },
  { exchange: "alt1.aspmx.l.google.com", priority: 5 },
];
/** A word no fixture site uses: the companies seeded for paging, and nothing else, are found by it. */
const PAGING_WORD = "zephyrhaul";

let app: RunningApp;
const { recorded, raw, account } = enrichmentHarness(() => app.baseUrl, "Companies tests");
let dns: FakeDnsServer;
let sites: CompanySites;
let pdl: FakePdl;

// ---------------------------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------------------------
// Money and keys.

/** Requests any upstream (company websites, the company-data vendor) has received so far. */
const upstreamRequests = () => sites.requests.length + pdl.requests.length;

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  [sites, pdl] = await Promise.all([startCompanySites(), startFakePdl()]);
  dns = await startFakeDnsServer({
    "acme.example": {
      A: ["127.0.0.1"],
      MX: GOOGLE_MX,
      TXT: ["v=spf1 include:_spf.google.com include:sendgrid.net ~all"],
    },
    "_dmarc.acme.example": { TXT: ["v=DMARC1; p=reject; rua=mailto:dmarc@acme.example"] },
    "careers.acme.example": { A: ["127.0.0.1"] },
    "rival.example": { A: ["127.0.0.1"], MX: [{ exchange: "rival-test.mail.protection.outlook.com", priority: 0 }] },
    "other.example": { A: ["127.0.0.1"] },
    // The vendor knows this company; it has no website we can read.
    "acme-robotics.example": { MX: GOOGLE_MX },
    // Nobody knows this one: mail DNS is all there is.
    "mail-only.example": { MX: GOOGLE_MX },
  });
  const appEnv = {
    DNS_SERVERS: dns.server,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    OUTBOUND_TEST_PORTS: `http=${sites.port},https=${await closedPort()}`,
    OUTBOUND_CONTACT: "ops@signalbox.test",
    SEC_EDGAR_ENABLED: "false",
    PEOPLEDATALABS_API_KEY: pdl.apiKey,
    PEOPLEDATALABS_API_URL: pdl.baseUrl,
    HUNTER_API_KEY: "",
    BUILTWITH_API_KEY: "",
  };
  // This process builds the same provider lists as the app, for the leak scan's provider ids.
  Object.assign(process.env, appEnv);
  app = await startApp(appEnv);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([dns?.close(), sites?.close(), pdl?.close()]);
});

// ---------------------------------------------------------------------------------------------------------------

describe("request validation", () => {
  let target: Account;

  beforeAll(async () => {
    target = await account(100, 100);
  });

  const cases: [string, string, unknown, string[]][] = [
    // companies/enrich
    ["enrich", "an empty body object", {}, ["domain"]],
    ["enrich", "an empty domain", { domain: "" }, ["domain"]],
    ["enrich", "a numeric domain", { domain: 42 }, ["domain"]],
    ["enrich", "a domain with a scheme", { domain: `https://${ACME}` }, ["domain"]],
    ["enrich", "a domain with a path", { domain: `${ACME}/about` }, ["domain"]],
    ["enrich", "an IP address", { domain: "10.0.0.1" }, ["domain"]],
    ["enrich", "localhost", { domain: "localhost" }, ["domain"]],
    ["enrich", "a .internal name", { domain: "db.internal" }, ["domain"]],
    ["enrich", "an unknown key", { domain: ACME, limit: 5 }, ["limit"]],
    ["enrich", "many bad fields at once", { domain: "localhost", extra: 1, other: true }, ["domain", "extra", "other"]],
    ["enrich", "a JSON array", [{ domain: ACME }], [""]],
    ["enrich", "JSON null", "null", [""]],
    // companies/search
    ["search", "an empty body object", {}, ["query"]],
    ["search", "an empty query", { query: "" }, ["query"]],
    ["search", "a blank query", { query: "   " }, ["query"]],
    ["search", "a numeric query", { query: 5 }, ["query"]],
    ["search", "a query of 201 characters", { query: "a".repeat(201) }, ["query"]],
    ["search", "a list query", { query: ["acme"] }, ["query"]],
    ["search", "limit 0", { query: "acme", limit: 0 }, ["limit"]],
    ["search", "limit 101", { query: "acme", limit: 101 }, ["limit"]],
    ["search", "limit 1.5", { query: "acme", limit: 1.5 }, ["limit"]],
    ["search", 'limit "10"', { query: "acme", limit: "10" }, ["limit"]],
    ["search", "an empty cursor", { query: "acme", cursor: "" }, ["cursor"]],
    ["search", "a numeric cursor", { query: "acme", cursor: 5 }, ["cursor"]],
    ["search", "offset (paging is by cursor)", { query: "acme", offset: 10 }, ["offset"]],
    ["search", "a domain (that is enrich)", { query: "acme", domain: ACME }, ["domain"]],
    [
      "search",
      "many bad fields at once",
      { query: "", limit: 0, cursor: "", extra: 1 },
      ["cursor", "extra", "limit", "query"],
    ],
    ["search", "a JSON string", '"acme"', [""]],
    // companies/discover
    ["discover", "an empty body object", {}, ["domain"]],
    ["discover", "empty filters", { filters: {} }, ["domain"]],
    ["discover", "only paging", { limit: 5 }, ["domain"]],
    ["discover", "a private domain", { domain: "localhost" }, ["domain"]],
    ["discover", "a domain with a port", { domain: `${ACME}:8080` }, ["domain"]],
    ["discover", "filters that are not an object", { filters: "freight" }, ["filters"]],
    // No filter that counts is left either.
    ["discover", "only an unknown filter", { filters: { colour: "red" } }, ["domain", "filters.colour"]],
    [
      "discover",
      "an unknown filter next to a good one",
      { filters: { colour: "red", country: "US" } },
      ["filters.colour"],
    ],
    ["discover", "an empty keyword list", { filters: { keywords: [] } }, ["filters.keywords"]],
    ["discover", "keywords as text", { filters: { keywords: "freight" } }, ["filters.keywords"]],
    ["discover", "an empty keyword", { filters: { keywords: ["freight", ""] } }, ["filters.keywords.1"]],
    [
      "discover",
      "21 technologies",
      { filters: { technologies: Array.from({ length: 21 }, (_, index) => `tech${index}`) } },
      ["filters.technologies"],
    ],
    ["discover", "a numeric industry", { filters: { industry: [5] } }, ["filters.industry.0"]],
    ["discover", "a one-letter country", { filters: { country: "U" } }, ["filters.country"]],
    ["discover", "a numeric country", { filters: { country: "12" } }, ["filters.country"]],
    ["discover", "an empty locality", { filters: { locality: "" } }, ["filters.locality"]],
    ["discover", "an unknown size range", { filters: { sizeRange: "50-200" } }, ["filters.sizeRange"]],
    ["discover", "limit 0", { domain: ACME, limit: 0 }, ["limit"]],
    ["discover", "an empty cursor", { domain: ACME, cursor: "" }, ["cursor"]],
    [
      "discover",
      "many bad fields at once",
      { domain: "localhost", filters: { country: "1", bogus: 1 }, limit: 101, extra: 1 },
      ["domain", "extra", "filters.bogus", "filters.country", "limit"],
    ],
    ["discover", "a JSON array", [], [""]],
  ];
  const paths: Record<string, string> = { enrich: ENRICH, search: SEARCH, discover: DISCOVER };

  it.each(cases)("%s refuses %s with 400 naming each bad field", async (endpoint, _case, body, expected) => {
    const answer = await raw(paths[endpoint]!, { key: target.testKey, body });
    expect(answer.status).toBe(400);
    const error = errorOf(answer.json);
    expect(error.code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual(expected);
    for (const detail of error.details ?? []) expect(detail.message).not.toBe("");
  });

  describe.each([
    ["enrich", ENRICH, { domain: ACME }],
    ["search", SEARCH, { query: "acme" }],
    ["discover", DISCOVER, { domain: ACME }],
  ])("%s", (_name, path, goodBody) => {
    it("refuses malformed JSON and a missing body with 400", async () => {
      expect((await raw(path, { key: target.testKey, body: '{"domain":' })).status).toBe(400);
      expect((await raw(path, { key: target.testKey })).status).toBe(400);
    });

    it.each(["abc", "-1", "1.5"])("refuses X-Budget-Cents %j with 400 naming the header", async (value) => {
      const answer = await raw(path, { key: target.liveKey, body: goodBody, headers: { "x-budget-cents": value } });
      expect(answer.status).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["x-budget-cents"]);
    });
  });

  it("moves no money, writes no ledger row and asks no upstream for a refused request", async () => {
    const before = await balances(target.workspaceId);
    const requests = upstreamRequests();
    await raw(ENRICH, { key: target.liveKey, body: { domain: "localhost" } });
    await raw(SEARCH, { key: target.liveKey, body: { query: "acme", limit: 0 } });
    await raw(DISCOVER, { key: target.liveKey, body: { domain: ACME, filters: { sizeRange: "x" } } });
    expect(await balances(target.workspaceId)).toEqual(before);
    expect(await usageRows(target.workspaceId)).toEqual([]);
    expect(upstreamRequests()).toBe(requests);
  });
});

describe("authentication", () => {
  let revoked: string;

  beforeAll(async () => {
    const workspace = await createWorkspace({ name: "Revoked" });
    const key = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
    await revokeApiKey({ workspaceId: workspace.id, apiKeyId: key.apiKey.id });
    revoked = key.key;
  });

  describe.each([
    ["enrich", ENRICH, { domain: ACME }],
    ["search", SEARCH, { query: "acme" }],
    ["discover", DISCOVER, { domain: ACME }],
  ])("%s", (_name, path, body) => {
    it.each([
      ["no Authorization header", () => undefined],
      ["another scheme", () => "Basic dXNlcjpwYXNz"],
      ["an unknown live key", () => `Bearer sbx_live_${"A".repeat(40)}`],
      ["an unknown test key", () => `Bearer sbx_test_${"B".repeat(40)}`],
      ["a revoked key", () => `Bearer ${revoked}`],
    ])("answers 401 for %s, before any upstream work", async (_case, authorization) => {
      const requests = upstreamRequests();
      const header = authorization();
      const answer = await raw(path, { body, ...(header === undefined ? { key: null } : { authorization: header }) });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(answer.json).toEqual({ success: false, error: { code: "unauthorized", message: expect.any(String) } });
      expect(upstreamRequests()).toBe(requests);
    });

    it("checks the key before the body", async () => {
      expect((await raw(path, { body: { bogus: 1 } })).status).toBe(401);
    });
  });
});

describe("payment required", () => {
  it.each([
    // Found or free, but a hit must be affordable: 5 cents even though a miss costs nothing.
    ["enrich", ENRICH, { domain: ACME }, 4],
    ["search", SEARCH, { query: "acme" }, 0],
    ["discover", DISCOVER, { domain: ACME }, 1],
  ])(
    "refuses %s with 402 when the balance is below what the call needs, before any upstream work",
    async (_name, path, body, cents) => {
      const target = await account(0, cents);
      const requests = upstreamRequests();
      const answer = await raw(path, { key: target.liveKey, body });
      expect(answer.status).toBe(402);
      expect(errorOf(answer.json).code).toBe("payment_required");
      expect(upstreamRequests()).toBe(requests);
      expect(await balances(target.workspaceId)).toEqual({
        subscriptionRemainingCents: 0,
        purchasedBalanceCents: cents,
      });
      expect(await usageRows(target.workspaceId)).toEqual([]);
    },
  );

  it.each([
    ["enrich", ENRICH, { domain: ACME }, "4"],
    ["search", SEARCH, { query: "acme" }, "0"],
    ["discover", DISCOVER, { domain: ACME }, "1"],
    ["discover with filters", DISCOVER, { filters: { keywords: ["freight"] } }, "0"],
  ])(
    "refuses %s with 402 when X-Budget-Cents is below what the call needs, whatever the balance (%s %j %s)",
    async (_name, path, body, budget) => {
      const target = await account(500, 500);
      const requests = upstreamRequests();
      for (const key of [target.liveKey, target.testKey]) {
        const answer = await raw(path, { key, body, headers: { "x-budget-cents": budget } });
        expect(answer.status).toBe(402);
        expect(errorOf(answer.json).code).toBe("payment_required");
      }
      expect(upstreamRequests()).toBe(requests);
      expect(await balances(target.workspaceId)).toEqual({
        subscriptionRemainingCents: 500,
        purchasedBalanceCents: 500,
      });
      expect(await usageRows(target.workspaceId)).toEqual([]);
    },
  );
});

describe("test keys (sandbox)", () => {
  it("answers all three deterministically with synthetic .example data, moving no money and asking no upstream", async () => {
    const target = await account(7, 3);
    const requests = upstreamRequests();

    const enrich = await target.test.call(companyEnrichContract, { headers: {}, body: { domain: "Stripe.com" } });
    expect(enrich.data).toMatchObject({ domain: "stripe.com", name: "Sandbox Co (stripe.com)" });
    expect(enrich.meta).toEqual({
      costCents: 12,
      purchasedBalanceCents: 3,
      subscriptionRemainingCents: 7,
      cached: false,
      latencyMs: expect.any(Number),
      priceRange: { minCents: 0, maxCents: 12 },
      providersAttempted: 1,
      fieldsReturned: [...COMPANY_PROFILE_FIELDS],
      fieldsMissing: [],
    });
    for (const technology of enrich.data.technologies)
      expect(Object.keys(technology).sort()).toEqual(TECHNOLOGY_FIELDS);
    expect(
      (await target.test.call(companyEnrichContract, { headers: {}, body: { domain: "stripe.com" } })).data,
    ).toEqual(enrich.data);

    const search = await target.test.call(companySearchContract, {
      headers: {},
      body: { query: "Acme Analytics", limit: 3 },
    });
    expect(search.data.companies[0]).toEqual({
      domain: "acme-analytics.example",
      name: "Acme Analytics",
      description: 'A synthetic company named "Acme Analytics".',
      score: 1,
    });
    expect(search.data.companies).toHaveLength(3);
    expect(search.data.nextCursor).toEqual(expect.any(String));
    expect(search.meta).toMatchObject({
      costCents: 1 + 3,
      records: 3,
      priceRange: { minCents: 1, maxCents: 4 },
      cached: false,
      purchasedBalanceCents: 3,
      subscriptionRemainingCents: 7,
    });

    const discover = await target.test.call(companyDiscoverContract, {
      headers: {},
      body: { domain: "stripe.com", limit: 2 },
    });
    expect(discover.data.companies).toHaveLength(2);
    for (const company of discover.data.companies) expect(company.domain).toMatch(/^lookalike-\d+\.example$/);
    expect(discover.meta).toMatchObject({
      costCents: 2 + 2,
      records: 2,
      priceRange: { minCents: 2, maxCents: 4 },
      cached: false,
    });

    expect(upstreamRequests()).toBe(requests);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 7, purchasedBalanceCents: 3 });
    const rows = await usageRows(target.workspaceId);
    expect(
      rows.map((row) => [
        row.operation,
        row.keyMode,
        row.costCents,
        row.subscriptionDeltaCents,
        row.purchasedDeltaCents,
      ]),
    ).toEqual([
      ["companies_enrich", "test", 12, 0, 0],
      ["companies_enrich", "test", 12, 0, 0],
      ["companies_search", "test", 4, 0, 0],
      ["companies_discover", "test", 4, 0, 0],
    ]);
  });

  it("walks the sandbox's search pages with its cursor, and cuts a page to the budget as a live key's would be", async () => {
    const target = await account();
    const whole = await target.test.call(companySearchContract, { headers: {}, body: { query: "globex", limit: 100 } });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await target.test.call(companySearchContract, {
        headers: {},
        body: { query: "globex", limit: 3, ...(cursor && { cursor }) },
      });
      expect(page.data.total).toBe(whole.data.total);
      seen.push(...page.data.companies.map((company) => company.domain));
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(whole.data.companies.map((company) => company.domain));

    const cut = await target.test.call(companyDiscoverContract, {
      headers: { "x-budget-cents": "4" },
      body: { domain: "stripe.com", limit: 10 },
    });
    expect(cut.data.companies).toHaveLength(2);
    expect(cut.meta).toMatchObject({ costCents: 4, budgetCents: 4, budgetCentsPerRecord: 1, records: 2 });
  });
});

describe("companies/enrich with live keys", () => {
  beforeEach(async () => {
    await db().enrichmentCacheEntry.deleteMany();
  });

  it("builds the profile from the company's own website and DNS, and charges its price", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companyEnrichContract, { headers: {}, body: { domain: ACME } });
    const { technologies, keywords, ...profile } = answer.data;
    expect(profile).toEqual({
      domain: ACME,
      name: "Acme Analytics",
      legalName: "Acme Analytics, Inc.",
      description:
        "Acme Analytics is a logistics analytics platform that gives mid-size shippers one view of shipments, carriers and freight spend.",
      // Never inferred from a website: only a source that states them fills these.
      industry: null,
      sizeRange: null,
      employeeCount: null,
      founded: 2016,
      location: {
        street: "400 Example Avenue, Suite 12",
        locality: "Springfield",
        region: "IL",
        postalCode: "62704",
        country: "United States",
      },
      phone: "+1 217-555-0142",
      socialProfiles: [
        { network: "linkedin", url: "https://www.linkedin.com/company/acme-analytics-test" },
        { network: "twitter", url: "https://twitter.com/acmeanalytics" },
        { network: "github", url: "https://github.com/acme-analytics" },
      ],
      logo: "https://acme.example/wp-content/uploads/2024/01/acme-logo.png",
      mailProvider: "Google Workspace",
    });
    // The words it uses most about itself, its own name's words left out ("analytics").
    expect(keywords).toEqual([
      "freight",
      "logistics",
      "carrier",
      "platform",
      "give",
      "mid",
      "size",
      "shipper",
      "view",
      "shipment",
      "spend",
      "audit",
      "scorecard",
      "supply",
      "chain",
      "visibility",
      "saas",
    ]);
    const byName = new Map(technologies.map((technology) => [technology.name, technology.category]));
    expect(byName.get("WordPress")).toBe("CMS");
    for (const name of ["PHP", "Nginx", "jQuery", "Google Analytics", "Google Workspace"])
      expect(byName.has(name), name).toBe(true);
    for (const technology of technologies) expect(Object.keys(technology).sort()).toEqual(TECHNOLOGY_FIELDS);

    expect(answer.meta).toMatchObject({
      costCents: 12,
      priceRange: { minCents: 0, maxCents: 12 },
      cached: false,
      // The company-data vendor was asked for what the site does not state, and does not know this company.
      providersAttempted: 2,
      fieldsReturned: COMPANY_PROFILE_FIELDS.filter(
        (name) => !["industry", "sizeRange", "employeeCount"].includes(name),
      ),
      fieldsMissing: ["industry", "sizeRange", "employeeCount"],
      purchasedBalanceCents: 88,
    });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 88 });
    const [row] = await usageRows(target.workspaceId);
    expect(row).toMatchObject({
      operation: "companies_enrich",
      costCents: 12,
      purchasedDeltaCents: -12,
      inputHash: inputHash("companies_enrich", { domain: ACME }),
    });
  });

  it("asks the company-data vendor for what a site never states, and stops before it when the budget cannot pay for it", async () => {
    const target = await account(0, 100);
    const requests = pdl.requests.length;
    const answer = await target.live.call(companyEnrichContract, {
      headers: {},
      body: { domain: "acme-robotics.example" },
    });
    expect(answer.data).toMatchObject({
      domain: "acme-robotics.example",
      name: expect.any(String),
      industry: expect.any(String),
      sizeRange: expect.any(String),
    });
    expect(answer.meta).toMatchObject({ providersAttempted: 2, costCents: 12 });
    expect(pdl.requests.length).toBe(requests + 1);
    expect(pdl.requests.at(-1)?.headers["x-api-key"]).toBe(pdl.apiKey);

    // A budget below the price cannot start the call: 402 before any upstream work.
    const refused = await raw(ENRICH, {
      key: target.liveKey,
      body: { domain: "acme-robotics.example" },
      headers: { "x-budget-cents": "9", "cache-control": "no-cache" },
    });
    expect(refused.status).toBe(402);
    expect(pdl.requests.length).toBe(requests + 1);
  });

  it("serves the same question from the cache for free, and answers again with no-cache", async () => {
    const target = await account(0, 100);
    const first = await target.live.call(companyEnrichContract, { headers: {}, body: { domain: "other.example" } });
    expect(first.data).toMatchObject({
      domain: "other.example",
      name: "Sunrise Bakery",
      industry: null,
      mailProvider: null,
    });
    expect(first.meta).toMatchObject({ cached: false, costCents: 12 });

    const requests = sites.requests.length;
    const second = await target.live.call(companyEnrichContract, { headers: {}, body: { domain: "Other.Example" } });
    expect(second.data).toEqual(first.data);
    expect(second.meta).toMatchObject({ cached: true, costCents: 0, providersAttempted: 0 });
    expect(sites.requests.length).toBe(requests);

    const fresh = await target.live.call(companyEnrichContract, {
      headers: { "cache-control": "no-cache" },
      body: { domain: "other.example" },
    });
    expect(fresh.meta).toMatchObject({ cached: false, costCents: 12 });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 76 });
    expect((await usageRows(target.workspaceId)).map((row) => [row.costCents, row.cached])).toEqual([
      [12, false],
      [0, true],
      [12, false],
    ]);
  });

  it("is free when no profile is found, and a mail provider alone is not a profile", async () => {
    const target = await account(0, 12);
    const answer = await target.live.call(companyEnrichContract, {
      headers: {},
      body: { domain: "mail-only.example" },
    });
    expect(answer.data).toEqual({
      domain: "mail-only.example",
      name: null,
      legalName: null,
      description: null,
      industry: null,
      keywords: [],
      sizeRange: null,
      employeeCount: null,
      founded: null,
      location: null,
      phone: null,
      socialProfiles: [],
      logo: null,
      mailProvider: "Google Workspace",
      technologies: [],
    });
    expect(answer.meta).toMatchObject({ costCents: 0, fieldsReturned: ["mailProvider"] });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 12 });

    const nothing = await target.live.call(companyEnrichContract, {
      headers: {},
      body: { domain: "nowhere-at-all.example" },
    });
    expect(nothing.data).toMatchObject({
      domain: "nowhere-at-all.example",
      name: null,
      mailProvider: null,
      technologies: [],
    });
    expect(nothing.meta).toMatchObject({
      costCents: 0,
      fieldsReturned: [],
      fieldsMissing: [...COMPANY_PROFILE_FIELDS],
    });
  });

  it("adds what it learned to the company store", async () => {
    const target = await account(0, 100);
    await target.live.call(companyEnrichContract, { headers: {}, body: { domain: "rival.example" } });
    const stored = await db().company.findUniqueOrThrow({ where: { domain: "rival.example" } });
    expect(stored).toMatchObject({
      name: "Rival Freight Insights",
      technologies: expect.arrayContaining(["WordPress"]),
    });
    expect(stored.keywords).toEqual([
      "analytics",
      "carrier",
      "benchmarking",
      "supply",
      "chain",
      "visibility",
      "growing",
      "shipper",
      "logistics",
      "scorecard",
      "rate",
    ]);
    expect(stored.profile).toMatchObject({
      address: {
        street: "1200 Sample Street, Floor 3",
        locality: "Chicago",
        region: "IL",
        postalCode: "60607",
        country: "United States",
      },
    });
  });
});

/** Companies only the paging tests find: `count` of them, found by PAGING_WORD. */
async function seedPagingCompanies(count: number) {
  for (let index = 1; index <= count; index += 1) {
    const number = String(index).padStart(2, "0");
    await saveCompany(db(), {
      domain: `paging-${number}.example`,
      name: `Paging Company ${number}`,
      description: `Company ${number} of the ${PAGING_WORD} paging test.`,
      keywords: [PAGING_WORD, `pager${index % 3}`],
      technologies: index % 2 === 0 ? ["Nginx", "WordPress"] : ["Nginx"],
      profile: {},
    });
  }
}

describe("companies/search with live keys", () => {
  beforeAll(async () => {
    // Visits add the companies to the store.
    const visitor = await account(0, 1000);
    for (const domain of [ACME, "rival.example", "other.example"])
      await visitor.live.call(companyEnrichContract, { headers: {}, body: { domain } });
    await seedPagingCompanies(23);
  });

  beforeEach(async () => {
    await db().enrichmentCacheEntry.deleteMany();
  });

  it("resolves a company's name to its domain first, and prices the page per company", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companySearchContract, { headers: {}, body: { query: "acme analytics" } });
    expect(answer.data.companies[0]).toEqual({
      domain: ACME,
      name: "Acme Analytics",
      description:
        "Acme Analytics is a logistics analytics platform that gives mid-size shippers one view of shipments, carriers and freight spend.",
      score: 1,
    });
    expect(answer.data.companies.map((company) => company.domain)).not.toContain("other.example");
    expect(answer.data.total).toBe(answer.data.companies.length);
    expect(answer.data.nextCursor).toBeNull();
    const records = answer.data.companies.length;
    expect(answer.meta).toMatchObject({
      costCents: 1 + records,
      records,
      priceRange: { minCents: 1, maxCents: 11 },
      cached: false,
      fieldsMissing: [],
    });
  });

  it("finds companies by keywords, best first", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companySearchContract, { headers: {}, body: { query: "freight analytics" } });
    expect(answer.data.companies.map((company) => company.domain)).toEqual(
      expect.arrayContaining([ACME, "rival.example"]),
    );
    expect(answer.data.companies.map((company) => company.domain)).not.toContain("other.example");
    const scores = answer.data.companies.map((company) => company.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("answers no company for free: a search that finds nothing is not charged", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companySearchContract, {
      headers: {},
      body: { query: "quantum submarine brewery" },
    });
    expect(answer.data).toEqual({ companies: [], total: 0, nextCursor: null });
    expect(answer.meta).toMatchObject({
      costCents: 0,
      records: 0,
      providersAttempted: 1,
      fieldsMissing: ["companies"],
    });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 100 });
  });

  it("walks every page with the cursor without skips or repeats, from one ranking", async () => {
    const target = await account(0, 100);
    const seen: string[] = [];
    const metas = [];
    let cursor: string | undefined;
    do {
      const page = await target.live.call(companySearchContract, {
        headers: {},
        body: { query: PAGING_WORD, limit: 5, ...(cursor && { cursor }) },
      });
      expect(page.data.total).toBe(23);
      seen.push(...page.data.companies.map((company) => company.domain));
      metas.push(page.meta);
      cursor = page.data.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    const whole = await target.live.call(companySearchContract, {
      headers: {},
      body: { query: PAGING_WORD, limit: 100 },
    });
    expect(seen).toEqual(whole.data.companies.map((company) => company.domain));
    // The first page ranks (and pays); the others are cut from the cached ranking.
    expect(metas.map((meta) => [meta.records, meta.costCents, meta.cached])).toEqual([
      [5, 6, false],
      [5, 0, true],
      [5, 0, true],
      [5, 0, true],
      [3, 0, true],
    ]);
  });

  it("cuts a page to X-Budget-Cents and continues right after it", async () => {
    const target = await account(0, 100);
    const whole = await target.live.call(companySearchContract, {
      headers: { "cache-control": "no-cache" },
      body: { query: PAGING_WORD, limit: 100 },
    });
    const cut = await target.live.call(companySearchContract, {
      headers: { "x-budget-cents": "3", "cache-control": "no-cache" },
      body: { query: PAGING_WORD, limit: 5 },
    });
    expect(cut.data.companies).toEqual(whole.data.companies.slice(0, 2));
    expect(cut.meta).toMatchObject({ costCents: 3, budgetCents: 3, budgetCentsPerRecord: 1, records: 2 });
    const next = await target.live.call(companySearchContract, {
      headers: {},
      body: { query: PAGING_WORD, limit: 5, cursor: cut.data.nextCursor! },
    });
    expect(next.data.companies).toEqual(whole.data.companies.slice(2, 7));
  });

  it("refuses a tampered cursor, and one from another query, key mode or workspace, with 400 before any cost", async () => {
    const target = await account(0, 100);
    const other = await account(0, 100);
    const first = await target.live.call(companySearchContract, {
      headers: {},
      body: { query: PAGING_WORD, limit: 5 },
    });
    const cursor = first.data.nextCursor!;
    const [payload, signature] = cursor.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), o: 0 }),
    ).toString("base64url");
    const testCursor = (
      await target.test.call(companySearchContract, { headers: {}, body: { query: PAGING_WORD, limit: 5 } })
    ).data.nextCursor!;
    const before = await usageRows(target.workspaceId);
    for (const [key, body] of [
      [target.liveKey, { query: PAGING_WORD, cursor: `${forged}.${signature}` }],
      [target.liveKey, { query: PAGING_WORD, cursor: `${payload}.${signature}x` }],
      [target.liveKey, { query: PAGING_WORD, cursor: "not-a-cursor" }],
      [target.liveKey, { query: "acme", cursor }],
      [target.liveKey, { query: PAGING_WORD, cursor: testCursor }],
      [other.liveKey, { query: PAGING_WORD, cursor }],
    ] as const) {
      const answer = await raw(SEARCH, { key, body });
      expect(answer.status).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["cursor"]);
    }
    expect(await usageRows(target.workspaceId)).toEqual(before);
    // The same query in another case and spacing is the same list: its cursor is valid.
    const again = await target.live.call(companySearchContract, {
      headers: {},
      body: { query: ` ${PAGING_WORD.toUpperCase()} `, limit: 5, cursor },
    });
    expect(again.data.companies.map((company) => company.domain)).not.toContain(first.data.companies[0]!.domain);
  });
});

describe("companies/discover with live keys", () => {
  beforeAll(async () => {
    const visitor = await account(0, 1000);
    for (const domain of [ACME, "rival.example", "other.example"])
      await visitor.live.call(companyEnrichContract, { headers: {}, body: { domain } });
    await seedPagingCompanies(23);
    // Known to the store but not reachable: its lookalikes come from what the store knows of it.
    await saveCompany(db(), {
      domain: "stored-only.example",
      name: "Stored Only",
      description: null,
      keywords: [PAGING_WORD, "pager1"],
      technologies: [],
      profile: {},
    });
  });

  beforeEach(async () => {
    await db().enrichmentCacheEntry.deleteMany();
  });

  it("lists lookalikes of a company's site: the one in the same trade, not the bakery, not itself", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companyDiscoverContract, { headers: {}, body: { domain: ACME } });
    // 7 of 21 keywords and 5 of 15 technologies shared: 0.7 × 7/21 + 0.3 × 5/15 = 0.333.
    expect(answer.data).toEqual({
      companies: [
        {
          domain: "rival.example",
          name: "Rival Freight Insights",
          similarity: 0.333,
          matched: [
            "logistics",
            "carrier",
            "shipper",
            "scorecard",
            "supply",
            "chain",
            "visibility",
            "jQuery",
            "Open Graph",
            "PHP",
            "WordPress",
            "MySQL",
          ],
        },
      ],
      total: 1,
      nextCursor: null,
    });
    expect(answer.meta).toMatchObject({
      costCents: 2 + 1,
      records: 1,
      priceRange: { minCents: 2, maxCents: 12 },
      fieldsReturned: ["companies"],
      fieldsMissing: [],
    });
  });

  it("finds lookalikes of a company it can only read from the store", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companyDiscoverContract, {
      headers: {},
      body: { domain: "stored-only.example", limit: 100 },
    });
    expect(answer.data.total).toBe(23);
    expect(answer.data.companies[0]!.matched).toEqual([PAGING_WORD, "pager1"]);
  });

  it("answers an unknown company with no lookalike, for free", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companyDiscoverContract, {
      headers: {},
      body: { domain: "nowhere-at-all.example" },
    });
    expect(answer.data).toEqual({ companies: [], total: 0, nextCursor: null });
    expect(answer.meta).toMatchObject({
      costCents: 0,
      records: 0,
      providersAttempted: 1,
      fieldsMissing: ["companies"],
    });
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 100 });
  });

  it("lists companies matching filters, most matches first, without a similarity", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(companyDiscoverContract, {
      headers: {},
      body: { filters: { technologies: ["wordpress", "NGINX"], keywords: ["Pager2"] }, limit: 100 },
    });
    // Companies 2, 5, 8… 23 have the keyword pager2; all of them run Nginx, the even ones WordPress too.
    expect(answer.data.total).toBe(8);
    for (const company of answer.data.companies) {
      expect(company.similarity).toBeNull();
      expect(company.matched[0]).toBe("pager2");
    }
    expect(answer.data.companies.map((company) => [company.domain, company.matched])).toEqual([
      ...["02", "08", "14", "20"].map((number) => [`paging-${number}.example`, ["pager2", "WordPress", "Nginx"]]),
      ...["05", "11", "17", "23"].map((number) => [`paging-${number}.example`, ["pager2", "Nginx"]]),
    ]);

    const inUs = await target.live.call(companyDiscoverContract, {
      headers: {},
      body: { filters: { country: "USA", technologies: ["WordPress"] } },
    });
    // Both sites state "United States"; the seeded companies state no address.
    expect(inUs.data.companies.map((company) => company.domain)).toEqual([ACME, "rival.example"]);
    const inRiverton = await target.live.call(companyDiscoverContract, {
      headers: {},
      body: { filters: { locality: "riverton" } },
    });
    expect(inRiverton.data.companies.map((company) => company.domain)).toEqual(["other.example"]);
  });

  it("walks every page of a filtered list with the cursor without skips or repeats", async () => {
    const target = await account(0, 100);
    const body = { filters: { keywords: [PAGING_WORD] } };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await target.live.call(companyDiscoverContract, {
        headers: {},
        body: { ...body, limit: 4, ...(cursor && { cursor }) },
      });
      expect(page.data.total).toBe(24);
      seen.push(...page.data.companies.map((company) => company.domain));
      cursor = page.data.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(6);
    expect(new Set(seen).size).toBe(24);
    const whole = await target.live.call(companyDiscoverContract, { headers: {}, body: { ...body, limit: 100 } });
    expect(seen).toEqual(whole.data.companies.map((company) => company.domain));

    const tampered = await raw(DISCOVER, {
      key: target.liveKey,
      body: { ...body, cursor: `${whole.data.nextCursor ?? "x"}Z` },
    });
    expect(tampered.status).toBe(400);
    const first = await target.live.call(companyDiscoverContract, { headers: {}, body: { ...body, limit: 4 } });
    const otherFilters = await raw(DISCOVER, {
      key: target.liveKey,
      body: { filters: { keywords: ["pager1"] }, cursor: first.data.nextCursor },
    });
    expect(otherFilters.status).toBe(400);
    expect(detailPaths(otherFilters.json)).toEqual(["cursor"]);
  });
});

describe("provider names never leave the server", () => {
  it("no body or header of this file names a provider, the vendor, its key or an internal address", async () => {
    const providers = liveProviders();
    const ids = [...providers.companyEnrich, ...providers.companySearch, ...providers.companyDiscover].map((provider) =>
      provider.id.toLowerCase(),
    );
    expect(ids).toEqual(["website-profile", "peopledatalabs-company", "company-store", "company-store"]);
    const needles = [
      ...new Set([
        ...ids,
        "peopledatalabs",
        "people data labs",
        "fingerprint",
        "wappalyzer",
        pdl.apiKey.toLowerCase(),
        new URL(pdl.baseUrl).host,
        "127.0.0.1",
      ]),
    ];

    // Failures too: the vendor failing, and every error status.
    const target = await account(0, 10_000);
    const poor = await account(0, 0);
    const bodies: [string, unknown][] = [
      [ENRICH, { domain: "acme-robotics.example" }],
      [SEARCH, { query: "acme" }],
      [DISCOVER, { domain: ACME, filters: { country: "US" } }],
    ];
    for (const mode of ["server_error", "malformed", "unauthorized"] as const) {
      pdl.setMode(mode);
      for (const [path, body] of bodies) {
        await raw(path, { key: target.liveKey, body, headers: { "cache-control": "no-cache" } });
        await raw(path, { key: target.testKey, body });
      }
    }
    pdl.setMode("normal");
    for (const [path, body] of bodies) {
      await raw(path, { key: poor.liveKey, body }); // 402 on balance (search and discover: base price)
      await raw(path, { key: target.liveKey, body, headers: { "x-budget-cents": "0" } }); // 402 unless free
      await raw(path, { key: `sbx_live_${"Z".repeat(40)}`, body }); // 401
      await raw(path, { key: target.liveKey, body: { ...(body as object), bogus: 1 } }); // 400
    }
    const statuses = new Set(recorded.map((entry) => entry.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 402]);

    for (const entry of recorded) {
      const haystack =
        `${entry.text}\n${entry.headers.map(([name, value]) => `${name}: ${value}`).join("\n")}`.toLowerCase();
      for (const needle of needles) expect(haystack.includes(needle), `${entry.what} contains "${needle}"`).toBe(false);
    }
    expect(recorded.length).toBeGreaterThan(150);
    expect(app.output()).not.toContain(pdl.apiKey);
  });
});
