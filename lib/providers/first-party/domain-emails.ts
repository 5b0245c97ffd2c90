import type { DomainEmailsProviderInput } from "@/lib/providers/fields/domain-emails";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { findCompanyByName } from "./companies/company-store";
import { isDisposableDomain, isWebmailDomain } from "./email/verification";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";

/** Facts a company states about itself on its own site. */
const OWN_SITE_CONFIDENCE = 0.8;

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
      const domain =
        input.domain ?? (input.company ? (await findCompanyByName(options.db(), input.company))?.domain : undefined);
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
      if (siteEmails.pattern)
        fields.pattern = { value: siteEmails.pattern.pattern, confidence: siteEmails.pattern.confidence };
      if (siteEmails.emails.length > 0) {
        fields.emails = {
          value: siteEmails.emails,
          confidence: Math.max(...siteEmails.emails.map((email) => email.confidence)) / 100,
        };
      }
      return fields;
    },
  };
}
