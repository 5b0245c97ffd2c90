import type { EmailCandidate, PeopleEmailProviderInput, PersonEmailFinding } from "@/lib/providers/fields/people";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { findCompanyByName } from "./companies/company-store";
import type { CompanySnapshot } from "./company-snapshot";
import { emailFromPattern } from "./email/email-pattern";
import { departmentFromTitle, seniorityFromTitle } from "./email/job-title";
import { emailVerification } from "./email/verification";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";
import { isNamed, MIN_PATTERN_CONFIDENCE, namedPerson, ON_SITE_CONFIDENCE, siteOf } from "./person-lookup";

/** An address from the format is never as sure as a seen one: scaled from the format's confidence, capped. */
const NAMED_PATTERN_SCALE = 75;
/** …and less for a name the site does not list: we do not even know the person works there. */
const UNNAMED_PATTERN_SCALE = 60;
const MAX_PATTERN_CONFIDENCE = 70;

const dateOnly = (date: Date) => date.toISOString().slice(0, 10);

function hasMx(snapshot: CompanySnapshot): boolean | null {
  return snapshot.mailDns ? snapshot.mailDns.mx.length > 0 : null;
}

/**
 * A person's address at their company from its website: an address the site publishes for them first, then the
 * address the company's format gives their name (less sure, and less again when the site does not list them).
 */
export function websitePersonEmailProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleEmailProviderInput> {
  return {
    id: "website",
    operation: "people_email",
    supplies: [
      "email",
      "domain",
      "firstName",
      "lastName",
      "position",
      "seniority",
      "department",
      "pattern",
      "candidates",
    ],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      // A name alone is resolved only from companies we have seen; guessing domains from names finds namesakes.
      const domain =
        input.domain ?? (input.company ? (await findCompanyByName(options.db(), input.company))?.domain : undefined);
      if (domain === undefined) return {};
      const fields: ProviderFields = { domain: { value: domain, confidence: 1 } };
      const snapshot = await options.snapshots(domain);
      if (!snapshot.reachable) return fields;

      const site = siteOf(domain);
      const today = dateOnly(snapshot.collectedAt);
      const person = namedPerson(snapshot, input.firstName, input.lastName);
      const findings: PersonEmailFinding[] = snapshot.siteEmails.emails
        .filter(
          (record) =>
            record.type === "personal" &&
            record.firstName !== null &&
            record.lastName !== null &&
            isNamed({ firstName: record.firstName, lastName: record.lastName }, input.firstName, input.lastName),
        )
        .map((record) => ({
          email: record.value,
          confidence: record.confidence,
          // domain-emails records are addresses the site prints; guesses from the format are added below.
          reason: "found_on_site" as const,
          verification: record.verification,
          sources: record.sources,
        }));

      const pattern = snapshot.siteEmails.pattern;
      if (pattern !== null) fields.pattern = { value: pattern.pattern, confidence: pattern.confidence };
      if (pattern !== null && pattern.confidence >= MIN_PATTERN_CONFIDENCE) {
        const address = emailFromPattern(
          pattern.pattern,
          person?.firstName ?? input.firstName,
          person?.lastName ?? input.lastName,
          site,
        );
        if (address !== null && !findings.some((finding) => finding.email === address)) {
          const scale = person ? NAMED_PATTERN_SCALE : UNNAMED_PATTERN_SCALE;
          findings.push({
            email: address,
            confidence: Math.min(MAX_PATTERN_CONFIDENCE, Math.round(pattern.confidence * scale)),
            reason: "pattern",
            verification: emailVerification({ address, domainHasMx: hasMx(snapshot), now: snapshot.collectedAt }),
            sources: person ? [{ uri: person.pageUrl, extractedOn: today }] : [],
          });
        }
      }

      findings.sort((a, b) => b.confidence - a.confidence || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
      const best = findings[0];
      if (best) {
        fields.email = { value: best, confidence: best.confidence / 100 };
        const candidates: EmailCandidate[] = findings.map(({ email, confidence, reason }) => ({
          email,
          confidence,
          reason,
        }));
        fields.candidates = { value: candidates, confidence: best.confidence / 100 };
      }
      if (person) {
        fields.firstName = { value: person.firstName, confidence: ON_SITE_CONFIDENCE };
        fields.lastName = { value: person.lastName, confidence: ON_SITE_CONFIDENCE };
        if (person.jobTitle) {
          fields.position = { value: person.jobTitle, confidence: ON_SITE_CONFIDENCE };
          const seniority = seniorityFromTitle(person.jobTitle);
          const department = departmentFromTitle(person.jobTitle);
          if (seniority) fields.seniority = { value: seniority, confidence: ON_SITE_CONFIDENCE };
          if (department) fields.department = { value: department, confidence: ON_SITE_CONFIDENCE };
        }
      }
      return fields;
    },
  };
}
