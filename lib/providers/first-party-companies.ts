import type {
  CompanyDiscoverProviderInput,
  CompanyEnrichProviderInput,
  CompanyLocation,
  CompanySearchProviderInput,
} from "@/lib/enrichment/company-fields";
import type { EnrichmentProvider, ProviderFields } from "@/lib/enrichment/types";
import type { DbClient } from "@/lib/db/client";
import { discoverStoredCompanies, findCompany, searchStoredCompanies, type SimilarityTarget } from "./companies/company-store";
import type { CompanySnapshots } from "./company-snapshot";

/*
 * The companies operations' first-party providers: a company's profile from its own website and DNS (the shared
 * snapshot), and search and discovery over our own store of companies, which every snapshot and every enrichment
 * adds to. They cost us nothing, so they run first unless the operator orders otherwise.
 */

/** Collecting a site takes several page fetches; later callers reuse the finished snapshot. */
const SNAPSHOT_TIMEOUT_MS = 25_000;
/** Facts a company states about itself on its own site. */
const OWN_SITE_CONFIDENCE = 0.8;
/** Who hosts a domain's mail is what its MX records say: a fact of DNS, not a claim. */
const MX_CONFIDENCE = 0.95;
/** The earliest founding year we believe; older "founded" values are typos or not years at all. */
const EARLIEST_FOUNDING_YEAR = 1600;

export interface FirstPartyCompanyOptions {
  snapshots: CompanySnapshots;
  db: () => DbClient;
}

const ownSite = <T>(value: T) => ({ value, confidence: OWN_SITE_CONFIDENCE });

/** The year of a schema.org `foundingDate` ("2015", "2015-03-01"), or null when it is not a plausible year. */
export function foundingYear(foundingDate: string | null, now = new Date()): number | null {
  const year = Number(/^\s*(\d{4})(?:\b|-)/.exec(foundingDate ?? "")?.[1]);
  return Number.isInteger(year) && year >= EARLIEST_FOUNDING_YEAR && year <= now.getUTCFullYear() ? year : null;
}

/**
 * What the company says about itself on its own site (name, legal name, description, keywords, founding year,
 * address, phone, social profiles, logo), the stack seen there, and its mail provider from DNS. Industry and size
 * are never inferred from a website: only a source that states them fills them.
 */
export function websiteProfileProvider(options: FirstPartyCompanyOptions): EnrichmentProvider<CompanyEnrichProviderInput> {
  return {
    id: "website-profile",
    operation: "companies_enrich",
    supplies: ["name", "legalName", "description", "keywords", "founded", "location", "phone", "socialProfiles", "logo", "mailProvider", "technologies"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const snapshot = await options.snapshots(input.domain);
      const fields: ProviderFields = {};
      // The mail provider is known from DNS even when the site does not answer.
      if (snapshot.mailDns?.mailProvider) fields.mailProvider = { value: snapshot.mailDns.mailProvider, confidence: MX_CONFIDENCE };
      if (!snapshot.reachable) return fields;

      const { organization } = snapshot;
      if (organization.name) fields.name = ownSite(organization.name);
      if (organization.legalName) fields.legalName = ownSite(organization.legalName);
      if (organization.description) fields.description = ownSite(organization.description);
      if (organization.logo) fields.logo = ownSite(organization.logo);
      if (organization.phone) fields.phone = ownSite(organization.phone);
      const founded = foundingYear(organization.foundingDate);
      if (founded !== null) fields.founded = ownSite(founded);
      if (organization.address) {
        const { street, locality, region, postalCode, country } = organization.address;
        fields.location = ownSite<CompanyLocation>({ street, locality, region, postalCode, country });
      }
      if (snapshot.keywords.length > 0) fields.keywords = ownSite(snapshot.keywords);
      if (organization.socialProfiles.length > 0) {
        fields.socialProfiles = ownSite(organization.socialProfiles.map(({ network, url }) => ({ network, url })));
      }
      if (snapshot.technologies.length > 0) {
        fields.technologies = {
          value: snapshot.technologies.map(({ name, category }) => ({ name, category })),
          confidence: Math.max(...snapshot.technologies.map((technology) => technology.confidence)),
        };
      }
      return fields;
    },
  };
}

/** Companies by name or keywords from our own store (full-text and trigram search). */
export function storeSearchProvider(options: FirstPartyCompanyOptions): EnrichmentProvider<CompanySearchProviderInput> {
  return {
    id: "company-store",
    operation: "companies_search",
    supplies: ["companies"],
    costCents: 0,
    async enrich(input) {
      const companies = await searchStoredCompanies(options.db(), { query: input.query, limit: input.wanted });
      return companies.length === 0 ? {} : { companies: { value: companies, confidence: Math.max(...companies.map((company) => company.score)) } };
    },
  };
}

/**
 * Lookalikes and filtered companies from our own store. The target's keywords and technologies come from a visit to
 * its site (which also adds it to the store); when the site cannot be read, from what the store already knows of it.
 */
export function storeDiscoverProvider(options: FirstPartyCompanyOptions): EnrichmentProvider<CompanyDiscoverProviderInput> {
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
          : { domain: input.domain, keywords: snapshot.keywords, technologies: snapshot.technologies.map((technology) => technology.name) };
        // Nothing is known of what the company does, so nothing can be like it.
        if (target.keywords.length === 0) return {};
      }
      const companies = await discoverStoredCompanies(options.db(), { target, filters: input.filters, limit: input.wanted });
      return companies.length === 0 ? {} : { companies: { value: companies, confidence: 1 } };
    },
  };
}
