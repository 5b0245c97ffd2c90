import { describe, expect, it, vi } from "vitest";
import { guardSandboxPurity } from "@/test/sandbox-purity";
import type {
  EmailCandidate,
  PersonEmailFinding,
  PersonSearchRecord,
  PhoneNumberRecord,
} from "@/lib/providers/fields/people";
import {
  PEOPLE_EMAIL_FIELDS,
  PEOPLE_ENRICH_FIELDS,
  PEOPLE_MOBILE_FIELDS,
  PEOPLE_SEARCH_FIELDS,
} from "@/lib/providers/fields/people";
import type { ProviderFields } from "@/lib/providers/provider";
import {
  sandboxPeopleSearchProvider,
  sandboxPersonEmailProvider,
  sandboxPersonPhoneProvider,
  sandboxPersonProfileProvider,
} from "./people";

const context = () => ({ signal: new AbortController().signal });
const value = <T>(fields: ProviderFields, name: string) => fields[name]?.value as T;
const email = (firstName: string, lastName: string, domain = "stripe.com") =>
  sandboxPersonEmailProvider.enrich({ firstName, lastName, fullName: `${firstName} ${lastName}`, domain }, context());

// Pure functions of their input: no network, no randomness, no clock.
guardSandboxPurity();

describe("sandbox people providers", () => {
  it("are free, internal and supply every field of their operation", () => {
    for (const [provider, fields, operation] of [
      [sandboxPersonEmailProvider, PEOPLE_EMAIL_FIELDS, "people_email"],
      [sandboxPersonProfileProvider, PEOPLE_ENRICH_FIELDS, "people_enrich"],
      [sandboxPersonPhoneProvider, PEOPLE_MOBILE_FIELDS, "people_mobile"],
      [sandboxPeopleSearchProvider, PEOPLE_SEARCH_FIELDS, "people_search"],
    ] as const) {
      expect(provider).toMatchObject({ id: "sandbox", operation, costCents: 0 });
      expect([...provider.supplies].sort()).toEqual(fields.map((field) => field.name).sort());
    }
  });

  it("answer the same input byte for byte the same, whenever asked", async () => {
    vi.useFakeTimers({ now: new Date("2020-02-02T00:00:00Z") });
    const first = JSON.stringify([
      await email("Jordan", "Ellis"),
      await sandboxPersonProfileProvider.enrich({ email: "jordan.ellis@stripe.com" }, context()),
      await sandboxPersonPhoneProvider.enrich({ linkedinUrl: "https://www.linkedin.com/in/jordan-ellis" }, context()),
      await sandboxPeopleSearchProvider.enrich({ domain: "stripe.com", wanted: 100 }, context()),
    ]);
    vi.setSystemTime(new Date("2031-07-07T12:34:56Z"));
    const second = JSON.stringify([
      await email("Jordan", "Ellis"),
      await sandboxPersonProfileProvider.enrich({ email: "jordan.ellis@stripe.com" }, context()),
      await sandboxPersonPhoneProvider.enrich({ linkedinUrl: "https://www.linkedin.com/in/jordan-ellis" }, context()),
      await sandboxPeopleSearchProvider.enrich({ domain: "stripe.com", wanted: 100 }, context()),
    ]);
    expect(second).toBe(first);
  });
});

describe("sandbox people/email", () => {
  it("builds the address under .example from one format per company, with ranked alternatives", async () => {
    const fields = await email("Jordan", "Ellis");
    const finding = value<PersonEmailFinding>(fields, "email");
    const candidates = value<EmailCandidate[]>(fields, "candidates");
    expect(finding.email).toMatch(/@stripe-com\.example$/);
    expect(candidates[0]).toEqual({ email: finding.email, confidence: finding.confidence, reason: finding.reason });
    expect(candidates.length).toBeGreaterThanOrEqual(2);
    for (const candidate of candidates) expect(candidate.email).toMatch(/@stripe-com\.example$/);
    expect(candidates.map((candidate) => candidate.confidence)).toEqual(
      [...candidates.map((candidate) => candidate.confidence)].sort((a, b) => b - a),
    );
    expect(finding.sources).toEqual([{ uri: "https://stripe-com.example/team", extractedOn: "2026-01-15" }]);
    // Everyone at a company gets its one format.
    const patterns = await Promise.all(
      [
        ["Ada", "Quill"],
        ["Bo", "Park"],
        ["Cy", "Diaz"],
      ].map(async ([first, last]) => value<string>(await email(first!, last!), "pattern")),
    );
    expect(new Set([...patterns, value<string>(fields, "pattern")]).size).toBe(1);
  });
});

describe("sandbox people/enrich", () => {
  it("reads the name from the address and places the person at the address's company", async () => {
    const fields = await sandboxPersonProfileProvider.enrich({ email: "maria.gonzalez@acme.example" }, context());
    expect(fields).toMatchObject({
      fullName: { value: "Maria Gonzalez", confidence: 1 },
      email: { value: "maria.gonzalez@acme.example" },
      company: { value: { name: "Sandbox Co (acme.example)", domain: "acme.example" } },
    });
    for (const profile of value<{ url: string }[]>(fields, "socialProfiles"))
      expect(new URL(profile.url).hostname).toMatch(/\.example$/);
  });

  it("keeps the profile URL it was asked about", async () => {
    const fields = await sandboxPersonProfileProvider.enrich(
      { linkedinUrl: "https://www.linkedin.com/in/ada-quill" },
      context(),
    );
    expect(value<string>(fields, "fullName")).toBe("Ada Quill");
    expect(value<{ network: string; url: string }[]>(fields, "socialProfiles")[0]).toEqual({
      network: "linkedin",
      url: "https://www.linkedin.com/in/ada-quill",
    });
    expect(value<string>(fields, "email")).toMatch(/^ada\.quill@sandbox-company-\d+\.example$/);
  });
});

describe("sandbox people/mobile", () => {
  it("answers fictional 555-01xx numbers in E.164, a mobile first", async () => {
    for (const input of [
      { email: "a.b@stripe.com" },
      { email: "c.d@stripe.com" },
      { linkedinUrl: "https://www.linkedin.com/in/e-f" },
    ]) {
      const numbers = value<PhoneNumberRecord[]>(
        await sandboxPersonPhoneProvider.enrich(input, context()),
        "phoneNumbers",
      );
      expect(numbers[0]!.type).toBe("mobile");
      for (const phone of numbers) {
        expect(phone.number).toMatch(/^\+1\d{3}55501\d{2}$/);
        expect(phone.confidence).toBeGreaterThan(0);
        expect(phone.confidence).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe("sandbox people/search", () => {
  it("answers 5–25 distinct people per company, each with a known seniority, and other companies differently", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, index) =>
        value<PersonSearchRecord[]>(
          await sandboxPeopleSearchProvider.enrich({ domain: `company-${index}.com`, wanted: 100 }, context()),
          "people",
        ),
      ),
    );
    for (const people of answers) {
      expect(people.length).toBeGreaterThanOrEqual(5);
      expect(people.length).toBeLessThanOrEqual(25);
      expect(new Set(people.map((person) => person.fullName)).size).toBe(people.length);
      for (const person of people) {
        expect(["junior", "senior", "executive"]).toContain(person.seniority);
        if (person.email !== null) expect(person.email).toMatch(/@company-\d+-com\.example$/);
      }
    }
    expect(new Set(answers.map((people) => JSON.stringify(people))).size).toBe(answers.length);
  });
});
