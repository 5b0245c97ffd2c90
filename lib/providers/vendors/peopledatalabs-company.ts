import type { CompanyEnrichProviderInput, CompanyLocation, CompanySocialProfile } from "@/lib/providers/fields/company";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { fetchPeopleDataLabsCompany, type PeopleDataLabsOptions } from "@/lib/providers/vendors/peopledatalabs";
import type { CompanyProfile } from "@/lib/providers/vendors/company-profile";
import { VENDOR_COSTS_CENTS } from "@/lib/providers/vendors/vendor-costs";
import { DEFAULT_VENDOR_TIMEOUT_MS } from "@/lib/providers/vendors/vendor-request";
import { industryKeywords } from "@/lib/providers/first-party/companies/keywords";

/*
 * companies/enrich from the company-data vendor's Company Enrichment API (the same call the funding signal makes):
 * what a website never states about itself — industry, size, employee count — and what it may leave out (founding
 * year, city, social profiles). The vendor's `CompanyProfile` is mapped field by field; nothing it leaves null is
 * filled in.
 */

/**
 * A vendor is sure of its match at best, not of every fact in its record: kept under what a company states on its
 * own site (0.8), so where both say something the site wins and the vendor fills the gaps.
 */
const VENDOR_CONFIDENCE_CAP = 0.75;

export function createCompanyDataProfileProvider(
  options: PeopleDataLabsOptions & { costCents?: number },
): EnrichmentProvider<CompanyEnrichProviderInput> {
  if (options.apiKey === "") throw new Error("The company data adapter needs an API key.");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;
  return {
    // Its own id, apart from the funding provider's, so an operator can order or disable each on its own.
    id: "peopledatalabs-company",
    operation: "companies_enrich",
    supplies: [
      "name",
      "description",
      "industry",
      "keywords",
      "sizeRange",
      "employeeCount",
      "founded",
      "location",
      "socialProfiles",
    ],
    costCents: options.costCents ?? VENDOR_COSTS_CENTS.peopledatalabs,
    timeoutMs,
    async enrich(input, { signal }) {
      const company = await fetchPeopleDataLabsCompany({
        ...options,
        timeoutMs,
        query: { website: input.domain },
        signal,
      });
      // A record whose website is another domain describes another company, however sure the vendor is.
      if (company === null || (company.domain !== null && company.domain !== input.domain)) return {};
      return profileFields(company);
    },
  };
}

/** The fields of a vendor's company profile, each at the vendor's match confidence (capped). */
export function profileFields(company: CompanyProfile): ProviderFields {
  const confidence = Math.min(VENDOR_CONFIDENCE_CAP, company.matchConfidence);
  const fields: ProviderFields = {};
  const set = (name: string, value: unknown) => {
    if (value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0))
      fields[name] = { value, confidence };
  };
  set("name", company.name);
  set("description", company.description);
  set("industry", company.industry);
  set("sizeRange", company.sizeRange);
  set("employeeCount", company.employeeCount);
  set("founded", company.founded);
  const { locality, region, country } = company.location;
  if (locality !== null || region !== null || country !== null)
    set("location", { street: null, locality, region, postalCode: null, country } satisfies CompanyLocation);
  set("keywords", industryKeywords(company.tags, { exclude: [company.name ?? ""] }));
  const profiles: CompanySocialProfile[] = (["linkedin", "twitter", "facebook"] as const).flatMap((network) => {
    const url = company.socialProfiles[network];
    return url === null ? [] : [{ network, url }];
  });
  set("socialProfiles", profiles);
  return fields;
}
