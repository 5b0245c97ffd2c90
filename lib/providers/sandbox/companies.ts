import { COMPANY_SIZE_RANGES } from "@/lib/contracts/companies";
import {
  COMPANY_DISCOVER_FIELDS,
  COMPANY_ENRICH_FIELDS,
  COMPANY_SEARCH_FIELDS,
  compareDiscoverHits,
  compareSearchHits,
  type CompanyDiscoverHit,
  type CompanyDiscoverProviderInput,
  type CompanyEnrichProviderInput,
  type CompanySearchHit,
  type CompanySearchProviderInput,
} from "@/lib/providers/fields/company";
import type { EnrichmentProvider, FieldValue } from "@/lib/providers/provider";
import { certain, generator, sandboxDomainFor, slug } from "./kit";

/*
 * What test keys (`sbx_test_…`) get from the companies operations instead of real data (DESIGN §2), in the style of
 * every sandbox (kit.ts): every answer is a pure function of the normalized input (the seed is a hash of it; no
 * Math.random, no clock, no network, no database), and the data is plainly synthetic: every domain and link is under
 * RFC 2606's reserved `.example` TLD, phone numbers are in the 555-0100..0199 range reserved for fiction, and every
 * name says "Sandbox".
 */

/** "acme analytics" → "Acme Analytics". */
function titleCase(text: string): string {
  return text.replace(/\p{L}[\p{L}\p{N}']*/gu, (word) => word.charAt(0).toUpperCase() + word.slice(1));
}

// ---------------------------------------------------------------------------------------------------------------
// companies/enrich

const INDUSTRIES = [
  { industry: "computer software", keywords: ["software", "platform", "cloud", "developer", "api"] },
  { industry: "logistics and supply chain", keywords: ["logistics", "freight", "shipping", "warehouse", "carrier"] },
  { industry: "financial services", keywords: ["payment", "banking", "lending", "finance", "compliance"] },
  { industry: "marketing and advertising", keywords: ["marketing", "advertising", "campaign", "brand", "audience"] },
  { industry: "hospital and health care", keywords: ["health", "patient", "clinic", "care", "medical"] },
  { industry: "retail", keywords: ["retail", "store", "ecommerce", "product", "customer"] },
] as const;
const TECHNOLOGIES = [
  { name: "React", category: "JavaScript frameworks" },
  { name: "Next.js", category: "Web frameworks" },
  { name: "WordPress", category: "CMS" },
  { name: "Shopify", category: "Ecommerce" },
  { name: "Cloudflare", category: "CDN" },
  { name: "Google Analytics", category: "Analytics" },
  { name: "HubSpot", category: "Marketing automation" },
  { name: "Stripe", category: "Payment processors" },
  { name: "Intercom", category: "Live chat" },
  { name: "Nginx", category: "Web servers" },
  { name: "Google Workspace", category: "Email" },
  { name: "Microsoft 365", category: "Email" },
] as const;
const MAIL_PROVIDERS = ["Google Workspace", "Microsoft 365"] as const;
// Made-up places (with real-looking structure), so a sandbox address can never be someone's.
const PLACES = [
  { locality: "Sandbox City", region: "CA", postalCode: "90210", country: "US" },
  { locality: "Testville", region: "TX", postalCode: "73301", country: "US" },
  { locality: "Mockingham", region: null, postalCode: "SW1A 1AA", country: "GB" },
  { locality: "Beispielstadt", region: null, postalCode: "10115", country: "DE" },
] as const;
const SIZE_COUNTS: Record<(typeof COMPANY_SIZE_RANGES)[number], [number, number]> = {
  "1-10": [2, 10],
  "11-50": [11, 50],
  "51-200": [51, 200],
  "201-500": [201, 500],
  "501-1000": [501, 1000],
  "1001-5000": [1001, 5000],
  "5001-10000": [5001, 10000],
  "10001+": [10001, 40000],
};

function sandboxProfile(domain: string): Record<string, FieldValue> {
  const random = generator("companies:enrich", domain);
  const site = sandboxDomainFor(domain);
  const label = site.replace(/\.example$/, "");
  const sector = random.pick(INDUSTRIES);
  const sizeRange = random.pick(COMPANY_SIZE_RANGES.slice(0, 6));
  const [fewest, most] = SIZE_COUNTS[sizeRange];
  const place = random.pick(PLACES);
  const name = `Sandbox Co (${domain})`;
  const technologies = random
    .shuffle(TECHNOLOGIES.filter((technology) => technology.category !== "Email"))
    .slice(0, random.int(3, 7))
    .sort((a, b) => a.name.localeCompare(b.name));
  const mailProvider = random.pick(MAIL_PROVIDERS);
  return {
    name: certain(name),
    legalName: certain(`Sandbox Co ${titleCase(label.replace(/-/g, " "))}, Inc.`),
    description: certain(`A synthetic ${sector.industry} company for testing, answering for ${domain}.`),
    industry: certain(sector.industry),
    keywords: certain(random.shuffle(sector.keywords).slice(0, random.int(3, 5))),
    sizeRange: certain(sizeRange),
    employeeCount: certain(random.int(fewest, most)),
    founded: certain(random.int(1990, 2022)),
    location: certain({ street: `${random.int(1, 999)} Example Street`, ...place }),
    phone: certain(`+1-202-555-01${String(random.int(0, 99)).padStart(2, "0")}`),
    socialProfiles: certain([
      { network: "linkedin", url: `https://linkedin.example/company/${label}` },
      { network: "twitter", url: `https://twitter.example/${label.replace(/-/g, "_").slice(0, 15)}` },
    ]),
    logo: certain(`https://${site}/logo.png`),
    mailProvider: certain(mailProvider),
    technologies: certain([...technologies, TECHNOLOGIES.find((technology) => technology.name === mailProvider)!]),
  };
}

/** Test-key answers for companies/enrich: a full, synthetic profile for any domain. */
export const sandboxCompanyEnrichProvider: EnrichmentProvider<CompanyEnrichProviderInput> = {
  id: "sandbox",
  operation: "companies_enrich",
  supplies: COMPANY_ENRICH_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return sandboxProfile(input.domain.trim().toLowerCase());
  },
};

// ---------------------------------------------------------------------------------------------------------------
// companies/search

const NAME_PREFIXES = ["Sandbox", "North", "Bright", "Blue", "First", "Summit", "Harbor", "Pioneer"] as const;
const NAME_SUFFIXES = [
  "Labs",
  "Group",
  "Systems",
  "Partners",
  "Works",
  "Digital",
  "Holdings",
  "Studio",
  "Analytics",
  "Solutions",
] as const;

/**
 * 8–40 companies for a query: first the one named exactly that (score 1; its domain is the query's slug under
 * `.example`, as the sandbox of domain-emails resolves a company name), then variations of the name, best first.
 */
function sandboxSearch(query: string, wanted: number): CompanySearchHit[] {
  const random = generator("companies:search", query);
  const base = titleCase(query);
  const variants = random.shuffle([
    ...NAME_SUFFIXES.map((suffix) => `${base} ${suffix}`),
    ...NAME_PREFIXES.map((prefix) => `${prefix} ${base}`),
    ...NAME_PREFIXES.flatMap((prefix) => NAME_SUFFIXES.map((suffix) => `${prefix} ${base} ${suffix}`)),
  ]);
  const others = variants.slice(0, random.int(7, 39)).map((name) => ({
    domain: `${slug(name)}.example`,
    name,
    description: `A synthetic company whose name resembles "${base}".`,
    score: random.int(300, 950) / 1000,
  }));
  const exact = {
    domain: `${slug(query)}.example`,
    name: base,
    description: `A synthetic company named "${base}".`,
    score: 1,
  };
  return [exact, ...others].sort(compareSearchHits).slice(0, wanted);
}

/** Test-key answers for companies/search. */
export const sandboxCompanySearchProvider: EnrichmentProvider<CompanySearchProviderInput> = {
  id: "sandbox",
  operation: "companies_search",
  supplies: COMPANY_SEARCH_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return { companies: certain(sandboxSearch(input.query.trim().toLowerCase(), input.wanted)) };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// companies/discover

const LOOKALIKE_KEYWORDS = [
  "analytics",
  "platform",
  "logistics",
  "software",
  "data",
  "automation",
  "cloud",
  "marketing",
  "payment",
  "retail",
] as const;

/**
 * 5–30 companies for a request. With a domain: lookalikes scored 0.2–0.95 that share some synthetic keywords; with
 * filters alone: companies that match one or more of the filters' listed values (similarity null), most first.
 */
function sandboxDiscover(input: CompanyDiscoverProviderInput): CompanyDiscoverHit[] {
  const { filters } = input;
  const random = generator("companies:discover", JSON.stringify({ domain: input.domain ?? null, filters }));
  const listed = [...filters.industry, ...filters.keywords, ...filters.technologies];
  const count = random.int(5, 30);
  const numbers = random.shuffle(Array.from({ length: 90 }, (_, index) => index + 10)).slice(0, count);
  const hits = numbers.map((number): CompanyDiscoverHit => {
    const matched =
      input.domain !== undefined
        ? random.shuffle(LOOKALIKE_KEYWORDS).slice(0, random.int(1, 4))
        : listed.length > 0
          ? random.shuffle(listed).slice(0, random.int(1, listed.length))
          : [];
    return {
      domain: `${input.domain !== undefined ? "lookalike" : "discovered"}-${number}.example`,
      name: `Sandbox ${input.domain !== undefined ? "Lookalike" : "Discovery"} ${number}`,
      similarity: input.domain !== undefined ? random.int(200, 950) / 1000 : null,
      matched,
    };
  });
  return hits.sort(compareDiscoverHits).slice(0, input.wanted);
}

/** Test-key answers for companies/discover. */
export const sandboxCompanyDiscoverProvider: EnrichmentProvider<CompanyDiscoverProviderInput> = {
  id: "sandbox",
  operation: "companies_discover",
  supplies: COMPANY_DISCOVER_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return { companies: certain(sandboxDiscover(input)) };
  },
};
