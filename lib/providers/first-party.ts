import type { DomainEmailsProviderInput } from "@/lib/enrichment/domain-emails-fields";
import type { Funding, IntelligenceProviderInput, Technology } from "@/lib/enrichment/intelligence-fields";
import type { EnrichmentProvider, ProviderFields } from "@/lib/enrichment/types";
import type { DbClient } from "@/lib/db/client";
import { findCompanyByName, findSimilarCompanies } from "./companies/company-store";
import type { CompanySnapshots } from "./company-snapshot";
import { isDisposableDomain, isWebmailDomain } from "./email/verification";

/*
 * Providers that need no vendor account: they answer from the company's own website and DNS (one shared snapshot
 * per company), from our own store of companies seen before, and from public filings. They cost us nothing, so they
 * run first unless the operator orders otherwise.
 */

/** Collecting a site takes several page fetches; later callers reuse the finished snapshot. */
const SNAPSHOT_TIMEOUT_MS = 25_000;
/** Facts a company states about itself on its own site. */
const OWN_SITE_CONFIDENCE = 0.8;
const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

export interface FirstPartyOptions {
  snapshots: CompanySnapshots;
  db: () => DbClient;
  /** Funding from public filings, when enabled. */
  funding?: { findFunding(companyName: string, signal?: AbortSignal): Promise<Funding | null> };
}

/** Addresses, pattern and organization from the company's website; webmail/disposable from public domain lists. */
export function websiteEmailsProvider(options: FirstPartyOptions): EnrichmentProvider<DomainEmailsProviderInput> {
  return {
    id: "website",
    operation: "companies_domain_emails",
    supplies: ["domain", "organization", "pattern", "webmail", "disposable", "emails"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      // A name alone is resolved only from companies we have seen; guessing domains from names finds namesakes.
      const domain = input.domain ?? (input.company ? (await findCompanyByName(options.db(), input.company))?.domain : undefined);
      if (domain === undefined) return {};
      const snapshot = await options.snapshots(domain);
      const fields: ProviderFields = {
        domain: { value: domain, confidence: 1 },
        webmail: { value: isWebmailDomain(domain), confidence: 1 },
        disposable: { value: isDisposableDomain(domain), confidence: 1 },
      };
      if (!snapshot.reachable) return fields;
      const { organization, siteEmails } = snapshot;
      if (organization.name) fields.organization = { value: organization.name, confidence: OWN_SITE_CONFIDENCE };
      if (siteEmails.pattern) fields.pattern = { value: siteEmails.pattern.pattern, confidence: siteEmails.pattern.confidence };
      if (siteEmails.emails.length > 0) {
        fields.emails = { value: siteEmails.emails, confidence: Math.max(...siteEmails.emails.map((email) => email.confidence)) / 100 };
      }
      return fields;
    },
  };
}

/** Technologies fingerprinted on the company's home page and DNS, with our own first/last sightings. */
export function fingerprintTechnographicsProvider(options: FirstPartyOptions): EnrichmentProvider<IntelligenceProviderInput> {
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
      return technologies.length === 0 ? {} : { technographics: { value: technologies, confidence: Math.max(...technologies.map((item) => item.confidence)) } };
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
      return competitors.length === 0 ? {} : { competitors: { value: competitors, confidence: Math.max(...competitors.map((item) => item.similarity)) } };
    },
  };
}

/** Funding rounds from public filings, found by the legal name the company's own site states. */
export function publicFilingsFundingProvider(options: FirstPartyOptions & Required<Pick<FirstPartyOptions, "funding">>): EnrichmentProvider<IntelligenceProviderInput> {
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
