import {
  DOMAIN_EMAIL_FIELDS,
  type DomainEmailsProviderInput,
  type EmailRecord,
} from "@/lib/providers/fields/domain-emails";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import {
  certain,
  generator,
  normalizeDomain,
  SANDBOX_DATE,
  sandboxDomainFor,
  slug,
  SANDBOX_FIRST_NAMES,
  SANDBOX_LAST_NAMES,
} from "./kit";

/* What test keys get from domain-emails: a company's synthetic mailboxes (kit.ts says what every sandbox promises). */

// Seniority and department values use the vocabulary of common email-finder APIs (the live adapters pass the caller's
// filter through unchanged), so a filter that works with a test key means the same with a live key.
const ROLES = [
  { position: "Chief Executive Officer", seniority: "executive", department: "executive" },
  { position: "Chief Technology Officer", seniority: "executive", department: "it" },
  { position: "Chief Financial Officer", seniority: "executive", department: "finance" },
  { position: "VP of Sales", seniority: "executive", department: "sales" },
  { position: "Head of Marketing", seniority: "senior", department: "marketing" },
  { position: "Senior Software Engineer", seniority: "senior", department: "it" },
  { position: "Account Executive", seniority: "senior", department: "sales" },
  { position: "Financial Controller", seniority: "senior", department: "finance" },
  { position: "Support Team Lead", seniority: "senior", department: "support" },
  { position: "Content Marketing Manager", seniority: "senior", department: "marketing" },
  { position: "Software Engineer", seniority: "junior", department: "it" },
  { position: "Sales Development Representative", seniority: "junior", department: "sales" },
  { position: "Financial Analyst", seniority: "junior", department: "finance" },
  { position: "Marketing Coordinator", seniority: "junior", department: "marketing" },
  { position: "Customer Support Specialist", seniority: "junior", department: "support" },
] as const;
const NON_EXECUTIVE_ROLES = ROLES.filter((role) => role.seniority !== "executive");

const GENERIC_MAILBOXES = ["info", "support", "sales", "hello", "press", "careers"] as const;
const VERIFICATION_STATUSES = ["valid", "valid", "valid", "unknown"] as const;
const SOURCE_PAGES = ["about", "team", "contact"] as const;

/** True when `value` is one of the comma-separated `filter` values (case-insensitive), as email-finder APIs read them. */
function matchesFilter(value: string | null, filter: string | undefined): boolean {
  if (filter === undefined) return true;
  if (value === null) return false;
  return filter
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .includes(value.toLowerCase());
}

/**
 * Every synthetic mailbox of a company, seeded by its mail domain alone (never by filters or `wanted`), so filtered and
 * paged calls are consistent views of one data set. 5–25 addresses, highest confidence first.
 */
function sandboxEmails(mailDomain: string): EmailRecord[] {
  const random = generator("domain-emails", mailDomain);
  const total = random.int(5, 25);
  const genericCount = random.int(2, 4);
  const firstNames = random.shuffle(SANDBOX_FIRST_NAMES);
  const lastNames = random.shuffle(SANDBOX_LAST_NAMES);
  const roles = random.shuffle(ROLES);
  const sources = (page: string) => [{ uri: `https://${mailDomain}/${page}`, extractedOn: SANDBOX_DATE }];
  const verification = () => ({ date: SANDBOX_DATE, status: random.pick(VERIFICATION_STATUSES) });

  const personal = Array.from({ length: total - genericCount }, (_, index): EmailRecord => {
    const firstName = firstNames[index] as string;
    const lastName = lastNames[index] as string;
    // Each role once while they last (one CEO per company); later people get non-executive roles.
    const role = roles[index] ?? random.pick(NON_EXECUTIVE_ROLES);
    const local = `${firstName}.${lastName}`.toLowerCase();
    return {
      value: `${local}@${mailDomain}`,
      type: "personal",
      confidence: random.int(60, 99),
      firstName,
      lastName,
      position: role.position,
      seniority: role.seniority,
      department: role.department,
      linkedin: random.int(0, 1) === 1 ? `https://linkedin.example/in/${local.replace(".", "-")}` : null,
      twitter: null,
      phoneNumber: role.seniority === "executive" ? `+1-202-555-01${String(random.int(0, 99)).padStart(2, "0")}` : null,
      sources: sources(random.pick(SOURCE_PAGES)),
      verification: verification(),
    };
  });
  const generic = random
    .shuffle(GENERIC_MAILBOXES)
    .slice(0, genericCount)
    .map((mailbox): EmailRecord => ({
      value: `${mailbox}@${mailDomain}`,
      type: "generic",
      confidence: random.int(50, 85),
      firstName: null,
      lastName: null,
      position: null,
      seniority: null,
      department: null,
      linkedin: null,
      twitter: null,
      phoneNumber: null,
      sources: sources("contact"),
      verification: verification(),
    }));
  return [...personal, ...generic].sort((a, b) => b.confidence - a.confidence || (a.value < b.value ? -1 : 1));
}

/** Test-key answers for domain-emails. Returns every matching address (≤ 25), so `wanted` is met whenever it can be. */
export const sandboxDomainEmailsProvider: EnrichmentProvider<DomainEmailsProviderInput> = {
  id: "sandbox",
  operation: "companies_domain_emails",
  supplies: DOMAIN_EMAIL_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    let domain: string;
    if (input.domain !== undefined) domain = normalizeDomain(input.domain);
    else if (input.company !== undefined) domain = `${slug(input.company)}.example`;
    else throw new Error("A domain or a company is required.");

    const mailDomain = sandboxDomainFor(domain);
    const emails = sandboxEmails(mailDomain).filter(
      (email) =>
        (input.type === undefined || email.type === input.type) &&
        matchesFilter(email.seniority, input.seniority) &&
        matchesFilter(email.department, input.department),
    );
    return {
      domain: certain(domain),
      organization: certain(`Sandbox Co (${domain})`),
      pattern: certain("{first}.{last}"),
      acceptAll: certain(false),
      webmail: certain(false),
      disposable: certain(false),
      emails: certain(emails),
    };
  },
};
