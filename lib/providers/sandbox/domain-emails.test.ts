import { describe, expect, it, vi } from "vitest";
import { guardSandboxPurity } from "@/test/sandbox-purity";
import type { DomainEmailsProviderInput, EmailRecord } from "@/lib/providers/fields/domain-emails";
import type { ProviderFields } from "@/lib/providers/provider";
import { sandboxDomainEmailsProvider } from "./domain-emails";

const context = () => ({ signal: new AbortController().signal });
const DOMAINS = Array.from({ length: 40 }, (_, index) => `company-${index}.com`);

async function emailsFor(
  input: Partial<DomainEmailsProviderInput>,
): Promise<{ fields: ProviderFields; emails: EmailRecord[] }> {
  const fields = await sandboxDomainEmailsProvider.enrich({ wanted: 10, ...input }, context());
  return { fields, emails: fields.emails?.value as EmailRecord[] };
}

guardSandboxPurity();

describe("sandbox domain-emails", () => {
  it("is free, internal and supplies every domain-emails field", () => {
    expect(sandboxDomainEmailsProvider).toMatchObject({
      id: "sandbox",
      operation: "companies_domain_emails",
      costCents: 0,
    });
    expect([...sandboxDomainEmailsProvider.supplies].sort()).toEqual([
      "acceptAll",
      "disposable",
      "domain",
      "emails",
      "organization",
      "pattern",
      "webmail",
    ]);
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
    const answers = await Promise.all(
      DOMAINS.map(async (domain) => JSON.stringify((await emailsFor({ domain })).emails)),
    );
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
      expect(emails.map((email) => email.confidence)).toEqual(
        emails.map((email) => email.confidence).sort((a, b) => b - a),
      );
      for (const email of emails) {
        expect(Number.isInteger(email.confidence) && email.confidence >= 0 && email.confidence <= 100).toBe(true);
        expect(email.sources).toEqual([{ uri: expect.stringMatching(/^https:\/\//), extractedOn: "2026-01-15" }]);
        expect(email.verification).toEqual({ date: "2026-01-15", status: expect.stringMatching(/^(valid|unknown)$/) });
        if (email.type === "personal") {
          expect(email.value).toBe(`${email.firstName}.${email.lastName}@${email.value.split("@")[1]}`.toLowerCase());
          expect(email.position && email.seniority && email.department).toBeTruthy();
        } else {
          expect([email.firstName, email.lastName, email.position, email.seniority, email.department]).toEqual([
            null,
            null,
            null,
            null,
            null,
          ]);
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
            (!filter.seniority ||
              filter.seniority
                .toLowerCase()
                .split(",")
                .includes(email.seniority ?? "")) &&
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
