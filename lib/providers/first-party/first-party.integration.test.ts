import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace } from "@/lib/billing/balances";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import { domainEmailsContract, intelligenceContract } from "@/lib/contracts/enrichment";
import { db } from "@/lib/db/client";
import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import type { Competitor, Funding, Technology } from "@/lib/providers/fields/intelligence";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { startFakeBuiltWith, type FakeBuiltWith } from "@/test/fakes/builtwith-server";
import { startCompanySites, type CompanySites } from "@/test/fakes/company-sites";
import { startFakeDnsServer, type FakeDnsServer } from "@/test/fakes/dns-server";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import { startFakeSecEdgar, type FakeSecEdgar } from "@/test/fakes/sec-edgar-server";

/*
 * The first-party collectors through the whole app: the launcher in its own process, its DNS answered by a local
 * DNS server, the company websites served on loopback (reached as http://acme.example/ through OUTBOUND_TEST_PORTS),
 * public filings from a local stand-in, and two vendor adapters behind them in the waterfall. Nothing is faked
 * inside the app: the SSRF-safe client, robots.txt, the crawler, DNS, fingerprints, the company store and billing
 * all run for real.
 */

const TODAY = new Date().toISOString().slice(0, 10);
const GOOGLE_MX = [
  { exchange: "aspmx.l.google.com", priority: 1 },
  { exchange: "alt1.aspmx.l.google.com", priority: 5 },
];

let app: RunningApp;
let dns: FakeDnsServer;
let sites: CompanySites;
let edgar: FakeSecEdgar;
let builtWith: FakeBuiltWith;
let pdl: FakePdl;
let client: ApiClient;
const responses: string[] = [];

beforeAll(async () => {
  [sites, edgar, builtWith, pdl] = await Promise.all([
    startCompanySites(),
    startFakeSecEdgar(),
    startFakeBuiltWith(),
    startFakePdl(),
  ]);
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
    "blocked.example": { A: ["127.0.0.1"], MX: GOOGLE_MX },
    // DNS rebinding's first step: a public-looking name that answers with a private address.
    "intranet.example": { A: ["10.0.0.7"] },
  });
  app = await startApp({
    DNS_SERVERS: dns.server,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    OUTBOUND_TEST_PORTS: `http=${sites.port},https=${await closedPort()}`,
    OUTBOUND_CONTACT: "ops@signalbox.test",
    SEC_EDGAR_SEARCH_URL: edgar.searchBaseUrl,
    SEC_EDGAR_ARCHIVE_URL: edgar.archiveBaseUrl,
    BUILTWITH_API_KEY: builtWith.apiKey,
    BUILTWITH_API_URL: builtWith.baseUrl,
    PEOPLEDATALABS_API_KEY: pdl.apiKey,
    PEOPLEDATALABS_API_URL: pdl.baseUrl,
    HUNTER_API_KEY: "",
  });
  const workspace = await createWorkspace({ name: "Collectors" });
  await creditWorkspace({ workspaceId: workspace.id, cents: 10_000, note: "top-up" });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    responses.push(await response.clone().text());
    return response;
  };
  client = createApiClient({ baseUrl: app.baseUrl, apiKey: key, fetch: recordingFetch });
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await Promise.all([dns?.close(), sites?.close(), edgar?.close(), builtWith?.close(), pdl?.close()]);
});

const technographics = (domain: string) =>
  client.call(intelligenceContract, { headers: {}, body: { domain, signal: "technographics" } });

describe("domain emails from the company's own website", () => {
  it("finds, classifies and dates every address the site prints, infers the pattern, and charges per address", async () => {
    const answer = await client.call(domainEmailsContract, {
      headers: {},
      body: { domain: "acme.example", limit: 100 },
    });
    const emails = answer.data.emails as EmailRecord[];

    expect(answer.data).toMatchObject({
      domain: "acme.example",
      organization: "Acme Analytics",
      pattern: "{first}.{last}",
      acceptAll: null, // unknowable without an SMTP check
      webmail: false,
      disposable: false,
      total: 7,
    });
    expect(emails.map((email) => [email.value, email.type, email.confidence])).toEqual([
      ["jordan.ellis@acme.example", "personal", 95],
      ["priya.natarajan@acme.example", "personal", 95],
      ["tomas.reyes@acme.example", "personal", 95],
      ["info@acme.example", "generic", 92],
      ["support@acme.example", "generic", 80],
      ["press@acme.example", "generic", 75],
      ["sales@acme.example", "generic", 75],
      // Hannah Schmidt and Sam O'Neill are named on the team page without an address: domain-emails lists only
      // addresses the site prints, never the pattern's guesses (people/email offers those).
    ]);
    const jordan = emails[0]!;
    expect(jordan).toMatchObject({
      firstName: "Jordan",
      lastName: "Ellis",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
    });
    // MX exists, so the address is deliverable in principle; without SMTP we never claim "valid".
    expect(jordan.verification).toEqual({ date: TODAY, status: "unknown" });
    for (const email of emails) {
      expect(email.sources.length).toBeGreaterThan(0);
      for (const source of email.sources) {
        expect(source.uri).toMatch(/^http:\/\/(careers\.)?acme\.example\//);
        expect(source.extractedOn).toBe(TODAY);
      }
    }
    expect(answer.meta).toMatchObject({
      costCents: 2 + 7,
      records: 7,
      providersAttempted: 1,
      fieldsMissing: ["acceptAll"],
      cached: false,
    });

    // The visit stored the people the site names, with the addresses seen for them (not the pattern's guesses).
    const people = await db().person.findMany({ where: { domain: "acme.example" }, orderBy: { nameKey: "asc" } });
    expect(people.map((stored) => [stored.fullName, stored.email, stored.seniority])).toEqual([
      ["Hannah Schmidt", null, "senior"],
      ["Jordan Ellis", "jordan.ellis@acme.example", "executive"],
      ["Priya Natarajan", "priya.natarajan@acme.example", "executive"],
      ["Sam O’Neill", null, "senior"], // "Office Manager": managers count as senior
      ["Tomás Reyes", "tomas.reyes@acme.example", "senior"],
    ]);
  });

  it("never requests what robots.txt forbids, never follows a redirect to a private address, never leaves the domain", () => {
    const paths = sites.requests.filter((request) => request.host === "acme.example").map((request) => request.path);
    expect(paths).toContain("/robots.txt");
    expect(paths).toContain("/team/");
    expect(paths.some((path) => path.startsWith("/private/"))).toBe(false);
    // Only the company's own hosts were asked for anything (the site links to others, e.g. social networks).
    expect([...new Set(sites.requests.map((request) => request.host))].sort()).toEqual([
      "acme.example",
      "careers.acme.example",
    ]);
  });

  it("resolves a company name to a domain it has collected before", async () => {
    const answer = await client.call(domainEmailsContract, {
      headers: {},
      body: { company: "acme analytics", limit: 2 },
    });
    expect(answer.data).toMatchObject({ domain: "acme.example", organization: "Acme Analytics", total: 7 });
    expect((answer.data.emails as EmailRecord[]).map((email) => email.value)).toEqual([
      "jordan.ellis@acme.example",
      "priya.natarajan@acme.example",
    ]);
  });

  it("answers what it can for a site whose robots.txt forbids everything: the domain facts, no addresses", async () => {
    const before = sites.requests
      .filter((request) => request.host === "blocked.example")
      .map((request) => request.path);
    const answer = await client.call(domainEmailsContract, { headers: {}, body: { domain: "blocked.example" } });
    expect(answer.data).toMatchObject({
      domain: "blocked.example",
      organization: null,
      pattern: null,
      emails: [],
      total: 0,
      webmail: false,
      disposable: false,
    });
    const after = sites.requests.filter((request) => request.host === "blocked.example").map((request) => request.path);
    expect(after.slice(before.length)).toEqual(["/robots.txt"]);
    expect(answer.meta).toMatchObject({ costCents: 2, records: 0 });
  });

  it("refuses to crawl a name that resolves to a private address", async () => {
    const answer = await client.call(domainEmailsContract, { headers: {}, body: { domain: "intranet.example" } });
    expect(answer.data).toMatchObject({ domain: "intranet.example", emails: [], total: 0, organization: null });
  });
});

describe("technographics from fingerprints of the site and its DNS", () => {
  it("detects the stack with category and evidence, and dates it from our own observations", async () => {
    const answer = await technographics("acme.example");
    const technologies = answer.data.technographics as Technology[];
    const byName = new Map(technologies.map((technology) => [technology.name, technology]));

    for (const name of ["WordPress", "PHP", "Nginx", "jQuery", "Google Analytics", "Google Workspace", "MySQL"]) {
      expect(byName.get(name), name).toMatchObject({ firstDetected: TODAY, lastDetected: TODAY });
    }
    expect(byName.get("WordPress")).toMatchObject({
      category: "CMS",
      evidence: expect.arrayContaining([expect.stringMatching(/generator.*WordPress 6\.4\.2/)]),
    });
    expect(byName.get("PHP")?.evidence).toEqual(
      expect.arrayContaining([expect.stringMatching(/x-powered-by: PHP\/8\.2\.12/i)]),
    );
    expect(byName.get("Google Workspace")?.evidence).toEqual(
      expect.arrayContaining([expect.stringMatching(/MX aspmx\.l\.google\.com/)]),
    );
    expect(answer.meta).toMatchObject({
      costCents: 5,
      providersAttempted: 1,
      fieldsReturned: ["technographics"],
      fieldsMissing: [],
    });

    const company = await db().company.findUniqueOrThrow({ where: { domain: "acme.example" } });
    expect(company).toMatchObject({
      name: "Acme Analytics",
      technologies: expect.arrayContaining(["WordPress", "Google Workspace"]),
    });
    expect(company.profile).toMatchObject({
      legalName: "Acme Analytics, Inc.",
      mail: { provider: "Google Workspace", spfIncludes: ["_spf.google.com", "sendgrid.net"], dmarcPolicy: "reject" },
    });
    const stored = await db().technologyObservation.findMany({ where: { domain: "acme.example" } });
    expect(stored.map((row) => row.technology).sort()).toEqual(
      technologies.map((technology) => technology.name).sort(),
    );
  });

  it("falls through to the technographics vendor when the company's site cannot be reached", async () => {
    const answer = await technographics("acme-robotics.example");
    expect((answer.data.technographics as Technology[]).length).toBeGreaterThan(0);
    expect(answer.meta).toMatchObject({ providersAttempted: 2, fieldsMissing: [] });
    expect(builtWith.requests.at(-1)?.query).toMatchObject({ LOOKUP: "acme-robotics.example" });
  });
});

describe("competitors from our own store of companies", () => {
  it("ranks a company in the same trade first and leaves out unrelated ones", async () => {
    // Each visit adds the company to the store.
    await technographics("rival.example");
    await technographics("other.example");
    const answer = await client.call(intelligenceContract, {
      headers: {},
      body: { domain: "acme.example", signal: "competitors" },
    });
    const competitors = answer.data.competitors as Competitor[];

    expect(competitors[0]).toMatchObject({ name: "Rival Freight Insights", domain: "rival.example" });
    expect(competitors[0]!.similarity).toBeGreaterThan(0.1);
    expect(competitors.map((competitor) => competitor.domain)).not.toContain("other.example");
    expect(competitors.map((competitor) => competitor.domain)).not.toContain("acme.example");
    expect(answer.meta).toMatchObject({ costCents: 8, providersAttempted: 1, fieldsMissing: [] });
  });
});

describe("funding from public filings", () => {
  it("finds the Form D offerings of the legal name the site states", async () => {
    const answer = await client.call(intelligenceContract, {
      headers: {},
      body: { domain: "acme.example", signal: "funding" },
    });
    const funding = answer.data.funding as Funding;
    const round = { type: "Form D — equity", amountUsd: 6_500_000, date: "2023-03-30", investors: [] };
    expect(funding).toEqual({ totalRaisedUsd: 6_500_000, lastRound: round, rounds: [round] });
    expect(answer.meta).toMatchObject({ costCents: 10, providersAttempted: 1, fieldsMissing: [] });
    // SEC fair access: the declared contact travels in the User-Agent.
    expect(
      edgar.requests.every((request) => String(request.headers["user-agent"]).includes("ops@signalbox.test")),
    ).toBe(true);
  });

  it("asks the company data vendor when no filing names the company", async () => {
    const answer = await client.call(intelligenceContract, {
      headers: {},
      body: { domain: "acme-robotics.example", signal: "funding" },
    });
    expect((answer.data.funding as Funding).totalRaisedUsd).toBeGreaterThan(0);
    expect(answer.meta).toMatchObject({ providersAttempted: 2, fieldsMissing: [] });
  });

  it("answers null with the signal missing when nobody knows", async () => {
    const answer = await client.call(intelligenceContract, {
      headers: {},
      body: { domain: "other.example", signal: "funding" },
    });
    expect(answer.data.funding).toBeNull();
    expect(answer.meta).toMatchObject({ fieldsMissing: ["funding"], costCents: 10 });
  });
});

describe("what clients see", () => {
  it("never names a provider, a vendor, a fingerprint dataset or an internal address", () => {
    const body = responses.join("\n").toLowerCase();
    for (const needle of [
      "website",
      "fingerprints",
      "company-store",
      "public-filings",
      "sec edgar",
      "edgar",
      "builtwith",
      "peopledatalabs",
      "people data labs",
      "wappalyzer",
      "127.0.0.1",
      "10.0.0.7",
      "169.254",
    ]) {
      expect(body, needle).not.toContain(needle);
    }
    expect(responses.length).toBeGreaterThan(10);
  });
});
