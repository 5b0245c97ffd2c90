import { getDomain } from "tldts";
import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import { inferEmailPattern, type EmailPatternSample } from "@/lib/providers/first-party/email/email-pattern";
import { departmentFromTitle, seniorityFromTitle } from "@/lib/providers/first-party/email/job-title";
import { emailVerification } from "@/lib/providers/first-party/email/verification";
import { addressContexts } from "@/lib/providers/first-party/website/address-context";
import {
  type AddressOwner,
  type NamedCandidate,
  type OwnerEvidence,
  ownerOf,
} from "@/lib/providers/first-party/website/address-owners";
import type { SiteCrawl } from "@/lib/providers/first-party/website/crawl-site";
import { extractEmails, type EmailEvidence } from "@/lib/providers/first-party/website/extract-emails";
import {
  extractOrganization,
  mergeOrganizations,
  type OrganizationFacts,
  type OrganizationPage,
} from "@/lib/providers/first-party/website/extract-organization";
import {
  extractPeople,
  mergePeople,
  personKey,
  type FoundPerson,
} from "@/lib/providers/first-party/website/extract-people";

/*
 * The email addresses a company's own site publishes, as domain-emails records: only addresses at the company's
 * registrable domain (subdomains included) that its pages print, link or disguise — never one we built. Each is typed
 * on evidence and tied to the person printed beside it or named for it (address-owners.ts); from the personal
 * addresses whose owners' names they spell, the company's address format is inferred. People's addresses built from
 * that format are for people/email (people-email.ts), which says they are guesses.
 */

export interface SiteEmails {
  /** The organization as the site's pages describe it, merged (see `mergeOrganizations`). */
  organization: OrganizationFacts;
  emails: EmailRecord[];
  pattern: { pattern: string; confidence: number } | null;
  /** Everyone the site names: team cards, JSON-LD, and the people printed beside its addresses. */
  people: FoundPerson[];
}

export interface CollectSiteEmailsOptions {
  /** Whether the domain has mail exchangers, when the caller looked; an address at a domain without any is invalid. */
  domainHasMx: boolean | null;
  now: Date;
}

/** Confidence (0–100) of an address seen on the site, by how it was published. */
const EVIDENCE_CONFIDENCE: Record<EmailEvidence, number> = {
  mailto: 90,
  "json-ld": 90,
  text: 85,
  cfemail: 80,
  obfuscated: 75,
};
/** An address whose owner the site shows is more surely in use; more so when the local part spells their name. */
const OWNER_BONUS: Record<OwnerEvidence, number> = {
  "name-beside": 5,
  "name-on-site": 3,
  "role-holder": 0,
  none: 0,
};
/** Each further page that shows the address, up to a few. */
const PER_EXTRA_PAGE = 1;
const MAX_EXTRA_PAGES_BONUS = 4;
const MAX_SEEN_CONFIDENCE = 99;

interface SeenAddress {
  address: string;
  evidence: EmailEvidence;
  sources: { uri: string; extractedOn: string }[];
  /** People printed beside it, with the page. */
  beside: (NamedCandidate & { pageUrl: string })[];
  /** For each place it is printed, the heading above it that names no person. */
  headings: (string | null)[];
}

export function collectSiteEmails(crawl: SiteCrawl, options: CollectSiteEmailsOptions): SiteEmails {
  const site = getDomain(crawl.domain) ?? crawl.domain;
  const seen = new Map<string, SeenAddress>();
  const foundPeople: FoundPerson[] = [];
  const organizationPages: OrganizationPage[] = [];

  for (const page of crawl.pages) {
    const extractedOn = page.fetchedAt.slice(0, 10);
    organizationPages.push({ kind: page.kind, facts: extractOrganization(page.html, page.url) });
    foundPeople.push(...extractPeople(page.html, page.url));
    const found = extractEmails(page.html, page.url).filter((email) => isAtSite(email.address, site));
    for (const { address, evidence } of found) {
      const known = seen.get(address) ?? { address, evidence, sources: [], beside: [], headings: [] };
      if (EVIDENCE_CONFIDENCE[evidence] > EVIDENCE_CONFIDENCE[known.evidence]) known.evidence = evidence;
      if (!known.sources.some((source) => source.uri === page.url)) known.sources.push({ uri: page.url, extractedOn });
      seen.set(address, known);
    }
    const contexts = addressContexts(
      page.html,
      found.map((email) => email.address),
      page.url,
    );
    for (const [address, list] of contexts) {
      const known = seen.get(address)!;
      for (const { name, position, heading } of list) {
        if (name !== null) known.beside.push({ name, position, pageUrl: page.url });
        known.headings.push(heading);
      }
    }
  }

  const people = mergePeople(foundPeople);
  const byKey = new Map(people.map((person) => [personKey(person.fullName), person]));
  const onSite: NamedCandidate[] = [
    ...people.map((person) => ({ name: person, position: person.jobTitle })),
    ...[...seen.values()].flatMap((entry) => entry.beside),
  ];
  const owners = new Map<string, AddressOwner>();
  for (const entry of seen.values()) {
    const stated = people
      .filter((person) => person.email === entry.address)
      .map((person) => ({ name: person, position: person.jobTitle }));
    owners.set(entry.address, ownerOf(entry.address, [...stated, ...entry.beside], onSite));
  }

  const samples: EmailPatternSample[] = [...owners].flatMap(([email, owner]) =>
    owner.type === "personal" && owner.showsPattern && owner.holder !== null
      ? [{ email, firstName: owner.holder.name.firstName, lastName: owner.holder.name.lastName }]
      : [],
  );
  const inferred = inferEmailPattern(samples, site);

  const emails: EmailRecord[] = [...seen.values()].map((entry) => {
    const owner = owners.get(entry.address)!;
    const extraPages = Math.min(MAX_EXTRA_PAGES_BONUS, (entry.sources.length - 1) * PER_EXTRA_PAGE);
    const confidence = EVIDENCE_CONFIDENCE[entry.evidence] + OWNER_BONUS[owner.evidence] + extraPages;
    const person = owner.holder === null ? null : (byKey.get(personKey(owner.holder.name.fullName)) ?? null);
    return record(entry, Math.min(MAX_SEEN_CONFIDENCE, confidence), owner, person, options);
  });
  emails.sort((a, b) => b.confidence - a.confidence || a.value.localeCompare(b.value));

  return {
    organization: mergeOrganizations(organizationPages),
    emails,
    pattern: inferred === null ? null : { pattern: inferred.pattern, confidence: inferred.confidence },
    people: mergePeople([...foundPeople, ...peopleBesideAddresses(seen, owners)]),
  };
}

/** The people printed beside the site's addresses, each with the address that is theirs (a role mailbox is not). */
function peopleBesideAddresses(seen: Map<string, SeenAddress>, owners: Map<string, AddressOwner>): FoundPerson[] {
  return [...seen.values()].flatMap((entry) => {
    const owner = owners.get(entry.address)!;
    const printed = entry.beside.find(
      (candidate) =>
        owner.holder !== null && personKey(candidate.name.fullName) === personKey(owner.holder.name.fullName),
    );
    if (owner.holder === null || printed === undefined) return [];
    return [
      {
        ...owner.holder.name,
        jobTitle: owner.holder.position ?? printed.position,
        email: owner.type === "personal" ? entry.address : null,
        linkedin: null,
        twitter: null,
        phone: null,
        // Printed with their details on a page, as a team card prints them.
        evidence: "team-card" as const,
        pageUrl: printed.pageUrl,
      },
    ];
  });
}

/** At the company's registrable domain or one of its subdomains (mail.acme.example), never another site. */
function isAtSite(address: string, site: string): boolean {
  const domain = address.slice(address.indexOf("@") + 1);
  return getDomain(domain) === site;
}

function record(
  entry: SeenAddress,
  confidence: number,
  owner: AddressOwner,
  person: FoundPerson | null,
  options: CollectSiteEmailsOptions,
): EmailRecord {
  const { address, sources } = entry;
  const position = owner.holder?.position ?? person?.jobTitle ?? null;
  // A role mailbox's name often says its department (sales@, support@, press@), or the heading it is printed under.
  const roleWords = address.slice(0, address.indexOf("@")).replace(/[._-]+/g, " ");
  const department =
    departmentFromTitle(position) ??
    (owner.type === "generic" ? (departmentFromTitle(roleWords) ?? departmentOfHeadings(entry.headings)) : null);
  return {
    value: address,
    type: owner.type,
    confidence,
    firstName: owner.holder?.name.firstName ?? null,
    lastName: owner.holder?.name.lastName ?? null,
    position,
    seniority: seniorityFromTitle(position),
    department,
    linkedin: person?.linkedin ?? null,
    twitter: person?.twitter ?? null,
    phoneNumber: null,
    sources,
    verification: emailVerification({ address, domainHasMx: options.domainHasMx, now: options.now }),
  };
}

/** The department every place the address is printed is headed by ("Accounts Payable" → finance), else null. */
function departmentOfHeadings(headings: readonly (string | null)[]): string | null {
  const departments = new Set(headings.map(departmentFromTitle));
  return departments.size === 1 ? [...departments][0]! : null;
}
