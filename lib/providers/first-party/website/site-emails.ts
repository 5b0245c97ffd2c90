import { getDomain } from "tldts";
import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import { emailType } from "@/lib/providers/first-party/email/classify-email";
import {
  emailFromPattern,
  inferEmailPattern,
  patternsForAddress,
  type EmailPatternSample,
} from "@/lib/providers/first-party/email/email-pattern";
import { departmentFromTitle, seniorityFromTitle } from "@/lib/providers/first-party/email/job-title";
import { emailVerification } from "@/lib/providers/first-party/email/verification";
import type { SiteCrawl } from "@/lib/providers/first-party/website/crawl-site";
import { extractEmails, type EmailEvidence } from "@/lib/providers/first-party/website/extract-emails";
import {
  extractOrganization,
  mergeOrganizations,
  type OrganizationFacts,
  type OrganizationPage,
} from "@/lib/providers/first-party/website/extract-organization";
import { extractPeople, mergePeople, type FoundPerson } from "@/lib/providers/first-party/website/extract-people";

/*
 * The email addresses a company's own site publishes, as domain-emails records: only addresses at the company's
 * registrable domain (subdomains included), each tied to the person it belongs to when the site names them. From the
 * personal addresses whose owners we know, the company's address format is inferred; people the site names without an
 * address then get the address that format gives them, with a confidence below any address we actually saw.
 */

export interface SiteEmails {
  /** The organization as the site's pages describe it, merged (see `mergeOrganizations`). */
  organization: OrganizationFacts;
  emails: EmailRecord[];
  pattern: { pattern: string; confidence: number } | null;
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
/** An address the site ties to a named person is more surely that person's, and in use. */
const NAMED_PERSON_BONUS = 5;
/** Each further page that shows the address, up to a few. */
const PER_EXTRA_PAGE = 1;
const MAX_EXTRA_PAGES_BONUS = 4;
const MAX_SEEN_CONFIDENCE = 99;
/** Addresses built from the pattern: only from a pattern at least this sure, and never as sure as a seen one. */
const MIN_PATTERN_CONFIDENCE = 0.5;
const DERIVED_SCALE = 75;
const MAX_DERIVED_CONFIDENCE = 70;

interface SeenAddress {
  address: string;
  evidence: EmailEvidence;
  sources: { uri: string; extractedOn: string }[];
}

export function collectSiteEmails(crawl: SiteCrawl, options: CollectSiteEmailsOptions): SiteEmails {
  const site = getDomain(crawl.domain) ?? crawl.domain;
  const seen = new Map<string, SeenAddress>();
  const foundPeople: FoundPerson[] = [];
  const organizationPages: OrganizationPage[] = [];
  const dayOf = new Map<string, string>();

  for (const page of crawl.pages) {
    const extractedOn = page.fetchedAt.slice(0, 10);
    dayOf.set(page.url, extractedOn);
    organizationPages.push({ kind: page.kind, facts: extractOrganization(page.html, page.url) });
    foundPeople.push(...extractPeople(page.html, page.url));
    for (const found of extractEmails(page.html, page.url)) {
      if (!isAtSite(found.address, site)) continue;
      const known = seen.get(found.address) ?? { address: found.address, evidence: found.evidence, sources: [] };
      if (EVIDENCE_CONFIDENCE[found.evidence] > EVIDENCE_CONFIDENCE[known.evidence]) known.evidence = found.evidence;
      if (!known.sources.some((source) => source.uri === page.url)) known.sources.push({ uri: page.url, extractedOn });
      seen.set(found.address, known);
    }
  }

  const people = mergePeople(foundPeople);
  const owners = new Map<string, FoundPerson>();
  for (const { address } of seen.values()) {
    if (emailType(address) !== "personal") continue;
    const owner = ownerOf(address, people);
    if (owner !== null) owners.set(address, owner);
  }
  const samples: EmailPatternSample[] = [...owners].map(([email, person]) => ({
    email,
    firstName: person.firstName,
    lastName: person.lastName,
  }));
  const inferred = inferEmailPattern(samples, site);

  const emails: EmailRecord[] = [...seen.values()].map((entry) => {
    const owner = owners.get(entry.address) ?? null;
    const extraPages = Math.min(MAX_EXTRA_PAGES_BONUS, (entry.sources.length - 1) * PER_EXTRA_PAGE);
    const confidence = EVIDENCE_CONFIDENCE[entry.evidence] + (owner === null ? 0 : NAMED_PERSON_BONUS) + extraPages;
    return record(entry.address, Math.min(MAX_SEEN_CONFIDENCE, confidence), owner, entry.sources, options);
  });

  if (inferred !== null && inferred.confidence >= MIN_PATTERN_CONFIDENCE) {
    const withAddress = new Set(owners.values());
    const confidence = Math.min(MAX_DERIVED_CONFIDENCE, Math.round(inferred.confidence * DERIVED_SCALE));
    for (const person of people) {
      if (withAddress.has(person)) continue;
      const address = emailFromPattern(inferred.pattern, person.firstName, person.lastName, site);
      if (address === null || seen.has(address) || emails.some((email) => email.value === address)) continue;
      const source = {
        uri: person.pageUrl,
        extractedOn: dayOf.get(person.pageUrl) ?? options.now.toISOString().slice(0, 10),
      };
      emails.push(record(address, confidence, person, [source], options));
    }
  }

  emails.sort((a, b) => b.confidence - a.confidence || a.value.localeCompare(b.value));
  return {
    organization: mergeOrganizations(organizationPages),
    emails,
    pattern: inferred === null ? null : { pattern: inferred.pattern, confidence: inferred.confidence },
    people,
  };
}

/** At the company's registrable domain or one of its subdomains (mail.acme.example), never another site. */
function isAtSite(address: string, site: string): boolean {
  const domain = address.slice(address.indexOf("@") + 1);
  return getDomain(domain) === site;
}

/** The person the site gives this address, else the one person whose name makes it under a known format. */
function ownerOf(address: string, people: readonly FoundPerson[]): FoundPerson | null {
  const stated = people.find((person) => person.email === address);
  if (stated !== undefined) return stated;
  const fitting = people.filter((person) => patternsForAddress(address, person.firstName, person.lastName).length > 0);
  return fitting.length === 1 ? fitting[0]! : null;
}

function record(
  address: string,
  confidence: number,
  person: FoundPerson | null,
  sources: EmailRecord["sources"],
  options: CollectSiteEmailsOptions,
): EmailRecord {
  const type = emailType(address);
  // A role mailbox's name often says its department (sales@, support@, press@).
  const roleWords = address.slice(0, address.indexOf("@")).replace(/[._-]+/g, " ");
  return {
    value: address,
    type,
    confidence,
    firstName: person?.firstName ?? null,
    lastName: person?.lastName ?? null,
    position: person?.jobTitle ?? null,
    seniority: seniorityFromTitle(person?.jobTitle),
    department:
      person !== null
        ? departmentFromTitle(person.jobTitle)
        : type === "generic"
          ? departmentFromTitle(roleWords)
          : null,
    linkedin: person?.linkedin ?? null,
    twitter: person?.twitter ?? null,
    phoneNumber: null,
    sources,
    verification: emailVerification({ address, domainHasMx: options.domainHasMx, now: options.now }),
  };
}
