import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PersonEmailFinding } from "@/lib/enrichment/people-fields";
import type { ProviderFields } from "@/lib/enrichment/types";
import type { CompanySnapshot } from "@/lib/providers/company-snapshot";
import { createOutboundClient } from "@/lib/providers/outbound/outbound-client";
import { crawlCompanySite } from "@/lib/providers/website/crawl-site";
import { collectSiteEmails } from "@/lib/providers/website/site-emails";
import { type CompanySites, startCompanySites } from "@/test/fakes/company-sites";
import {
  type FirstPartyPeopleOptions,
  websitePeopleSearchProvider,
  websitePersonEmailProvider,
  websitePersonPhoneProvider,
  websitePersonProfileProvider,
} from "./first-party-people";

/*
 * The website-based people providers on snapshots of the fixture sites, crawled over loopback as the app would. No
 * database: these lookups name a domain (or an address at it), so the store is never asked; a call that reached it
 * would throw. The store-backed paths run through the app in lib/enrichment/people.integration.test.ts.
 */

const now = new Date("2025-06-03T10:20:30Z");
const DAY = "2025-06-03";
let sites: CompanySites;
const snapshots = new Map<string, CompanySnapshot>();
let options: FirstPartyPeopleOptions;
const context = { signal: new AbortController().signal };

async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  sites = await startCompanySites();
  const http = createOutboundClient({ allowLoopback: true, portOverrides: { http: sites.port, https: await findClosedPort() }, resolver: async () => ["127.0.0.1"] });
  for (const domain of ["acme.example", "rival.example", "other.example"]) {
    const crawl = await crawlCompanySite(domain, { http });
    const siteEmails = collectSiteEmails(crawl, { domainHasMx: true, now });
    snapshots.set(domain, {
      domain,
      collectedAt: now,
      reachable: crawl.pages.length > 0,
      crawl,
      mailDns: { mx: [{ exchange: `mx.${domain}`, priority: 1 }], mailProvider: null, spf: { record: null, includes: [] }, dmarc: { record: null, policy: null }, txt: [] },
      organization: siteEmails.organization,
      siteEmails,
      technologies: [],
      keywords: [],
    });
  }
  options = {
    snapshots: async (domain) => {
      const snapshot = snapshots.get(domain);
      if (!snapshot) throw new Error(`no snapshot of ${domain}`);
      return snapshot;
    },
    db: () => {
      throw new Error("these lookups never need the store");
    },
  };
});

afterAll(async () => {
  await sites.close();
});

const values = (fields: ProviderFields) => Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field?.value]));

describe("websitePersonEmailProvider", () => {
  const find = (firstName: string, lastName: string, domain: string) =>
    websitePersonEmailProvider(options).enrich({ firstName, lastName, fullName: `${firstName} ${lastName}`, domain }, context);

  it("answers the address the site publishes for the person, with its evidence and the person's facts", async () => {
    const fields = await find("Jordan", "Ellis", "acme.example");
    expect(values(fields)).toEqual({
      domain: "acme.example",
      pattern: "{first}.{last}",
      email: {
        email: "jordan.ellis@acme.example",
        confidence: 95,
        reason: "found_on_site",
        verification: { date: DAY, status: "unknown" },
        sources: [
          { uri: "http://acme.example/team/", extractedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        ],
      },
      candidates: [{ email: "jordan.ellis@acme.example", confidence: 95, reason: "found_on_site" }],
      firstName: "Jordan",
      lastName: "Ellis",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
    });
    expect(fields.email?.confidence).toBe(0.95);
  });

  it("matches names without case, accents or apostrophes, and spells them as the site does", async () => {
    const tomas = values(await find("tomas", "REYES", "acme.example"));
    expect(tomas).toMatchObject({ firstName: "Tomás", lastName: "Reyes", email: { email: "tomas.reyes@acme.example", reason: "found_on_site" } });
    const sam = values(await find("Sam", "O'Neill", "acme.example"));
    // The site names Sam without an address: the company's format gives one, as sure as domain-emails says (0.88 × 75).
    expect(sam).toMatchObject({ firstName: "Sam", lastName: "O’Neill", position: "Office Manager" });
    expect(sam.email).toEqual({
      email: "sam.oneill@acme.example",
      confidence: 66,
      reason: "pattern",
      verification: { date: DAY, status: "unknown" },
      sources: [{ uri: "http://acme.example/team/", extractedOn: expect.any(String) }],
    });
    expect(sam.candidates).toEqual([{ email: "sam.oneill@acme.example", confidence: 66, reason: "pattern" }]);
  });

  it("applies the company's format to a name the site does not list, less sure, with no source and no position", async () => {
    const fields = values(await find("Alex", "Morgan", "acme.example"));
    expect(fields).toEqual({
      domain: "acme.example",
      pattern: "{first}.{last}",
      email: { email: "alex.morgan@acme.example", confidence: 53, reason: "pattern", verification: { date: DAY, status: "unknown" }, sources: [] },
      candidates: [{ email: "alex.morgan@acme.example", confidence: 53, reason: "pattern" }],
    });
  });

  it("uses each company's own format", async () => {
    expect(values(await find("Mara", "Lindqvist", "rival.example"))).toMatchObject({
      pattern: "{f}{last}",
      email: { email: "mlindqvist@rival.example", reason: "found_on_site" },
      position: "Founder & CEO",
    });
    expect(values(await find("Nora", "Quinn", "rival.example"))).toMatchObject({ email: { email: "nquinn@rival.example", reason: "pattern" } });
  });

  it("answers the domain alone for a site without any address format", async () => {
    expect(values(await find("Jordan", "Ellis", "other.example"))).toEqual({ domain: "other.example" });
  });

  it("never scores a guess above an address it saw", async () => {
    const fields = values(await find("Priya", "Natarajan", "acme.example"));
    const email = fields.email as PersonEmailFinding;
    expect(email.reason).toBe("found_on_site");
    expect(email.confidence).toBeGreaterThan(70);
  });
});

describe("websitePersonProfileProvider", () => {
  const enrich = (email: string) => websitePersonProfileProvider(options).enrich({ email }, context);

  it("finds the person by the address the site shows, with the company, its location and the person's profiles", async () => {
    const fields = await enrich("priya.natarajan@acme.example");
    expect(values(fields)).toEqual({
      fullName: "Priya Natarajan",
      firstName: "Priya",
      lastName: "Natarajan",
      position: "VP Sales",
      seniority: "executive",
      department: "sales",
      email: "priya.natarajan@acme.example",
      company: { name: "Acme Analytics", domain: "acme.example" },
      location: { locality: "Springfield", region: "IL", country: "United States" },
      socialProfiles: [{ network: "twitter", url: "https://twitter.com/priya_ships" }],
    });
    expect(fields.fullName?.confidence).toBe(0.9);
  });

  it("finds a person the site lists without an address when the company's format makes theirs, less sure", async () => {
    const fields = await enrich("hannah.schmidt@acme.example");
    expect(values(fields)).toMatchObject({
      fullName: "Hannah Schmidt",
      position: "Head of Marketing",
      socialProfiles: [{ network: "linkedin", url: "https://www.linkedin.com/in/hannah-schmidt-acme-test" }],
    });
    expect(fields.fullName?.confidence).toBeCloseTo(0.7 * 0.88, 5);
  });

  it("finds nobody for a role address, an unknown address, or a mailbox service", async () => {
    expect(await enrich("sales@acme.example")).toEqual({});
    expect(await enrich("alex.morgan@acme.example")).toEqual({});
    expect(await enrich("acme.analytics.usergroup@gmail.com")).toEqual({});
  });
});

describe("websitePersonPhoneProvider", () => {
  const phones = (email: string) => websitePersonPhoneProvider(options).enrich({ email }, context);

  it("answers the number printed in the person's own card as a work number, in E.164 by the company's country", async () => {
    expect(values(await phones("priya.natarajan@acme.example"))).toEqual({
      phoneNumbers: [{ number: "+12175550144", type: "work", confidence: 0.9, source: "http://acme.example/team/" }],
    });
  });

  it("never answers the company's switchboard for a person", async () => {
    expect(await phones("jordan.ellis@acme.example")).toEqual({});
    expect(await phones("mlindqvist@rival.example")).toEqual({});
  });
});

describe("websitePeopleSearchProvider", () => {
  it("lists everyone the site names, with the address it shows (or its format gives) them", async () => {
    const fields = values(await websitePeopleSearchProvider(options).enrich({ domain: "acme.example", wanted: 100 }, context));
    expect(fields.domain).toBe("acme.example");
    expect((fields.people as { fullName: string; email: string | null; confidence: number; seniority: string | null }[]).map((person) => [person.fullName, person.email, person.confidence, person.seniority])).toEqual([
      ["Jordan Ellis", "jordan.ellis@acme.example", 95, "executive"],
      ["Priya Natarajan", "priya.natarajan@acme.example", 90, "executive"],
      ["Tomás Reyes", "tomas.reyes@acme.example", 90, "senior"],
      ["Hannah Schmidt", "hannah.schmidt@acme.example", 90, "senior"],
      ["Sam O’Neill", "sam.oneill@acme.example", 90, "senior"],
    ]);
  });

  it("answers the domain alone for a site that names nobody", async () => {
    expect(values(await websitePeopleSearchProvider(options).enrich({ domain: "other.example", wanted: 100 }, context))).toEqual({ domain: "other.example" });
  });
});
