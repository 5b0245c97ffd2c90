import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { multiRecordPriceRange } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import { COMPANY_SEARCH_FIELDS, compareSearchHits, type CompanySearchHit } from "@/lib/providers/fields/company";
import { pageOfRankedList, rankedListScope, startOffset } from "./company-paging";
import { runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

/**
 * Short: the store grows with every company collected, and a search should find them soon. Long enough that a client
 * paging through the results reads every page from one ranking.
 */
const CACHE_TTL_SECONDS = 3600;
/** Companies ranked per query. Every page is cut from this one ranking, so pages never skip or repeat a company. */
export const MAX_SEARCH_RESULTS = 500;

export interface CompanySearchRequest {
  query: string;
  limit: number;
  cursor?: string;
}

/** POST /v1/data/svc/companies/search: companies by name or keywords, best first, paged. */
export async function searchCompanies(options: {
  principal: ApiKeyPrincipal;
  request: CompanySearchRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { request, principal } = options;
  // The same words in any case and spacing are the same question.
  const query = request.query.trim().replace(/\s+/g, " ").toLowerCase();
  // Paging is applied to the answer, not asked of providers: it is not part of the input.
  const normalizedInput = { query };
  const scope = rankedListScope(principal, "companies_search", normalizedInput);
  const offset = startOffset(request.cursor, scope);
  return runEnrichmentCall({
    principal,
    operation: "companies_search",
    normalizedInput,
    priceRange: multiRecordPriceRange("companies_search", request.limit),
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).companySearch,
        input: { query, wanted: MAX_SEARCH_RESULTS },
        fields: COMPANY_SEARCH_FIELDS,
        requested: ["companies"],
        // Each provider answers with every match it has.
        isComplete: (merged) => merged.companies !== undefined,
        budgetCents: spendCapCents,
      }),
    shape: (output, capCents) => {
      const ranked = [...((output.merged.companies?.value as CompanySearchHit[] | undefined) ?? [])]
        .sort(compareSearchHits)
        .slice(0, MAX_SEARCH_RESULTS);
      const { data, ...priced } = pageOfRankedList({
        operation: "companies_search",
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
