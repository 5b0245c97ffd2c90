import { describe, expect, it, vi } from "vitest";
import { guardSandboxPurity } from "@/test/sandbox-purity";
import {
  companyDiscoverDataSchema,
  companyProfileDataSchema,
  companySearchDataSchema,
} from "@/lib/contracts/companies";
import {
  COMPANY_PROFILE_FIELDS,
  compareDiscoverHits,
  compareSearchHits,
  type CompanyDiscoverHit,
  type CompanyDiscoverProviderInput,
  type CompanySearchHit,
} from "@/lib/providers/fields/company";
import {
  sandboxCompanyDiscoverProvider,
  sandboxCompanyEnrichProvider,
  sandboxCompanySearchProvider,
} from "./companies";

const context = () => ({ signal: new AbortController().signal });
const NO_FILTERS = { industry: [], keywords: [], technologies: [] };

async function search(query: string, wanted = 500): Promise<CompanySearchHit[]> {
  return (await sandboxCompanySearchProvider.enrich({ query, wanted }, context())).companies
    ?.value as CompanySearchHit[];
}

async function discover(input: Partial<CompanyDiscoverProviderInput>): Promise<CompanyDiscoverHit[]> {
  const fields = await sandboxCompanyDiscoverProvider.enrich({ filters: NO_FILTERS, wanted: 500, ...input }, context());
  return fields.companies?.value as CompanyDiscoverHit[];
}

/** Every URL-ish value in an answer, to check they all stay under the reserved `.example` TLD. */
function hostsIn(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [...text.matchAll(/https?:\/\/([^/"]+)/g), ...text.matchAll(/"domain":"([^"]+)"/g)].map((match) => match[1]!);
}

guardSandboxPurity();

describe("sandbox companies/enrich", () => {
  it("is free, internal and supplies every profile field", () => {
    expect(sandboxCompanyEnrichProvider).toMatchObject({ id: "sandbox", operation: "companies_enrich", costCents: 0 });
    expect([...sandboxCompanyEnrichProvider.supplies].sort()).toEqual([...COMPANY_PROFILE_FIELDS].sort());
  });

  it("answers every field, the same whenever it is asked, in the response's shape", async () => {
    vi.useFakeTimers({ now: new Date("2020-02-02T00:00:00Z") });
    const first = await sandboxCompanyEnrichProvider.enrich({ domain: "stripe.com" }, context());
    vi.setSystemTime(new Date("2031-07-07T12:34:56Z"));
    const second = await sandboxCompanyEnrichProvider.enrich({ domain: "Stripe.com" }, context());
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(Object.keys(first).sort()).toEqual([...COMPANY_PROFILE_FIELDS].sort());

    const profile = Object.fromEntries(Object.entries(first).map(([name, field]) => [name, field?.value]));
    expect(companyProfileDataSchema.parse({ domain: "stripe.com", ...profile })).toBeTruthy();
    expect(profile.name).toBe("Sandbox Co (stripe.com)");
    expect(profile.phone).toMatch(/^\+1-202-555-01\d\d$/);
    for (const host of hostsIn(profile)) expect(host).toMatch(/\.example$/);
    const sizes: Record<string, [number, number]> = {
      "1-10": [1, 10],
      "11-50": [11, 50],
      "51-200": [51, 200],
      "201-500": [201, 500],
      "501-1000": [501, 1000],
      "1001-5000": [1001, 5000],
    };
    const [fewest, most] = sizes[profile.sizeRange as string]!;
    expect(profile.employeeCount).toBeGreaterThanOrEqual(fewest);
    expect(profile.employeeCount).toBeLessThanOrEqual(most);
  });

  it("answers different domains differently", async () => {
    const profiles = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        sandboxCompanyEnrichProvider.enrich({ domain: `company-${index}.com` }, context()),
      ),
    );
    expect(new Set(profiles.map((profile) => JSON.stringify(profile))).size).toBe(20);
    expect(new Set(profiles.map((profile) => profile.industry?.value)).size).toBeGreaterThan(1);
  });
});

describe("sandbox companies/search", () => {
  it("ranks the company named exactly the query first, at the query's slug, then 7 to 39 others best first", async () => {
    const hits = await search("acme analytics");
    expect(hits[0]).toEqual({
      domain: "acme-analytics.example",
      name: "Acme Analytics",
      description: 'A synthetic company named "Acme Analytics".',
      score: 1,
    });
    expect(hits.length).toBeGreaterThanOrEqual(8);
    expect(hits.length).toBeLessThanOrEqual(40);
    expect(hits).toEqual([...hits].sort(compareSearchHits));
    expect(new Set(hits.map((hit) => hit.domain)).size).toBe(hits.length);
    for (const hit of hits.slice(1)) {
      expect(hit.name).toContain("Acme Analytics");
      expect(hit.score).toBeGreaterThanOrEqual(0.3);
      expect(hit.score).toBeLessThan(1);
    }
    expect(companySearchDataSchema.parse({ companies: hits, total: hits.length, nextCursor: null })).toBeTruthy();
    for (const host of hostsIn(hits)) expect(host).toMatch(/\.example$/);
  });

  it("is deterministic, and honours how many are wanted", async () => {
    expect(await search("Acme Analytics")).toEqual(await search("acme analytics"));
    expect(await search("acme analytics", 3)).toEqual((await search("acme analytics")).slice(0, 3));
    expect(await search("globex")).not.toEqual(await search("acme analytics"));
  });
});

describe("sandbox companies/discover", () => {
  it("lists lookalikes of a domain with a similarity, best first", async () => {
    const hits = await discover({ domain: "stripe.com" });
    expect(hits.length).toBeGreaterThanOrEqual(5);
    expect(hits.length).toBeLessThanOrEqual(30);
    expect(hits).toEqual([...hits].sort(compareDiscoverHits));
    for (const hit of hits) {
      expect(hit.domain).toMatch(/^lookalike-\d+\.example$/);
      expect(hit.similarity).toBeGreaterThanOrEqual(0.2);
      expect(hit.similarity).toBeLessThanOrEqual(0.95);
      expect(hit.matched.length).toBeGreaterThan(0);
    }
    expect(await discover({ domain: "stripe.com" })).toEqual(hits);
    expect(companyDiscoverDataSchema.parse({ companies: hits, total: hits.length, nextCursor: null })).toBeTruthy();
  });

  it("lists companies matching filters by what they matched, without a similarity", async () => {
    const filters = { industry: [], keywords: ["logistic", "freight"], technologies: ["wordpress"] };
    const hits = await discover({ filters });
    expect(hits).toEqual([...hits].sort(compareDiscoverHits));
    for (const hit of hits) {
      expect(hit.similarity).toBeNull();
      expect(hit.matched.length).toBeGreaterThan(0);
      for (const value of hit.matched) expect(["logistic", "freight", "wordpress"]).toContain(value);
    }
    expect(await discover({ filters: { ...filters, country: "US" } })).not.toEqual(hits);
  });
});
