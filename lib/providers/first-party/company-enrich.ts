import type { CompanyEnrichProviderInput, CompanyLocation } from "@/lib/providers/fields/company";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";

/** Facts a company states about itself on its own site. */
const OWN_SITE_CONFIDENCE = 0.8;
/** Who hosts a domain's mail is what its MX records say: a fact of DNS, not a claim. */
const MX_CONFIDENCE = 0.95;
/** The earliest founding year we believe; older "founded" values are typos or not years at all. */
const EARLIEST_FOUNDING_YEAR = 1600;

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
export function websiteProfileProvider(options: FirstPartyOptions): EnrichmentProvider<CompanyEnrichProviderInput> {
  return {
    id: "website-profile",
    operation: "companies_enrich",
    supplies: [
      "name",
      "legalName",
      "description",
      "keywords",
      "founded",
      "location",
      "phone",
      "socialProfiles",
      "logo",
      "mailProvider",
      "technologies",
    ],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const snapshot = await options.snapshots(input.domain);
      const fields: ProviderFields = {};
      // The mail provider is known from DNS even when the site does not answer.
      if (snapshot.mailDns?.mailProvider)
        fields.mailProvider = { value: snapshot.mailDns.mailProvider, confidence: MX_CONFIDENCE };
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
