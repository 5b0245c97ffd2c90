import type { CompanyDiscoverProviderInput } from "@/lib/providers/fields/company";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { discoverStoredCompanies, findCompany, type SimilarityTarget } from "./companies/company-store";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";

/**
 * Lookalikes and filtered companies from our own store. The target's keywords and technologies come from a visit to
 * its site (which also adds it to the store); when the site cannot be read, from what the store already knows of it.
 */
export function storeDiscoverProvider(options: FirstPartyOptions): EnrichmentProvider<CompanyDiscoverProviderInput> {
  return {
    id: "company-store",
    operation: "companies_discover",
    supplies: ["companies"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      let target: SimilarityTarget | undefined;
      if (input.domain !== undefined) {
        const snapshot = await options.snapshots(input.domain);
        const stored = snapshot.keywords.length > 0 ? null : await findCompany(options.db(), input.domain);
        target = stored
          ? { domain: input.domain, keywords: stored.keywords, technologies: stored.technologies }
          : {
              domain: input.domain,
              keywords: snapshot.keywords,
              technologies: snapshot.technologies.map((technology) => technology.name),
            };
        // Nothing is known of what the company does, so nothing can be like it.
        if (target.keywords.length === 0) return {};
      }
      const companies = await discoverStoredCompanies(options.db(), {
        target,
        filters: input.filters,
        limit: input.wanted,
      });
      return companies.length === 0 ? {} : { companies: { value: companies, confidence: 1 } };
    },
  };
}
