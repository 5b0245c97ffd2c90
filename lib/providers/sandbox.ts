import { DOMAIN_EMAIL_FIELDS, type DomainEmailsProviderInput, type EmailRecord } from "@/lib/enrichment/domain-emails-fields";
import {
  INTELLIGENCE_FIELDS,
  type Competitor,
  type Funding,
  type FundingRound,
  type IntelligenceProviderInput,
  type IntelligenceSignal,
  type Technology,
} from "@/lib/enrichment/intelligence-fields";
import type { EnrichmentProvider } from "@/lib/enrichment/types";
import { certain, generator, SANDBOX_DATE, sandboxDomainFor, slug, SANDBOX_FIRST_NAMES, SANDBOX_LAST_NAMES } from "./sandbox-kit";

/*
 * What test keys (`sbx_test_…`) get instead of real enrichment (DESIGN §2), like Stripe's test mode. Every answer is
 * a pure function of the normalized input: the seed is a hash of it, so there is no Math.random, no clock and no
 * network, and the same request always answers byte for byte the same. The data is plainly synthetic: every address
 * and link is under RFC 2606's reserved `.example` TLD and phone numbers are in the 555-0100..0199 range reserved for
 * fiction, so nothing generated here can ever reach a real person.
 */

function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.+$/, "");
}

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
  const generic = random.shuffle(GENERIC_MAILBOXES)
    .slice(0, genericCount)
    .map(
      (mailbox): EmailRecord => ({
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
      }),
    );
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

const ROUND_TYPES = [
  // Amounts in units of 100,000 USD, so every figure is a round number.
  { type: "seed", min: 5, max: 30 },
  { type: "series_a", min: 50, max: 150 },
  { type: "series_b", min: 150, max: 400 },
  { type: "series_c", min: 400, max: 1000 },
] as const;
const INVESTORS = ["Sandbox Ventures", "Example Capital", "Placeholder Partners", "Testbed Fund", "Fixture Growth", "Mock Angels"] as const;
const TECHNOLOGIES = [
  { name: "React", category: "javascript_framework" },
  { name: "Next.js", category: "javascript_framework" },
  { name: "Vue.js", category: "javascript_framework" },
  { name: "Cloudflare", category: "cdn" },
  { name: "Fastly", category: "cdn" },
  { name: "Amazon Web Services", category: "hosting" },
  { name: "Vercel", category: "hosting" },
  { name: "Stripe", category: "payments" },
  { name: "Google Analytics", category: "analytics" },
  { name: "Segment", category: "analytics" },
  { name: "HubSpot", category: "marketing_automation" },
  { name: "Salesforce", category: "crm" },
  { name: "Intercom", category: "customer_support" },
  { name: "Zendesk", category: "customer_support" },
  { name: "Google Workspace", category: "email" },
  { name: "Sentry", category: "monitoring" },
  { name: "WordPress", category: "cms" },
  { name: "Shopify", category: "ecommerce" },
] as const;

function isoDate(year: number, monthIndex: number, day: number): string {
  const y = year + Math.floor(monthIndex / 12);
  const m = (monthIndex % 12) + 1;
  return `${y}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function sandboxFunding(domain: string): Funding {
  const random = generator("intelligence:funding", domain);
  const startYear = random.int(2014, 2019);
  let monthIndex = random.int(0, 11);
  const rounds = ROUND_TYPES.slice(0, random.int(1, ROUND_TYPES.length)).map((round, index): FundingRound => {
    if (index > 0) monthIndex += random.int(9, 20);
    return {
      type: round.type,
      amountUsd: random.int(round.min, round.max) * 100_000,
      date: isoDate(startYear, monthIndex, random.int(1, 28)),
      investors: random.shuffle(INVESTORS).slice(0, random.int(1, 3)),
    };
  });
  return {
    totalRaisedUsd: rounds.reduce((sum, round) => sum + (round.amountUsd ?? 0), 0),
    lastRound: rounds.at(-1) ?? null,
    rounds,
  };
}

function sandboxCompetitors(domain: string): Competitor[] {
  const random = generator("intelligence:competitors", domain);
  const numbers = random.shuffle(Array.from({ length: 40 }, (_, index) => index + 1)).slice(0, random.int(3, 6));
  return numbers
    .map((n) => ({ name: `Sandbox Rival ${n}`, domain: `rival-${n}.example`, similarity: random.int(40, 95) / 100 }))
    .sort((a, b) => b.similarity - a.similarity || a.domain.localeCompare(b.domain));
}

function sandboxTechnographics(domain: string): Technology[] {
  const random = generator("intelligence:technographics", domain);
  return random
    .shuffle(TECHNOLOGIES)
    .slice(0, random.int(4, 10))
    .map((technology) => ({
      name: technology.name,
      category: technology.category,
      confidence: random.int(60, 100) / 100,
      firstDetected: isoDate(random.int(2019, 2024), random.int(0, 11), random.int(1, 28)),
      lastDetected: SANDBOX_DATE,
      evidence: ["sandbox"],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const SIGNALS: Record<IntelligenceSignal, (domain: string) => unknown> = {
  funding: sandboxFunding,
  competitors: sandboxCompetitors,
  technographics: sandboxTechnographics,
};

/** Test-key answers for intelligence: only the field of the requested signal. */
export const sandboxIntelligenceProvider: EnrichmentProvider<IntelligenceProviderInput> = {
  id: "sandbox",
  operation: "companies_intelligence",
  supplies: INTELLIGENCE_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return { [input.signal]: certain(SIGNALS[input.signal](normalizeDomain(input.domain))) };
  },
};
