import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { multiRecordPriceRange } from "@/lib/billing/prices";
import type { CompanySizeRange } from "@/lib/contracts/companies";
import { countryCode, normalizeCountryText } from "@/lib/providers/first-party/companies/countries";
import { singular } from "@/lib/providers/first-party/companies/keywords";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  COMPANY_DISCOVER_FIELDS,
  compareDiscoverHits,
  type CompanyDiscoverFilters,
  type CompanyDiscoverHit,
} from "@/lib/providers/fields/company";
import { pageOfRankedList, rankedListScope, startOffset } from "./company-paging";
import { runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

/** As for search: the store grows, and one ranking should serve a client paging through it. */
const CACHE_TTL_SECONDS = 3600;
/** Companies ranked per request; every page is cut from this one ranking. */
export const MAX_DISCOVER_RESULTS = 500;

export interface CompanyDiscoverRequest {
  domain?: string;
  filters?: {
    industry?: string[];
    keywords?: string[];
    technologies?: string[];
    country?: string;
    locality?: string;
    sizeRange?: CompanySizeRange;
  };
  limit: number;
  cursor?: string;
}

const distinct = (values: string[]) => [...new Set(values.filter((value) => value !== ""))];

/**
 * Filters in the form stored companies are compared in, so equal questions are equal inputs (and cache keys):
 * keywords split into lower-case singular words as the store keeps them, industries and technologies lower-case,
 * a country as its ISO code when it names one we know, lists de-duplicated in the caller's order.
 */
export function normalizeDiscoverFilters(filters: CompanyDiscoverRequest["filters"] = {}): CompanyDiscoverFilters {
  const country =
    filters.country === undefined ? undefined : (countryCode(filters.country) ?? normalizeCountryText(filters.country));
  return {
    industry: distinct((filters.industry ?? []).map((industry) => industry.trim().replace(/\s+/g, " ").toLowerCase())),
    keywords: distinct(
      (filters.keywords ?? [])
        .flatMap(
          (keyword) =>
            keyword
              .normalize("NFKC")
              .toLowerCase()
              .match(/[\p{L}\p{N}]+/gu) ?? [],
        )
        .map(singular),
    ),
    technologies: distinct(
      (filters.technologies ?? []).map((technology) => technology.trim().replace(/\s+/g, " ").toLowerCase()),
    ),
    ...(country !== undefined && { country }),
    ...(filters.locality !== undefined && { locality: filters.locality.trim().replace(/\s+/g, " ").toLowerCase() }),
    ...(filters.sizeRange !== undefined && { sizeRange: filters.sizeRange }),
  };
}

/** POST /v1/data/svc/companies/discover: lookalikes of a company and/or companies matching filters, paged. */
export async function discoverCompanies(options: {
  principal: ApiKeyPrincipal;
  request: CompanyDiscoverRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { request, principal } = options;
  const filters = normalizeDiscoverFilters(request.filters);
  const normalizedInput = { domain: request.domain, filters };
  const scope = rankedListScope(principal, "companies_discover", normalizedInput);
  const offset = startOffset(request.cursor, scope);
  return runEnrichmentCall({
    principal,
    operation: "companies_discover",
    normalizedInput,
    priceRange: multiRecordPriceRange("companies_discover", request.limit),
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).companyDiscover,
        input: { domain: request.domain, filters, wanted: MAX_DISCOVER_RESULTS },
        fields: COMPANY_DISCOVER_FIELDS,
        requested: ["companies"],
        isComplete: (merged) => merged.companies !== undefined,
        budgetCents: spendCapCents,
      }),
    shape: (output, capCents) => {
      const ranked = [...((output.merged.companies?.value as CompanyDiscoverHit[] | undefined) ?? [])]
        .sort(compareDiscoverHits)
        .slice(0, MAX_DISCOVER_RESULTS);
      const { data, ...priced } = pageOfRankedList({
        operation: "companies_discover",
        items: ranked,
        offset,
        limit: request.limit,
        capCents,
        scope,
      });
      return { data: { companies: data.page, total: data.total, nextCursor: data.nextCursor }, ...priced };
    },
  });
}
