import type { Funding, IntelligenceProviderInput, Technology } from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { findSimilarCompanies } from "./companies/company-store";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";

const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

/** Public filings, when enabled: the funding of the company with this legal name. */
export interface PublicFilingsOptions extends FirstPartyOptions {
  funding: { findFunding(companyName: string, signal?: AbortSignal): Promise<Funding | null> };
}

/** Technologies fingerprinted on the company's home page and DNS, with our own first/last sightings. */
export function fingerprintTechnographicsProvider(
  options: FirstPartyOptions,
): EnrichmentProvider<IntelligenceProviderInput> {
  return {
    id: "fingerprints",
    operation: "companies_intelligence",
    supplies: ["technographics"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const snapshot = await options.snapshots(input.domain);
      const technologies: Technology[] = snapshot.technologies.map((technology) => ({
        name: technology.name,
        category: technology.category,
        confidence: technology.confidence,
        firstDetected: dateOnly(technology.firstDetected),
        lastDetected: dateOnly(technology.lastDetected),
        evidence: technology.evidence,
      }));
      return technologies.length === 0
        ? {}
        : {
            technographics: {
              value: technologies,
              confidence: Math.max(...technologies.map((item) => item.confidence)),
            },
          };
    },
  };
}

/** Competitors from our own store: companies that describe themselves alike and run similar technology. */
export function storedCompetitorsProvider(options: FirstPartyOptions): EnrichmentProvider<IntelligenceProviderInput> {
  return {
    id: "company-store",
    operation: "companies_intelligence",
    supplies: ["competitors"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const snapshot = await options.snapshots(input.domain);
      if (snapshot.keywords.length === 0) return {};
      const competitors = await findSimilarCompanies(options.db(), {
        domain: snapshot.domain,
        keywords: snapshot.keywords,
        technologies: snapshot.technologies.map((technology) => technology.name),
      });
      return competitors.length === 0
        ? {}
        : { competitors: { value: competitors, confidence: Math.max(...competitors.map((item) => item.similarity)) } };
    },
  };
}

/** Funding rounds from public filings, found by the legal name the company's own site states. */
export function publicFilingsFundingProvider(
  options: PublicFilingsOptions,
): EnrichmentProvider<IntelligenceProviderInput> {
  return {
    id: "public-filings",
    operation: "companies_intelligence",
    supplies: ["funding"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input, { signal }) {
      const snapshot = await options.snapshots(input.domain);
      const name = snapshot.organization.legalName ?? snapshot.organization.name;
      if (!name) return {};
      const funding = await options.funding.findFunding(name, signal);
      // Matched by name, not by an identifier the filing shares with the website: sure, but not certain.
      return funding ? { funding: { value: funding, confidence: 0.7 } } : {};
    },
  };
}
