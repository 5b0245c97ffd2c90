import {
  PEOPLE_EMAIL_FIELDS,
  PEOPLE_ENRICH_FIELDS,
  PEOPLE_MOBILE_FIELDS,
  PEOPLE_SEARCH_FIELDS,
  type EmailCandidate,
  type PeopleEmailProviderInput,
  type PeopleEnrichProviderInput,
  type PeopleMobileProviderInput,
  type PeopleSearchProviderInput,
  type PersonEmailFinding,
  type PersonSearchRecord,
  type PhoneNumberRecord,
} from "@/lib/providers/fields/people";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { emailFromPattern } from "@/lib/providers/first-party/email/email-pattern";
import {
  certain,
  generator,
  type Generator,
  SANDBOX_DATE,
  sandboxDomainFor,
  slug,
  SANDBOX_FIRST_NAMES,
  SANDBOX_LAST_NAMES,
} from "./kit";

/*
 * What test keys get from the people operations, in the style of every sandbox (kit.ts): every answer is a pure
 * function of the normalized input (seeded by a hash of it: no Math.random, no clock, no network), and plainly
 * synthetic. Addresses and links are under RFC 2606's `.example`, phone numbers are NANP 555-01xx numbers reserved for
 * fiction, so nothing here can reach a real person. A person asked about is always "found", so a test key exercises the
 * whole answer.
 */

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

const ROLES = [
  { position: "Chief Executive Officer", seniority: "executive", department: "executive" },
  { position: "Chief Technology Officer", seniority: "executive", department: "it" },
  { position: "VP of Sales", seniority: "executive", department: "sales" },
  { position: "Head of Marketing", seniority: "senior", department: "marketing" },
  { position: "Senior Software Engineer", seniority: "senior", department: "it" },
  { position: "Account Executive", seniority: "senior", department: "sales" },
  { position: "Financial Controller", seniority: "senior", department: "finance" },
  { position: "Software Engineer", seniority: "junior", department: "it" },
  { position: "Sales Development Representative", seniority: "junior", department: "sales" },
  { position: "Marketing Coordinator", seniority: "junior", department: "marketing" },
  { position: "Customer Support Specialist", seniority: "junior", department: "support" },
] as const;
const LOCATIONS = [
  { locality: "Springfield", region: "IL", country: "US" },
  { locality: "Riverton", region: "WY", country: "US" },
  { locality: "Portland", region: "OR", country: "US" },
  { locality: "Berlin", region: "Berlin", country: "DE" },
  { locality: "Manchester", region: "England", country: "GB" },
] as const;
/** Area codes of real US regions; with 555-01xx the numbers are still fictional. */
const AREA_CODES = ["202", "212", "217", "303", "312", "415", "617", "702"] as const;
const PATTERNS = ["{first}.{last}", "{f}{last}", "{first}", "{first}{l}", "{last}.{first}"] as const;

function sandboxPhone(random: Generator): string {
  return `+1${random.pick(AREA_CODES)}55501${String(random.int(0, 99)).padStart(2, "0")}`;
}

// ─── people_email ────────────────────────────────────────────────────────────────────────────────────────────────

/** Test-key answers for people/email: an address from one of the company's (synthetic) formats, with alternatives. */
export const sandboxPersonEmailProvider: EnrichmentProvider<PeopleEmailProviderInput> = {
  id: "sandbox",
  operation: "people_email",
  supplies: PEOPLE_EMAIL_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    const domain = input.domain ?? `${slug(input.company ?? "company")}.example`;
    const mailDomain = sandboxDomainFor(domain);
    // The company's format depends on the company alone, so every person there gets the same one.
    const pattern = generator("people-email:pattern", mailDomain).pick(PATTERNS);
    const random = generator(
      "people-email",
      `${input.firstName.toLowerCase()}|${input.lastName.toLowerCase()}|${mailDomain}`,
    );
    const role = random.pick(ROLES);
    const addresses = [pattern, ...PATTERNS.filter((other) => other !== pattern).slice(0, random.int(1, 2))]
      .map((item) => emailFromPattern(item, input.firstName, input.lastName, mailDomain))
      .filter((address): address is string => address !== null);
    const first = addresses[0] ?? `${slug(input.firstName)}@${mailDomain}`;
    const confidence = random.int(70, 99);
    const candidates: EmailCandidate[] = [
      { email: first, confidence, reason: confidence >= 90 ? "found_on_site" : "pattern" },
      ...addresses.slice(1).map((email, index) => ({ email, confidence: 40 - index * 10, reason: "pattern" as const })),
    ];
    const finding: PersonEmailFinding = {
      ...candidates[0]!,
      verification: { date: SANDBOX_DATE, status: random.pick(["valid", "valid", "unknown"] as const) },
      sources: [{ uri: `https://${mailDomain}/team`, extractedOn: SANDBOX_DATE }],
    };
    return {
      email: certain(finding),
      domain: certain(domain),
      firstName: certain(input.firstName),
      lastName: certain(input.lastName),
      position: certain(role.position),
      seniority: certain(role.seniority),
      department: certain(role.department),
      pattern: certain(pattern),
      candidates: certain(candidates),
    };
  },
};

// ─── people_enrich ───────────────────────────────────────────────────────────────────────────────────────────────

/** First and last name from "first.last" (or "first-last-123"), when the text reads so; else synthetic ones. */
function namesFrom(text: string, random: Generator): { firstName: string; lastName: string } {
  const words = text
    .toLowerCase()
    .split(/[._-]+/)
    .filter((word) => /^[a-z]{2,}$/.test(word));
  if (words.length >= 2) return { firstName: capitalized(words[0]!), lastName: capitalized(words[words.length - 1]!) };
  return { firstName: random.pick(SANDBOX_FIRST_NAMES), lastName: random.pick(SANDBOX_LAST_NAMES) };
}

function sandboxProfile(input: PeopleEnrichProviderInput) {
  const key = input.email ?? input.linkedinUrl ?? "";
  const random = generator("people-enrich", key);
  const local = input.email
    ? input.email.slice(0, input.email.indexOf("@"))
    : (input.linkedinUrl ?? "").replace(/^.*\/in\//, "");
  const { firstName, lastName } = namesFrom(local, random);
  const domain = input.email
    ? sandboxDomainFor(input.email.slice(input.email.lastIndexOf("@") + 1))
    : `sandbox-company-${random.int(1, 40)}.example`;
  const handle = `${slug(firstName)}-${slug(lastName)}`;
  return { random, firstName, lastName, domain, handle };
}

/** Test-key answers for people/enrich: a full synthetic profile at the address's company. */
export const sandboxPersonProfileProvider: EnrichmentProvider<PeopleEnrichProviderInput> = {
  id: "sandbox",
  operation: "people_enrich",
  supplies: PEOPLE_ENRICH_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    const { random, firstName, lastName, domain, handle } = sandboxProfile(input);
    const role = random.pick(ROLES);
    return {
      fullName: certain(`${firstName} ${lastName}`),
      firstName: certain(firstName),
      lastName: certain(lastName),
      position: certain(role.position),
      seniority: certain(role.seniority),
      department: certain(role.department),
      email: certain(input.email ?? `${slug(firstName)}.${slug(lastName)}@${domain}`),
      company: certain({ name: `Sandbox Co (${domain})`, domain }),
      location: certain({ ...random.pick(LOCATIONS) }),
      socialProfiles: certain([
        { network: "linkedin", url: input.linkedinUrl ?? `https://linkedin.example/in/${handle}` },
        { network: "twitter", url: `https://twitter.example/${handle.replace("-", "_")}` },
      ]),
    };
  },
};

// ─── people_mobile ───────────────────────────────────────────────────────────────────────────────────────────────

/** Test-key answers for people/mobile: a mobile number, sometimes a work number too, all 555-01xx. */
export const sandboxPersonPhoneProvider: EnrichmentProvider<PeopleMobileProviderInput> = {
  id: "sandbox",
  operation: "people_mobile",
  supplies: PEOPLE_MOBILE_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    const random = generator("people-mobile", input.email ?? input.linkedinUrl ?? "");
    const source = `https://${input.email ? sandboxDomainFor(input.email.slice(input.email.lastIndexOf("@") + 1)) : "directory.example"}/team`;
    const numbers: PhoneNumberRecord[] = [
      { number: sandboxPhone(random), type: "mobile", confidence: random.int(70, 95) / 100, source },
    ];
    if (random.int(0, 1) === 1) {
      const work = sandboxPhone(random);
      if (work !== numbers[0]!.number)
        numbers.push({ number: work, type: "work", confidence: random.int(50, 69) / 100, source });
    }
    return { phoneNumbers: certain(numbers) };
  },
};

// ─── people_search ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Everyone at a synthetic company, seeded by its mail domain alone (never by filters), so filtered and paged calls are
 * consistent views of one data set: 5–25 people, each name used once.
 */
function sandboxPeople(mailDomain: string): PersonSearchRecord[] {
  const random = generator("people-search", mailDomain);
  const total = random.int(5, 25);
  const firstNames = random.shuffle(SANDBOX_FIRST_NAMES);
  const lastNames = random.shuffle(SANDBOX_LAST_NAMES);
  const roles = random.shuffle(ROLES);
  return Array.from({ length: total }, (_, index): PersonSearchRecord => {
    const firstName = firstNames[index] as string;
    const lastName = lastNames[index] as string;
    const role = roles[index] ?? random.pick(ROLES.filter((item) => item.seniority !== "executive"));
    const handle = `${firstName}-${lastName}`.toLowerCase();
    return {
      fullName: `${firstName} ${lastName}`,
      firstName,
      lastName,
      position: role.position,
      seniority: role.seniority,
      department: role.department,
      email: random.int(0, 3) === 0 ? null : `${firstName}.${lastName}@${mailDomain}`.toLowerCase(),
      linkedin: random.int(0, 1) === 1 ? `https://linkedin.example/in/${handle}` : null,
      twitter: null,
      confidence: random.int(60, 99),
    };
  });
}

/** Test-key answers for people/search: the synthetic company's people (the service filters and pages them). */
export const sandboxPeopleSearchProvider: EnrichmentProvider<PeopleSearchProviderInput> = {
  id: "sandbox",
  operation: "people_search",
  supplies: PEOPLE_SEARCH_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return { domain: certain(input.domain), people: certain(sandboxPeople(sandboxDomainFor(input.domain))) };
  },
};
