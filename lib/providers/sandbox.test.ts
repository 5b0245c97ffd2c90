import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DomainEmailsProviderInput, EmailRecord } from "@/lib/enrichment/domain-emails-fields";
import type { Competitor, Funding, IntelligenceSignal, Technology } from "@/lib/enrichment/intelligence-fields";
import type { ProviderFields } from "@/lib/enrichment/types";
import { sandboxDomainEmailsProvider, sandboxIntelligenceProvider } from "./sandbox";

const context = () => ({ signal: new AbortController().signal });
const DOMAINS = Array.from({ length: 40 }, (_, index) => `company-${index}.com`);

async function emailsFor(input: Partial<DomainEmailsProviderInput>): Promise<{ fields: ProviderFields; emails: EmailRecord[] }> {
  const fields = await sandboxDomainEmailsProvider.enrich({ wanted: 10, ...input }, context());
  return { fields, emails: fields.emails?.value as EmailRecord[] };
}

async function signalFor(domain: string, signal: IntelligenceSignal): Promise<ProviderFields> {
  return sandboxIntelligenceProvider.enrich({ domain, signal }, context());
}

// The sandbox must be a pure function of its input: no network, no randomness, no clock.
beforeEach(() => {
  vi.stubGlobal("fetch", () => {
    throw new Error("the sandbox must never touch the network");
  });
  vi.spyOn(Math, "random").mockImplementation(() => {
    throw new Error("the sandbox must not use Math.random");
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("sandbox domain-emails", () => {
  it("is free, internal and supplies every domain-emails field", () => {
    expect(sandboxDomainEmailsProvider).toMatchObject({ id: "sandbox", operation: "companies_domain_emails", costCents: 0 });
    expect([...sandboxDomainEmailsProvider.supplies].sort()).toEqual(["acceptAll", "disposable", "domain", "emails", "organization", "pattern", "webmail"]);
  });

  it("answers the same input byte for byte the same, whenever it is asked", async () => {
    vi.useFakeTimers({ now: new Date("2020-02-02T00:00:00Z") });
    const first = await sandboxDomainEmailsProvider.enrich({ domain: "stripe.com", wanted: 10 }, context());
    vi.setSystemTime(new Date("2031-07-07T12:34:56Z"));
    const second = await sandboxDomainEmailsProvider.enrich({ domain: "  Stripe.COM. ", wanted: 10 }, context());
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it("answers different domains differently", async () => {
    const answers = await Promise.all(DOMAINS.map(async (domain) => JSON.stringify((await emailsFor({ domain })).emails)));
    expect(new Set(answers).size).toBe(DOMAINS.length);
  });

  it("returns obviously synthetic scalars with full confidence", async () => {
    const { fields } = await emailsFor({ domain: "stripe.com" });
    expect(fields).toMatchObject({
      domain: { value: "stripe.com", confidence: 1 },
      organization: { value: "Sandbox Co (stripe.com)", confidence: 1 },
      pattern: { value: "{first}.{last}", confidence: 1 },
      acceptAll: { value: false, confidence: 1 },
      webmail: { value: false, confidence: 1 },
      disposable: { value: false, confidence: 1 },
      emails: { confidence: 1 },
    });
  });

  it("puts every address, link and phone number where it can reach nobody", async () => {
    for (const domain of DOMAINS) {
      const { emails } = await emailsFor({ domain });
      const mailDomain = `${domain.replace(".", "-")}.example`;
      for (const email of emails) {
        expect(email.value.endsWith(`@${mailDomain}`)).toBe(true);
        for (const source of email.sources) expect(new URL(source.uri).hostname).toBe(mailDomain);
        if (email.linkedin !== null) expect(new URL(email.linkedin).hostname.endsWith(".example")).toBe(true);
        expect(email.twitter).toBeNull();
        if (email.phoneNumber !== null) expect(email.phoneNumber).toMatch(/^\+1-202-555-01\d\d$/);
      }
    }
  });

  it("returns 5 to 25 well-formed addresses, both personal and generic, highest confidence first", async () => {
    const counts = new Set<number>();
    for (const domain of DOMAINS) {
      const { emails } = await emailsFor({ domain });
      counts.add(emails.length);
      expect(emails.length).toBeGreaterThanOrEqual(5);
      expect(emails.length).toBeLessThanOrEqual(25);
      expect(new Set(emails.map((email) => email.value)).size).toBe(emails.length);
      expect(emails.some((email) => email.type === "personal")).toBe(true);
      expect(emails.some((email) => email.type === "generic")).toBe(true);
      expect(emails.map((email) => email.confidence)).toEqual(emails.map((email) => email.confidence).sort((a, b) => b - a));
      for (const email of emails) {
        expect(Number.isInteger(email.confidence) && email.confidence >= 0 && email.confidence <= 100).toBe(true);
        expect(email.sources).toEqual([{ uri: expect.stringMatching(/^https:\/\//), extractedOn: "2026-01-15" }]);
        expect(email.verification).toEqual({ date: "2026-01-15", status: expect.stringMatching(/^(valid|unknown)$/) });
        if (email.type === "personal") {
          expect(email.value).toBe(`${email.firstName}.${email.lastName}@${email.value.split("@")[1]}`.toLowerCase());
          expect(email.position && email.seniority && email.department).toBeTruthy();
        } else {
          expect([email.firstName, email.lastName, email.position, email.seniority, email.department]).toEqual([null, null, null, null, null]);
        }
      }
    }
    expect(counts.size).toBeGreaterThan(5);
  });

  it("meets `wanted` whenever the company has that many addresses", async () => {
    for (const domain of DOMAINS) {
      const all = (await emailsFor({ domain, wanted: 100 })).emails;
      for (const wanted of [1, 5, 10, 25]) {
        const { emails } = await emailsFor({ domain, wanted });
        expect(emails.length).toBeGreaterThanOrEqual(Math.min(wanted, all.length));
      }
    }
  });

  it("honours type, seniority and department filters as views of the same data set", async () => {
    const filters: Partial<DomainEmailsProviderInput>[] = [
      { type: "personal" },
      { type: "generic" },
      { seniority: "senior" },
      { seniority: "Executive" },
      { seniority: "junior,senior" },
      { department: "sales" },
      { department: "it" },
      { type: "personal", seniority: "executive", department: "finance" },
    ];
    let nonEmpty = 0;
    for (const domain of DOMAINS) {
      const all = (await emailsFor({ domain })).emails;
      for (const filter of filters) {
        const { emails } = await emailsFor({ domain, ...filter });
        const expected = all.filter(
          (email) =>
            (!filter.type || email.type === filter.type) &&
            (!filter.seniority || filter.seniority.toLowerCase().split(",").includes(email.seniority ?? "")) &&
            (!filter.department || email.department === filter.department),
        );
        expect(emails).toEqual(expected);
        if (emails.length > 0) nonEmpty += 1;
      }
    }
    // The filters select real subsets, not (only) empty lists.
    expect(nonEmpty).toBeGreaterThan(DOMAINS.length * 4);
  });

  it("resolves a company name to a reserved domain consistent with asking for that domain", async () => {
    const byCompany = await emailsFor({ company: "Acme Robotics, Inc." });
    expect(byCompany.fields.domain?.value).toBe("acme-robotics-inc.example");
    expect(byCompany.emails.every((email) => email.value.endsWith("@acme-robotics-inc.example"))).toBe(true);
    const byDomain = await emailsFor({ domain: "acme-robotics-inc.example" });
    expect(byDomain.fields).toEqual(byCompany.fields);
    expect((await emailsFor({ company: "Café Zürich" })).fields.domain?.value).toBe("cafe-zurich.example");
    expect((await emailsFor({ company: "!!!" })).fields.domain?.value).toBe("company.example");
  });

  it("refuses an input with neither domain nor company", async () => {
    await expect(sandboxDomainEmailsProvider.enrich({ wanted: 10 }, context())).rejects.toThrow(/domain or a company/);
  });
});

describe("sandbox intelligence", () => {
  it("is free, internal and supplies every intelligence field", () => {
    expect(sandboxIntelligenceProvider).toMatchObject({ id: "sandbox", operation: "companies_intelligence", costCents: 0 });
    expect([...sandboxIntelligenceProvider.supplies].sort()).toEqual(["competitors", "funding", "technographics"]);
  });

  it("returns only the requested signal's field, with full confidence", async () => {
    for (const signal of ["funding", "competitors", "technographics"] as const) {
      const fields = await signalFor("stripe.com", signal);
      expect(Object.keys(fields)).toEqual([signal]);
      expect(fields[signal]?.confidence).toBe(1);
    }
  });

  it("is deterministic per domain and differs between domains", async () => {
    for (const signal of ["funding", "competitors", "technographics"] as const) {
      expect(await signalFor("Stripe.com", signal)).toEqual(await signalFor("stripe.com", signal));
      const answers = await Promise.all(DOMAINS.map(async (domain) => JSON.stringify(await signalFor(domain, signal))));
      expect(new Set(answers).size).toBeGreaterThan(DOMAINS.length * 0.9);
    }
  });

  it("funding: chronological rounds with fake investors, a total and the last round", async () => {
    for (const domain of DOMAINS) {
      const funding = (await signalFor(domain, "funding")).funding?.value as Funding;
      expect(funding.rounds.length).toBeGreaterThanOrEqual(1);
      expect(funding.totalRaisedUsd).toBe(funding.rounds.reduce((sum, round) => sum + (round.amountUsd ?? 0), 0));
      expect(funding.lastRound).toEqual(funding.rounds.at(-1));
      const dates = funding.rounds.map((round) => round.date ?? "");
      expect(dates).toEqual([...dates].sort());
      for (const round of funding.rounds) {
        expect(round.type).toMatch(/^(seed|series_[a-c])$/);
        expect(round.date).toMatch(/^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d)$/);
        expect(round.date! < "2026-01-15").toBe(true);
        expect(round.amountUsd! % 100_000).toBe(0);
        expect(round.investors.length).toBeGreaterThanOrEqual(1);
        for (const investor of round.investors) expect(investor).toMatch(/^(Sandbox|Example|Placeholder|Testbed|Fixture|Mock) /);
      }
    }
  });

  it("competitors: 3 to 6 fake rivals at reserved domains, most similar first", async () => {
    for (const domain of DOMAINS) {
      const competitors = (await signalFor(domain, "competitors")).competitors?.value as Competitor[];
      expect(competitors.length).toBeGreaterThanOrEqual(3);
      expect(competitors.length).toBeLessThanOrEqual(6);
      expect(new Set(competitors.map((competitor) => competitor.domain)).size).toBe(competitors.length);
      for (const competitor of competitors) {
        const n = /^Sandbox Rival (\d+)$/.exec(competitor.name)?.[1];
        expect(competitor.domain).toBe(`rival-${n}.example`);
        expect(competitor.similarity).toBeGreaterThanOrEqual(0);
        expect(competitor.similarity).toBeLessThanOrEqual(1);
      }
      const similarities = competitors.map((competitor) => competitor.similarity);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
    }
  });

  it("technographics: real technology names, sandbox evidence, fixed dates", async () => {
    for (const domain of DOMAINS) {
      const technologies = (await signalFor(domain, "technographics")).technographics?.value as Technology[];
      expect(technologies.length).toBeGreaterThanOrEqual(4);
      expect(technologies.length).toBeLessThanOrEqual(10);
      expect(new Set(technologies.map((technology) => technology.name)).size).toBe(technologies.length);
      for (const technology of technologies) {
        expect(technology).toEqual({
          name: expect.any(String),
          category: expect.stringMatching(/^[a-z_]+$/),
          confidence: expect.any(Number),
          firstDetected: expect.stringMatching(/^20(19|2[0-4])-\d\d-\d\d$/),
          lastDetected: "2026-01-15",
          evidence: ["sandbox"],
        });
        expect(technology.confidence).toBeGreaterThanOrEqual(0.6);
        expect(technology.confidence).toBeLessThanOrEqual(1);
      }
    }
    const names = new Set<string>();
    for (const domain of DOMAINS) for (const technology of (await signalFor(domain, "technographics")).technographics?.value as Technology[]) names.add(technology.name);
    expect(names).toContain("React");
    expect(names).toContain("Cloudflare");
  });
});
