import type { CompanySizeRange } from "@/lib/contracts/companies";
import type { FieldSpec } from "@/lib/providers/provider";

/*
 * The companies operations' vocabulary: what providers are asked, the items they answer with, and how answers merge.
 */

// ---------------------------------------------------------------------------------------------------------------
// companies/enrich

export interface CompanyEnrichProviderInput {
  domain: string;
}

export interface CompanyLocation {
  street: string | null;
  locality: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

export interface CompanySocialProfile {
  network: string;
  url: string;
}

export interface CompanyTechnology {
  name: string;
  category: string;
}

/** The profile's fields (all but `domain`, which is the question), in the order of the answer. */
export const COMPANY_PROFILE_FIELDS = [
  "name",
  "legalName",
  "description",
  "industry",
  "keywords",
  "sizeRange",
  "employeeCount",
  "founded",
  "location",
  "phone",
  "socialProfiles",
  "logo",
  "mailProvider",
  "technologies",
] as const;

export type CompanyProfileField = (typeof COMPANY_PROFILE_FIELDS)[number];

/**
 * Scalars: `name`, `legalName`, `description`, `industry`, `sizeRange`, `phone`, `logo`, `mailProvider` (strings),
 * `employeeCount`, `founded` (integers, `founded` a year), `location` (CompanyLocation). Lists: `keywords` (lower-case
 * strings), `socialProfiles` (one per network), `technologies` (one per name). List items carry no confidence of
 * their own: a key already present is kept, so the earlier provider (the company's own site) wins.
 */
export const COMPANY_ENRICH_FIELDS: readonly FieldSpec[] = COMPANY_PROFILE_FIELDS.map((name): FieldSpec => {
  switch (name) {
    case "keywords":
      return { name, kind: "list", key: (item) => String(item), confidence: () => 1 };
    case "socialProfiles":
      return { name, kind: "list", key: (item) => (item as CompanySocialProfile).network, confidence: () => 1 };
    case "technologies":
      return { name, kind: "list", key: (item) => (item as CompanyTechnology).name.toLowerCase(), confidence: () => 1 };
    default:
      return { name, kind: "scalar" };
  }
});

// ---------------------------------------------------------------------------------------------------------------
// companies/search

export interface CompanySearchProviderInput {
  /** Trimmed, inner whitespace collapsed; case as the caller wrote it. */
  query: string;
  /** How many companies to rank at most. */
  wanted: number;
}

export interface CompanySearchHit {
  domain: string;
  name: string | null;
  description: string | null;
  /** 0–1, three decimals. */
  score: number;
}

export const COMPANY_SEARCH_FIELDS: readonly FieldSpec[] = [
  {
    name: "companies",
    kind: "list",
    key: (item) => (item as CompanySearchHit).domain,
    confidence: (item) => (item as CompanySearchHit).score,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// companies/discover

/** Discover filters, normalized: lists de-duplicated in the caller's order, empty when not given. */
export interface CompanyDiscoverFilters {
  /** Lower-case. */
  industry: string[];
  /** Lower-case singular words, as companies' keywords are stored. */
  keywords: string[];
  /** As given (matched without regard to case). */
  technologies: string[];
  country?: string;
  locality?: string;
  sizeRange?: CompanySizeRange;
}

export interface CompanyDiscoverProviderInput {
  /** Lookalikes of this company, when given. */
  domain?: string;
  filters: CompanyDiscoverFilters;
  wanted: number;
}

export interface CompanyDiscoverHit {
  domain: string;
  name: string | null;
  /** 0–1 likeness to the target, three decimals; null when discovering by filters alone. */
  similarity: number | null;
  /** Keywords, then technologies, shared with the target or matching the filters. */
  matched: string[];
}

export const COMPANY_DISCOVER_FIELDS: readonly FieldSpec[] = [
  {
    name: "companies",
    kind: "list",
    key: (item) => (item as CompanyDiscoverHit).domain,
    confidence: (item) => (item as CompanyDiscoverHit).similarity ?? 1,
  },
];

/** Search order: best score first, then by domain, so pages cut from one ranking never skip or repeat. */
export function compareSearchHits(a: CompanySearchHit, b: CompanySearchHit): number {
  return b.score - a.score || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0);
}

/** Discover order: most alike first, then most reasons to be listed, then by domain. */
export function compareDiscoverHits(a: CompanyDiscoverHit, b: CompanyDiscoverHit): number {
  return (
    (b.similarity ?? -1) - (a.similarity ?? -1) ||
    b.matched.length - a.matched.length ||
    (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0)
  );
}
