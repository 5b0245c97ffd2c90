import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodeOffsetCursor } from "@/lib/cursor";
import { PRICES } from "@/lib/billing/prices";
import { creditWorkspace } from "@/lib/billing/balances";
import {
  peopleSearchContract,
  personEmailContract,
  personEnrichContract,
  personMobileContract,
} from "@/lib/contracts/people";
import { db } from "@/lib/db/client";
import { liveProviders } from "@/lib/providers/registry";
import { savePeople } from "@/lib/providers/first-party/people/people-store";
import { startApp, type RunningApp } from "@/test/app-server";
import { type Account, balances, closedPort, enrichmentHarness, usageRows } from "@/test/enrichment-harness";
import { startCompanySites, type CompanySites } from "@/test/fakes/company-sites";
import { startFakeDnsServer, type FakeDnsServer } from "@/test/fakes/dns-server";
import { startFakeHunter, type FakeHunter } from "@/test/fakes/hunter-server";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import { detailPaths, errorOf } from "@/test/http-api";
import { inputHash } from "@/lib/billing/answer-cache";

/*
 * The four people endpoints over real HTTP, through the real waterfall: the launcher in its own process, its DNS
 * answered by a local DNS server, the company websites served on loopback (reached as http://acme.example/ through
 * OUTBOUND_TEST_PORTS), and the vendor adapters pointed at local fakes of their vendors. Nothing inside the app is
 * faked: the SSRF-safe client, robots.txt, the crawler, the people store, billing, the ledger and the cache run for real.
 * Tests run in file order and share the app, so a site crawled once stays in the app's snapshot for ten minutes.
 */

const EMAIL = personEmailContract.path;
const ENRICH = personEnrichContract.path;
const MOBILE = personMobileContract.path;
const SEARCH = peopleSearchContract.path;
const ACME = "acme.example";
const RIVAL = "rival.example";
const TEAM = "http://acme.example/team/";
const TODAY = new Date().toISOString().slice(0, 10);
const GOOGLE_MX = [{ exchange: "aspmx.l.google.com", priority: 1 }];
const PERSON_EMAIL_FIELDS = ["email", "domain", "position", "seniority", "department", "pattern", "candidates"];
const PROFILE_FIELDS = [
  "fullName",
  "firstName",
  "lastName",
  "position",
  "seniority",
  "department",
  "email",
  "company",
  "location",
  "socialProfiles",
];
const JORDAN_LINKEDIN = "https://www.linkedin.com/in/jordan-ellis-acme-test";
const HANNAH_LINKEDIN = "https://www.linkedin.com/in/hannah-schmidt-acme-test";

let app: RunningApp;
const { recorded, raw, account } = enrichmentHarness(() => app.baseUrl, "People tests");
let dns: FakeDnsServer;
let sites: CompanySites;
let hunter: FakeHunter;
let pdl: FakePdl;

// ---------------------------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------------------------
// Money and keys.

/** The one ledger row of a workspace that made one call says what the answer's meta says. */
async function expectLedgerMatches(workspaceId: string, operation: string, meta: Record<string, unknown>) {
  const rows = await usageRows(workspaceId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    operation,
    costCents: meta.costCents,
    cached: meta.cached,
    providersAttempted: meta.providersAttempted,
    records: meta.records ?? null,
    subscriptionRemainingCents: meta.subscriptionRemainingCents,
    purchasedBalanceCents: meta.purchasedBalanceCents,
  });
  expect(await balances(workspaceId)).toEqual({
    subscriptionRemainingCents: meta.subscriptionRemainingCents,
    purchasedBalanceCents: meta.purchasedBalanceCents,
  });
}

/** Upstream traffic so far: page requests to the company sites and calls to each vendor. */
function upstream() {
  return { sites: sites.requests.length, hunter: hunter.requests.length, pdl: pdl.requests.length };
}

beforeAll(async () => {
  [sites, hunter, pdl] = await Promise.all([startCompanySites(), startFakeHunter(), startFakePdl()]);
  dns = await startFakeDnsServer({
    "acme.example": { A: ["127.0.0.1"], MX: GOOGLE_MX },
    "careers.acme.example": { A: ["127.0.0.1"] },
    "rival.example": { A: ["127.0.0.1"], MX: [{ exchange: "rival-test.mail.protection.outlook.com", priority: 0 }] },
    "other.example": { A: ["127.0.0.1"] },
  });
  const appEnv = {
    DNS_SERVERS: dns.server,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    OUTBOUND_TEST_PORTS: `http=${sites.port},https=${await closedPort()}`,
    HUNTER_API_KEY: hunter.apiKey,
    HUNTER_API_URL: hunter.baseUrl,
    PEOPLEDATALABS_API_KEY: pdl.apiKey,
    PEOPLEDATALABS_API_URL: pdl.baseUrl,
    SEC_EDGAR_ENABLED: "false",
    // Shared with this process, so it can sign cursors the app accepts.
    SIGNALBOX_SECRET: randomBytes(32).toString("base64url"),
  };
  // This process builds the same provider lists as the app, for the leak scan's provider ids.
  Object.assign(process.env, appEnv);
  app = await startApp(appEnv);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([dns?.close(), sites?.close(), hunter?.close(), pdl?.close()]);
});

beforeEach(() => {
  hunter.setMode("normal");
  pdl.setMode("normal");
});

// ---------------------------------------------------------------------------------------------------------------

describe("request validation", () => {
  let target: Account;

  beforeAll(async () => {
    target = await account(100, 100);
  });

  const emailCases: [string, unknown, string[]][] = [
    [
      "unknown keys",
      { firstName: "Jordan", lastName: "Ellis", domain: ACME, middleName: "Q", email: "x" },
      ["email", "middleName"],
    ],
    ["a numeric first name", { firstName: 7, lastName: "Ellis", domain: ACME }, ["firstName"]],
    ["an empty last name", { firstName: "Jordan", lastName: "", domain: ACME }, ["lastName"]],
    ["a blank first name", { firstName: "   ", lastName: "Ellis", domain: ACME }, ["firstName"]],
    ["a first name of 101 characters", { firstName: "J".repeat(101), lastName: "Ellis", domain: ACME }, ["firstName"]],
    ["no name at all", { domain: ACME }, ["firstName", "lastName"]],
    ["a first name alone", { firstName: "Jordan", domain: ACME }, ["lastName"]],
    ["a one-word full name", { fullName: "Jordan", domain: ACME }, ["fullName"]],
    ["a full name and a first name", { fullName: "Jordan Ellis", firstName: "Jordan", domain: ACME }, ["fullName"]],
    ["neither domain nor company", { firstName: "Jordan", lastName: "Ellis" }, ["domain"]],
    [
      "both domain and company",
      { firstName: "Jordan", lastName: "Ellis", domain: ACME, company: "Acme Analytics" },
      ["company"],
    ],
    ["an empty company", { fullName: "Jordan Ellis", company: "" }, ["company"]],
    ["a domain with a scheme", { fullName: "Jordan Ellis", domain: `https://${ACME}` }, ["domain"]],
    ["localhost", { fullName: "Jordan Ellis", domain: "localhost" }, ["domain"]],
    ["an IP address", { fullName: "Jordan Ellis", domain: "127.0.0.1" }, ["domain"]],
    ["a .internal name", { fullName: "Jordan Ellis", domain: "db.internal" }, ["domain"]],
    [
      "many bad fields at once",
      { firstName: 1, lastName: "", domain: "localhost", extra: true },
      ["domain", "extra", "firstName", "lastName"],
    ],
    ["a JSON array", [], [""]],
    ["JSON null", "null", [""]],
  ];

  it.each(emailCases)("people/email refuses %s with 400 naming each bad field", async (_case, body, paths) => {
    const answer = await raw(EMAIL, { key: target.testKey, body });
    expect(answer.status).toBe(400);
    expect(errorOf(answer.json).code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
    for (const detail of errorOf(answer.json).details ?? []) expect(detail.message).not.toBe("");
  });

  const lookupCases: [string, unknown, string[]][] = [
    ["an empty body object", {}, ["email"]],
    [
      "both an address and a profile",
      { email: "jordan.ellis@acme.example", linkedinUrl: JORDAN_LINKEDIN },
      ["linkedinUrl"],
    ],
    ["an address without a domain", { email: "jordan.ellis" }, ["email"]],
    ["an address at localhost", { email: "jordan@localhost" }, ["email"]],
    ["an address at an IP", { email: "jordan@10.0.0.7" }, ["email"]],
    ["an address with a space", { email: "jordan ellis@acme.example" }, ["email"]],
    ["a numeric address", { email: 42 }, ["email"]],
    ["an empty address", { email: "" }, ["email"]],
    ["a profile elsewhere", { linkedinUrl: "https://example.com/in/jordan" }, ["linkedinUrl"]],
    ["a company page", { linkedinUrl: "https://www.linkedin.com/company/acme-analytics-test" }, ["linkedinUrl"]],
    ["a look-alike host", { linkedinUrl: "https://linkedin.com.evil.example/in/jordan" }, ["linkedinUrl"]],
    ["unknown keys", { email: "jordan.ellis@acme.example", phone: "+1" }, ["phone"]],
    ["many bad fields at once", { email: "nope", linkedinUrl: 3, extra: 1 }, ["email", "extra", "linkedinUrl"]],
    ["a JSON string", '"jordan.ellis@acme.example"', [""]],
  ];

  describe.each([
    ["people/enrich", ENRICH],
    ["people/mobile", MOBILE],
  ])("%s", (_name, path) => {
    it.each(lookupCases)("refuses %s with 400 naming each bad field", async (_case, body, paths) => {
      const answer = await raw(path, { key: target.testKey, body });
      expect(answer.status).toBe(400);
      expect(errorOf(answer.json).code).toBe("validation_error");
      expect(detailPaths(answer.json)).toEqual(paths);
    });
  });

  const searchCases: [string, unknown, string[]][] = [
    ["an empty body object", {}, ["domain"]],
    ["a domain with a path", { domain: `${ACME}/team` }, ["domain"]],
    ["an empty titles list", { domain: ACME, titles: [] }, ["titles"]],
    ["titles as a string", { domain: ACME, titles: "cto" }, ["titles"]],
    ["an empty title", { domain: ACME, titles: ["cto", ""] }, ["titles.1"]],
    ["21 titles", { domain: ACME, titles: Array.from({ length: 21 }, (_, index) => `title ${index}`) }, ["titles"]],
    ["an unknown seniority", { domain: ACME, seniority: ["boss"] }, ["seniority.0"]],
    ["an upper-case seniority", { domain: ACME, seniority: ["SENIOR"] }, ["seniority.0"]],
    ["seniority as a string", { domain: ACME, seniority: "senior" }, ["seniority"]],
    ["a numeric department", { domain: ACME, department: [3] }, ["department.0"]],
    ["limit 0", { domain: ACME, limit: 0 }, ["limit"]],
    ["limit 101", { domain: ACME, limit: 101 }, ["limit"]],
    ["limit 1.5", { domain: ACME, limit: 1.5 }, ["limit"]],
    ['limit "10"', { domain: ACME, limit: "10" }, ["limit"]],
    ["an empty cursor", { domain: ACME, cursor: "" }, ["cursor"]],
    ["a numeric cursor", { domain: ACME, cursor: 10 }, ["cursor"]],
    ["an offset (paging is by cursor)", { domain: ACME, offset: 10 }, ["offset"]],
    [
      "many bad fields at once",
      { domain: "localhost", titles: [], seniority: ["x"], limit: 0, page: 2 },
      ["domain", "limit", "page", "seniority.0", "titles"],
    ],
  ];

  it.each(searchCases)("people/search refuses %s with 400 naming each bad field", async (_case, body, paths) => {
    const answer = await raw(SEARCH, { key: target.testKey, body });
    expect(answer.status).toBe(400);
    expect(errorOf(answer.json).code).toBe("validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
  });

  it.each([
    [EMAIL, { fullName: "Jordan Ellis", domain: ACME }],
    [ENRICH, { email: "jordan.ellis@acme.example" }],
    [MOBILE, { linkedinUrl: JORDAN_LINKEDIN }],
    [SEARCH, { domain: ACME }],
  ])("%s refuses a malformed X-Budget-Cents and malformed JSON with 400", async (path, body) => {
    for (const value of ["abc", "-1", "1.5"]) {
      const answer = await raw(path, { key: target.liveKey, body, headers: { "x-budget-cents": value } });
      expect(answer.status).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["x-budget-cents"]);
    }
    expect((await raw(path, { key: target.liveKey, body: "{" })).status).toBe(400);
    expect(
      (await raw(path, { key: target.liveKey, body: JSON.stringify(body), contentType: "text/plain" })).status,
    ).toBe(415);
  });

  it("refuses a cursor issued for other filters, another company or another workspace, or forged, with 400 before any work", async () => {
    const before = upstream();
    // Signed with the app's secret (this file shares it), so only the scope can make these wrong.
    const scope = {
      workspaceId: target.workspaceId,
      list: "people_search",
      domain: ACME,
      titles: undefined,
      seniority: undefined,
      department: undefined,
    };
    const refused = [
      encodeOffsetCursor(2, { ...scope, seniority: "senior" }),
      encodeOffsetCursor(2, { ...scope, domain: RIVAL }),
      encodeOffsetCursor(2, { ...scope, workspaceId: "ws_someone_else" }),
      encodeOffsetCursor(2, { ...scope, list: "companies_search" }),
      `${encodeOffsetCursor(2, scope).split(".")[0]}.AAAAAAAAAAAAAAAAAAAAAA`,
      "not-a-cursor",
    ];
    for (const cursor of refused) {
      const answer = await raw(SEARCH, { key: target.liveKey, body: { domain: ACME, cursor } });
      expect(answer.status, cursor).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["cursor"]);
    }
    expect(upstream()).toEqual(before);
    expect(await usageRows(target.workspaceId)).toEqual([]);
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 100, purchasedBalanceCents: 100 });
    // The same cursor for this workspace, company and filters is taken (a test key: the sandbox answers).
    const accepted = await raw(SEARCH, {
      key: target.testKey,
      body: { domain: ACME, cursor: encodeOffsetCursor(2, scope) },
    });
    expect(accepted.status).toBe(200);
  });
});

describe("authentication", () => {
  it.each([
    [EMAIL, { fullName: "Jordan Ellis", domain: ACME }],
    [ENRICH, { email: "jordan.ellis@acme.example" }],
    [MOBILE, { email: "jordan.ellis@acme.example" }],
    [SEARCH, { domain: ACME }],
  ])("%s answers 401 without a key, with an unknown key, and before reading the body", async (path, body) => {
    const before = upstream();
    for (const key of [null, `sbx_live_${"A".repeat(40)}`, `sbx_test_${"B".repeat(40)}`]) {
      const answer = await raw(path, { key, body });
      expect(answer.status).toBe(401);
      expect(answer.json).toEqual({ success: false, error: { code: "unauthorized", message: expect.any(String) } });
    }
    expect((await raw(path, { body: { bogus: true }, headers: { "x-budget-cents": "abc" } })).status).toBe(401);
    expect(upstream()).toEqual(before);
  });
});

describe("payment required", () => {
  // Nothing has been crawled yet: had any of these calls started, the company's site would have been asked for pages.
  const calls: [string, string, unknown, number][] = [
    ["people/email", EMAIL, { fullName: "Jordan Ellis", domain: ACME }, 4],
    ["people/enrich", ENRICH, { email: "jordan.ellis@acme.example" }, PRICES.people_enrich],
    ["people/mobile", MOBILE, { email: "priya.natarajan@acme.example" }, PRICES.people_mobile],
    ["people/search", SEARCH, { domain: RIVAL, limit: 5 }, 2],
  ];

  it.each(calls)(
    "refuses %s with 402 when the balance cannot pay for a hit, before any upstream request",
    async (_name, path, body, required) => {
      const target = await account(required - 1, 0);
      const before = upstream();
      const answer = await raw(path, { key: target.liveKey, body });
      expect(answer.status).toBe(402);
      expect(errorOf(answer.json).code).toBe("payment_required");
      expect(upstream()).toEqual(before);
      expect(await usageRows(target.workspaceId)).toEqual([]);
      expect(await balances(target.workspaceId)).toEqual({
        subscriptionRemainingCents: required - 1,
        purchasedBalanceCents: 0,
      });
    },
  );

  it.each(calls)(
    "refuses %s with 402 at a zero balance and when X-Budget-Cents is one cent short, whatever the key",
    async (_name, path, body, required) => {
      const broke = await account();
      const before = upstream();
      expect((await raw(path, { key: broke.liveKey, body })).status).toBe(402);
      const rich = await account(500, 500);
      for (const key of [rich.liveKey, rich.testKey]) {
        const answer = await raw(path, { key, body, headers: { "x-budget-cents": String(required - 1) } });
        expect(answer.status).toBe(402);
        expect(errorOf(answer.json).message).toContain(`${required} cents`);
      }
      expect(upstream()).toEqual(before);
      expect(await usageRows(rich.workspaceId)).toEqual([]);
    },
  );

  it("lets the same call through once the balance covers a hit, and then it does reach the site", async () => {
    const target = await account(3, 0);
    expect((await raw(EMAIL, { key: target.liveKey, body: { fullName: "Jordan Ellis", domain: ACME } })).status).toBe(
      402,
    );
    await creditWorkspace({ workspaceId: target.workspaceId, cents: 1, note: "top-up" });
    const before = upstream();
    const answer = await target.live.call(personEmailContract, {
      headers: {},
      body: { fullName: "Jordan Ellis", domain: ACME },
    });
    expect(answer.data.email).toBe("jordan.ellis@acme.example");
    expect(upstream().sites).toBeGreaterThan(before.sites);
    expect(answer.meta).toMatchObject({ costCents: 4, subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
  });
});

describe("people/email", () => {
  it("answers the address the company publishes for the person, ranked candidates, evidence and the person's facts", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personEmailContract, {
      headers: { "cache-control": "no-cache" },
      body: { firstName: "jordan", lastName: "ellis", domain: ACME },
    });
    expect(answer.data).toEqual({
      email: "jordan.ellis@acme.example",
      firstName: "Jordan",
      lastName: "Ellis",
      domain: ACME,
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
      confidence: 95,
      verification: { date: TODAY, status: "unknown" },
      sources: [{ uri: TEAM, extractedOn: TODAY }],
      candidates: [{ email: "jordan.ellis@acme.example", confidence: 95, reason: "found_on_site" }],
      pattern: "{first}.{last}",
    });
    // Sure enough after the site: the email finder is not asked.
    expect(answer.meta).toEqual({
      costCents: 4,
      purchasedBalanceCents: 96,
      subscriptionRemainingCents: 0,
      cached: false,
      latencyMs: expect.any(Number),
      priceRange: { minCents: 0, maxCents: 4 },
      providersAttempted: 1,
      fieldsReturned: PERSON_EMAIL_FIELDS,
      fieldsMissing: [],
    });
    await expectLedgerMatches(target.workspaceId, "people_email", answer.meta);
  });

  it("applies the company's format to a name its site does not list, then asks the email finder, and charges for the guess", async () => {
    const target = await account(0, 100);
    const before = hunter.requests.length;
    const answer = await target.live.call(personEmailContract, {
      headers: {},
      body: { fullName: "Alex Morgan", domain: ACME },
    });
    expect(answer.data).toMatchObject({
      email: "alex.morgan@acme.example",
      firstName: "Alex",
      lastName: "Morgan",
      confidence: 53,
      position: null,
      sources: [],
      candidates: [{ email: "alex.morgan@acme.example", confidence: 53, reason: "pattern" }],
      pattern: "{first}.{last}",
    });
    expect(
      hunter.requests
        .slice(before)
        .map((request) => [request.path, request.query.domain, request.query.first_name, request.query.last_name]),
    ).toEqual([["/v2/email-finder", ACME, "Alex", "Morgan"]]);
    expect(answer.meta).toMatchObject({
      costCents: 4,
      providersAttempted: 2,
      fieldsMissing: ["position", "seniority", "department"],
    });
  });

  it("falls through to the email finder when the company's site cannot be reached", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personEmailContract, {
      headers: {},
      body: { firstName: "Maria", lastName: "Gonzalez", domain: "acme-robotics.example" },
    });
    expect(answer.data).toMatchObject({
      email: "maria.gonzalez@acme-robotics.example",
      domain: "acme-robotics.example",
      position: "Chief Executive Officer",
      confidence: 97,
      verification: { date: "2025-11-20", status: "valid" },
      candidates: [{ email: "maria.gonzalez@acme-robotics.example", confidence: 97, reason: "vendor" }],
      pattern: null,
    });
    expect(answer.data.sources.length).toBeGreaterThan(0);
    expect(answer.meta).toMatchObject({ costCents: 4, providersAttempted: 2 });
  });

  it("answers email null with what is missing, free, for a person nobody has an address for", async () => {
    const target = await account(0, 100);
    for (const body of [
      { fullName: "Jordan Ellis", domain: "other.example" }, // a bakery's site: no addresses, no format; unknown to the finder
      { fullName: "Noor Haddad", domain: "acme-robotics.example" }, // asked the finder not to be processed (451)
    ]) {
      const answer = await target.live.call(personEmailContract, { headers: {}, body });
      expect(answer.data, JSON.stringify(body)).toMatchObject({
        email: null,
        confidence: null,
        verification: { date: null, status: null },
        sources: [],
        candidates: [],
        domain: body.domain,
      });
      expect(answer.meta.costCents).toBe(0);
      expect(answer.meta.fieldsMissing).toEqual(expect.arrayContaining(["email", "candidates"]));
    }
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 100 });
  });

  it("resolves a company name to a domain collected before", async () => {
    const target = await account(0, 100);
    await target.live.call(peopleSearchContract, { headers: {}, body: { domain: RIVAL, limit: 1 } }); // collects rival.example
    const answer = await target.live.call(personEmailContract, {
      headers: {},
      body: { fullName: "Mara Lindqvist", company: "rival freight insights" },
    });
    expect(answer.data).toMatchObject({
      email: "mlindqvist@rival.example",
      domain: RIVAL,
      pattern: "{f}{last}",
      position: "Founder & CEO",
    });
  });

  it("treats fullName and firstName + lastName as one question, cached for free", async () => {
    const target = await account(0, 100);
    const first = await target.live.call(personEmailContract, {
      headers: {},
      body: { fullName: "Dev Okafor", domain: RIVAL },
    });
    expect(first.meta).toMatchObject({ cached: false, costCents: 4 });
    for (const body of [
      { firstName: "DEV", lastName: " Okafor ", domain: "Rival.Example" },
      { fullName: "dev   okafor", domain: "www.rival.example" },
    ]) {
      const again = await target.live.call(personEmailContract, { headers: {}, body });
      expect(again.meta, JSON.stringify(body)).toMatchObject({ cached: true, costCents: 0, providersAttempted: 0 });
      expect(again.data).toEqual(first.data);
    }
    const rows = await usageRows(target.workspaceId);
    expect(rows.map((row) => [row.cached, row.costCents])).toEqual([
      [false, 4],
      [true, 0],
      [true, 0],
    ]);
    expect(rows[0]!.inputHash).toBe(inputHash("people_email", { firstName: "dev", lastName: "okafor", domain: RIVAL }));
  });
});

describe("people/enrich", () => {
  it("answers the profile of the person the company's site shows with that address", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personEnrichContract, {
      headers: {},
      body: { email: "Priya.Natarajan@acme.example" },
    });
    expect(answer.data).toEqual({
      fullName: "Priya Natarajan",
      firstName: "Priya",
      lastName: "Natarajan",
      position: "VP Sales",
      seniority: "executive",
      department: "sales",
      email: "priya.natarajan@acme.example",
      company: { name: "Acme Analytics", domain: ACME },
      location: { locality: "Springfield", region: "IL", country: "United States" },
      socialProfiles: [{ network: "twitter", url: "https://twitter.com/priya_ships" }],
    });
    expect(answer.meta).toMatchObject({
      costCents: 35,
      cached: false,
      providersAttempted: 1,
      priceRange: { minCents: 0, maxCents: 35 },
      fieldsReturned: PROFILE_FIELDS,
      fieldsMissing: [],
    });
    await expectLedgerMatches(target.workspaceId, "people_enrich", answer.meta);
  });

  it("finds a person by their LinkedIn URL through the people store, then reads them fresh from their site", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personEnrichContract, {
      headers: {},
      body: { linkedinUrl: "linkedin.com/in/Hannah-Schmidt-Acme-Test/" },
    });
    expect(answer.data).toEqual({
      fullName: "Hannah Schmidt",
      firstName: "Hannah",
      lastName: "Schmidt",
      position: "Head of Marketing",
      seniority: "senior",
      department: "marketing",
      // Not published: the company's format gives it.
      email: "hannah.schmidt@acme.example",
      company: { name: "Acme Analytics", domain: ACME },
      location: { locality: "Springfield", region: "IL", country: "United States" },
      socialProfiles: [{ network: "linkedin", url: HANNAH_LINKEDIN }],
    });
    expect(answer.meta.costCents).toBe(PRICES.people_enrich);
  });

  it("answers someone the site no longer lists from the store, less surely, with their company from the company store", async () => {
    await savePeople(db(), RIVAL, [
      {
        fullName: "Olga Berg",
        firstName: "Olga",
        lastName: "Berg",
        position: "Head of Partnerships",
        email: "oberg@rival.example",
        linkedin: "https://www.linkedin.com/in/olga-berg-rival-test",
        twitter: null,
        phone: "+1 312-555-0199",
        sourceUrl: "http://rival.example/team/",
      },
    ]);
    const target = await account(0, 100);
    const answer = await target.live.call(personEnrichContract, {
      headers: {},
      body: { email: "oberg@rival.example" },
    });
    expect(answer.data).toMatchObject({
      fullName: "Olga Berg",
      position: "Head of Partnerships",
      email: "oberg@rival.example",
      company: { name: "Rival Freight Insights", domain: RIVAL },
      location: { locality: "Chicago", region: "IL" },
      socialProfiles: [{ network: "linkedin", url: "https://www.linkedin.com/in/olga-berg-rival-test" }],
    });
    expect(answer.meta).toMatchObject({ costCents: 35, providersAttempted: 2 });
  });

  it("answers every field null, free, for an address nobody knows, after asking the person-data vendor too", async () => {
    const target = await account(0, 100);
    const before = upstream();
    const answer = await target.live.call(personEnrichContract, {
      headers: {},
      body: { email: "nobody.here@rival.example" },
    });
    expect(answer.data).toEqual({
      fullName: null,
      firstName: null,
      lastName: null,
      position: null,
      seniority: null,
      department: null,
      email: null,
      company: null,
      location: null,
      socialProfiles: [],
    });
    expect(answer.meta).toMatchObject({
      costCents: 0,
      fieldsReturned: [],
      fieldsMissing: PROFILE_FIELDS,
      providersAttempted: 3,
    });
    expect(upstream().pdl).toBe(before.pdl + 1);
    await expectLedgerMatches(target.workspaceId, "people_enrich", answer.meta);
    // Nothing found is not cached: asking again goes upstream again (and is free again).
    const again = await target.live.call(personEnrichContract, {
      headers: {},
      body: { email: "nobody.here@rival.example" },
    });
    expect(again.meta).toMatchObject({ cached: false, costCents: 0 });
  });
});

describe("people lookups through the person-data vendor", () => {
  it("enriches a person our own data does not know from the vendor's record, at the price", async () => {
    const target = await account(0, 100);
    const before = upstream();
    const answer = await target.live.call(personEnrichContract, {
      headers: {},
      body: { email: "maria.gonzalez@acme-robotics.example" },
    });
    expect(answer.data).toMatchObject({
      fullName: "Maria Gonzalez",
      firstName: "Maria",
      lastName: "Gonzalez",
      email: "maria.gonzalez@acme-robotics.example",
    });
    expect(answer.meta).toMatchObject({ costCents: 35, providersAttempted: 3 });
    expect(upstream().pdl).toBe(before.pdl + 1);
    expect(pdl.requests.at(-1)?.headers["x-api-key"]).toBe(pdl.apiKey);
    await expectLedgerMatches(target.workspaceId, "people_enrich", answer.meta);
  });

  it("answers the vendor's numbers in E.164: the mobile as mobile, the others once each", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personMobileContract, {
      headers: {},
      body: { email: "maria.gonzalez@acme-robotics.example" },
    });
    const numbers = answer.data.phoneNumbers.map((phone) => [phone.number, phone.type]);
    expect(numbers[0]).toEqual(["+12025550143", "mobile"]);
    expect(numbers).toContainEqual(["+12025550177", "other"]);
    expect(new Set(numbers.map(([number]) => number)).size).toBe(numbers.length);
    expect(answer.meta).toMatchObject({ costCents: 45, fieldsMissing: [] });
  });
});

describe("people/mobile", () => {
  it("answers the number printed in the person's own card as a work number in E.164", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personMobileContract, {
      headers: {},
      body: { email: "priya.natarajan@acme.example" },
    });
    expect(answer.data).toEqual({
      phoneNumbers: [{ number: "+12175550144", type: "work", confidence: 0.9, source: TEAM }],
    });
    expect(answer.meta).toMatchObject({
      costCents: 45,
      priceRange: { minCents: 0, maxCents: 45 },
      fieldsReturned: ["phoneNumbers"],
      fieldsMissing: [],
    });
    await expectLedgerMatches(target.workspaceId, "people_mobile", answer.meta);
  });

  it("answers a number an earlier visit saw, by LinkedIn URL", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(personMobileContract, {
      headers: {},
      body: { linkedinUrl: "https://www.linkedin.com/in/olga-berg-rival-test" },
    });
    expect(answer.data).toEqual({
      phoneNumbers: [{ number: "+13125550199", type: "work", confidence: 0.7, source: "http://rival.example/team/" }],
    });
  });

  it("never offers the company's switchboard as a person's number: nothing found is free and says phoneNumbers is missing", async () => {
    const target = await account(0, 100);
    for (const body of [
      { email: "jordan.ellis@acme.example" },
      { linkedinUrl: JORDAN_LINKEDIN },
      { email: "mlindqvist@rival.example" },
    ]) {
      const answer = await target.live.call(personMobileContract, { headers: {}, body });
      expect(answer.data, JSON.stringify(body)).toEqual({ phoneNumbers: [] });
      expect(answer.meta).toMatchObject({ costCents: 0, fieldsReturned: [], fieldsMissing: ["phoneNumbers"] });
    }
    expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 100 });
  });
});

describe("people/search", () => {
  const ACME_ORDER = ["Jordan Ellis", "Priya Natarajan", "Hannah Schmidt", "Sam O’Neill", "Tomás Reyes"];

  it("ranks everyone the site names and pages through them by cursor without skips or repeats", async () => {
    const target = await account(0, 100);
    const first = await target.live.call(peopleSearchContract, { headers: {}, body: { domain: ACME, limit: 2 } });
    expect(first.data.people[0]).toEqual({
      fullName: "Jordan Ellis",
      firstName: "Jordan",
      lastName: "Ellis",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
      email: "jordan.ellis@acme.example",
      linkedin: JORDAN_LINKEDIN,
      twitter: "jordan_acme",
      confidence: 95,
    });
    expect(first.data).toMatchObject({ domain: ACME, total: 5, nextCursor: expect.any(String) });
    expect(first.meta).toMatchObject({
      costCents: 2 + 2 * 2,
      records: 2,
      cached: false,
      priceRange: { minCents: 2, maxCents: 6 },
      fieldsMissing: [],
    });

    const names = first.data.people.map((person) => person.fullName);
    let cursor = first.data.nextCursor;
    while (cursor !== null) {
      const page = await target.live.call(peopleSearchContract, {
        headers: {},
        body: { domain: ACME, limit: 2, cursor },
      });
      // Later pages are cut from the cached ranked list: free.
      expect(page.meta).toMatchObject({ cached: true, costCents: 0, providersAttempted: 0 });
      expect(page.data.total).toBe(5);
      names.push(...page.data.people.map((person) => person.fullName));
      cursor = page.data.nextCursor;
    }
    expect(names).toEqual(ACME_ORDER);
  });

  it.each([
    [{ titles: ["VP", "head of"] }, ["Priya Natarajan", "Hannah Schmidt"]],
    [{ seniority: ["senior"] }, ["Hannah Schmidt", "Sam O’Neill", "Tomás Reyes"]],
    [{ seniority: ["executive", "junior"] }, ["Jordan Ellis", "Priya Natarajan"]],
    [{ department: ["Sales", "marketing"] }, ["Priya Natarajan", "Hannah Schmidt"]],
    [{ titles: ["engineer"], seniority: ["senior"], department: ["it"] }, ["Tomás Reyes"]],
    [{ titles: ["astronaut"] }, []],
  ] as [{ titles?: string[]; seniority?: ("junior" | "senior" | "executive")[]; department?: string[] }, string[]][])(
    "filters by %j",
    async (filters, expected) => {
      const target = await account(0, 100);
      const answer = await target.live.call(peopleSearchContract, {
        headers: {},
        body: { domain: ACME, limit: 100, ...filters },
      });
      expect(answer.data.people.map((person) => person.fullName)).toEqual(expected);
      expect(answer.data).toMatchObject({ total: expected.length, nextCursor: null });
      // A search that finds nobody is not charged.
      const costCents = expected.length === 0 ? 0 : 2 + 2 * expected.length;
      expect(answer.meta).toMatchObject({ costCents, records: expected.length });
    },
  );

  it("refuses a cursor with other filters than it was issued for", async () => {
    const target = await account(0, 100);
    const first = await target.live.call(peopleSearchContract, {
      headers: {},
      body: { domain: ACME, limit: 1, seniority: ["senior"] },
    });
    const cursor = first.data.nextCursor!;
    const ok = await raw(SEARCH, {
      key: target.liveKey,
      body: { domain: ACME, limit: 1, seniority: ["senior"], cursor },
    });
    expect(ok.status).toBe(200);
    for (const body of [
      { domain: ACME, cursor },
      { domain: ACME, seniority: ["junior"], cursor },
      { domain: RIVAL, seniority: ["senior"], cursor },
    ]) {
      const answer = await raw(SEARCH, { key: target.liveKey, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(detailPaths(answer.json)).toEqual(["cursor"]);
    }
    const stranger = await account(0, 100);
    expect(
      (await raw(SEARCH, { key: stranger.liveKey, body: { domain: ACME, limit: 1, seniority: ["senior"], cursor } }))
        .status,
    ).toBe(400);
  });

  it("cuts the page to what X-Budget-Cents affords and says the price per person", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(peopleSearchContract, {
      headers: { "x-budget-cents": "5", "cache-control": "no-cache" },
      body: { domain: ACME, limit: 10 },
    });
    expect(answer.data.people.map((person) => person.fullName)).toEqual(["Jordan Ellis"]);
    expect(answer.data.total).toBe(5);
    expect(answer.meta).toMatchObject({ costCents: 4, records: 1, budgetCents: 5, budgetCentsPerRecord: 2 });
    await expectLedgerMatches(target.workspaceId, "people_search", answer.meta);
  });

  it("adds people earlier visits saw, after those the site names now", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(peopleSearchContract, {
      headers: { "cache-control": "no-cache" },
      body: { domain: RIVAL, limit: 10 },
    });
    expect(answer.data.people.map((person) => [person.fullName, person.email, person.confidence])).toEqual([
      ["Mara Lindqvist", "mlindqvist@rival.example", 90],
      ["Carla Ruiz", "cruiz@rival.example", 90],
      ["Dev Okafor", "dokafor@rival.example", 90],
      ["Olga Berg", "oberg@rival.example", 60],
    ]);
  });

  it("answers nobody for free for a site that names nobody: a search that finds nothing is not charged", async () => {
    const target = await account(0, 100);
    const answer = await target.live.call(peopleSearchContract, { headers: {}, body: { domain: "other.example" } });
    expect(answer.data).toEqual({ domain: "other.example", people: [], total: 0, nextCursor: null });
    expect(answer.meta).toMatchObject({
      costCents: 0,
      records: 0,
      fieldsReturned: ["domain"],
      fieldsMissing: ["people"],
    });
  });
});

describe("test keys (sandbox)", () => {
  it.each([
    ["people/email", personEmailContract, { fullName: "Jordan Ellis", domain: "stripe.com" }, 4],
    ["people/enrich", personEnrichContract, { email: "jordan.ellis@stripe.com" }, PRICES.people_enrich],
    [
      "people/mobile",
      personMobileContract,
      { linkedinUrl: "https://www.linkedin.com/in/jordan-ellis" },
      PRICES.people_mobile,
    ],
    ["people/search", peopleSearchContract, { domain: "stripe.com", limit: 3 }, 2 + 2 * 3],
  ] as const)(
    "answers %s deterministically with synthetic data, at an empty balance, moving no money and calling nobody",
    async (_name, contract, body, cost) => {
      const target = await account();
      const before = upstream();
      const call = () => target.test.call(contract as typeof personEmailContract, { headers: {}, body: body as never });
      const first = await call();
      const second = await call();
      expect(second.data).toEqual(first.data);
      expect(first.meta).toMatchObject({
        costCents: cost,
        cached: false,
        subscriptionRemainingCents: 0,
        purchasedBalanceCents: 0,
        fieldsMissing: [],
      });
      expect(second.meta.cached).toBe(false);
      expect(upstream()).toEqual(before);
      expect(await balances(target.workspaceId)).toEqual({ subscriptionRemainingCents: 0, purchasedBalanceCents: 0 });
      const rows = await usageRows(target.workspaceId);
      expect(
        rows.map((row) => [row.keyMode, row.costCents, row.subscriptionDeltaCents, row.purchasedDeltaCents]),
      ).toEqual([
        ["test", cost, 0, 0],
        ["test", cost, 0, 0],
      ]);
      // Synthetic: every address and link is under .example, every number a 555-01xx one.
      const text = JSON.stringify(first.data);
      // (The address asked about is echoed as it was sent.)
      const asked = (body as { email?: string }).email;
      for (const address of text.match(/[a-z0-9._-]+@[a-z0-9.-]+/g) ?? [])
        if (address !== asked) expect(address).toMatch(/\.example$/);
      for (const number of text.match(/\+1\d{10}/g) ?? []) expect(number).toMatch(/55501\d\d$/);
    },
  );

  it("pages the sandbox's people by cursor like a live key's", async () => {
    const target = await account();
    const all = await target.test.call(peopleSearchContract, {
      headers: {},
      body: { domain: "stripe.com", limit: 100 },
    });
    const names: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await target.test.call(peopleSearchContract, {
        headers: {},
        body: { domain: "stripe.com", limit: 4, ...(cursor ? { cursor } : {}) },
      });
      names.push(...page.data.people.map((person) => person.fullName));
      cursor = page.data.nextCursor;
    } while (cursor);
    expect(names).toEqual(all.data.people.map((person) => person.fullName));
    expect(names.length).toBe(all.data.total);
  });
});

describe("provider names never leave the server", () => {
  it("no body or header names a provider, a vendor, its key or an internal address, on success or failure", async () => {
    const lists = liveProviders();
    const ids = [...lists.peopleEmail, ...lists.peopleEnrich, ...lists.peopleMobile, ...lists.peopleSearch].map(
      (provider) => provider.id.toLowerCase(),
    );
    expect(ids).toEqual(
      expect.arrayContaining([
        "website",
        "people-store",
        "hunter-email-finder",
        "peopledatalabs-person",
        "peopledatalabs-mobile",
      ]),
    );
    const needles = [
      ...new Set([
        ...ids,
        "hunter",
        "peopledatalabs",
        "people data labs",
        hunter.apiKey.toLowerCase(),
        pdl.apiKey.toLowerCase(),
        new URL(hunter.baseUrl).host,
        new URL(pdl.baseUrl).host,
        "127.0.0.1",
        "169.254",
      ]),
    ];

    const target = await account(0, 10_000);
    const poor = await account(0, 1);
    const start = recorded.length;
    const bodies: [string, unknown][] = [
      [EMAIL, { fullName: "Maria Gonzalez", domain: "acme-robotics.example" }],
      [EMAIL, { fullName: "Alex Morgan", domain: ACME }],
      [ENRICH, { email: "maria.gonzalez@acme-robotics.example" }],
      [ENRICH, { email: "jordan.ellis@acme.example" }],
      [MOBILE, { email: "maria.gonzalez@acme-robotics.example" }],
      [MOBILE, { email: "priya.natarajan@acme.example" }],
      [SEARCH, { domain: ACME, limit: 2 }],
    ];
    for (const mode of ["normal", "server_error", "malformed", "unexpected_shape", "redirect"] as const) {
      hunter.setMode(mode);
      pdl.setMode(mode);
      for (const key of [target.liveKey, target.testKey]) {
        for (const [path, body] of bodies) {
          expect((await raw(path, { key, body, headers: { "cache-control": "no-cache" } })).status).toBe(200);
          await raw(path, { key, body, headers: { "x-budget-cents": "1" } }); // 402
          await raw(path, { key, body: { ...(body as object), bogus: 1 } }); // 400
        }
      }
    }
    for (const [path, body] of bodies) {
      await raw(path, { key: poor.liveKey, body }); // 402 on balance
      await raw(path, { key: `sbx_live_${"Z".repeat(40)}`, body }); // 401
    }
    const statuses = new Set(recorded.slice(start).map((entry) => entry.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 402]);

    // Everything this file received, not only the responses above.
    expect(recorded.length).toBeGreaterThan(300);
    for (const entry of recorded) {
      const haystack =
        `${entry.text}\n${entry.headers.map(([name, value]) => `${name}: ${value}`).join("\n")}`.toLowerCase();
      for (const needle of needles) expect(haystack.includes(needle), `${entry.what} contains "${needle}"`).toBe(false);
    }
    expect(app.output()).not.toContain(hunter.apiKey);
    expect(app.output()).not.toContain(pdl.apiKey);
  }, 180_000);
});
