import type { CompanySearchProviderInput } from "@/lib/providers/fields/company";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { searchStoredCompanies } from "./companies/company-store";
import type { FirstPartyOptions } from "./options";

/**
 * Companies by name or keywords from our own store (full-text and trigram search), which every snapshot and every
 * enrichment adds to.
 */
export function storeSearchProvider(options: FirstPartyOptions): EnrichmentProvider<CompanySearchProviderInput> {
  return {
    id: "company-store",
    operation: "companies_search",
    supplies: ["companies"],
    costCents: 0,
    async enrich(input) {
      const companies = await searchStoredCompanies(options.db(), { query: input.query, limit: input.wanted });
      return companies.length === 0
        ? {}
        : { companies: { value: companies, confidence: Math.max(...companies.map((company) => company.score)) } };
    },
  };
}
