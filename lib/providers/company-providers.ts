import type {
  CompanyDiscoverProviderInput,
  CompanyEnrichProviderInput,
  CompanySearchProviderInput,
} from "@/lib/providers/fields/company";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { storeDiscoverProvider } from "./first-party/company-discover";
import { websiteProfileProvider } from "./first-party/company-enrich";
import { storeSearchProvider } from "./first-party/company-search";
import type { ProviderDeps } from "./provider-deps";
import {
  sandboxCompanyDiscoverProvider,
  sandboxCompanyEnrichProvider,
  sandboxCompanySearchProvider,
} from "./sandbox/companies";
import { createCompanyDataProfileProvider } from "./vendors/peopledatalabs-company";

/** The company operations' provider lists. */
export interface CompanyProviderLists {
  companyEnrich: EnrichmentProvider<CompanyEnrichProviderInput>[];
  companySearch: EnrichmentProvider<CompanySearchProviderInput>[];
  companyDiscover: EnrichmentProvider<CompanyDiscoverProviderInput>[];
}

/**
 * First-party providers first (the company's own site and DNS, our own store), then the company-data vendor when
 * its key is configured. Search and discovery have no vendor: the company-data adapter looks up one company by
 * website, name or profile, which can neither rank companies by a query nor list lookalikes, and one paid lookup per
 * search would cost more than a search page earns.
 */
export function liveCompanyProviders(deps: ProviderDeps): CompanyProviderLists {
  const companyEnrich: EnrichmentProvider<CompanyEnrichProviderInput>[] = [websiteProfileProvider(deps)];
  if (deps.config.PEOPLEDATALABS_API_KEY) {
    companyEnrich.push(
      createCompanyDataProfileProvider({
        apiKey: deps.config.PEOPLEDATALABS_API_KEY,
        baseUrl: deps.config.PEOPLEDATALABS_API_URL,
        http: deps.http,
      }),
    );
  }
  return {
    companyEnrich,
    companySearch: [storeSearchProvider(deps)],
    companyDiscover: [storeDiscoverProvider(deps)],
  };
}

/** Test keys: the deterministic sandbox and nothing else. */
export const sandboxCompanyProviders: CompanyProviderLists = {
  companyEnrich: [sandboxCompanyEnrichProvider],
  companySearch: [sandboxCompanySearchProvider],
  companyDiscover: [sandboxCompanyDiscoverProvider],
};
