import { getDomain } from "tldts";
import type { DbClient } from "@/lib/db/client";
import {
  type EmailCandidate,
  type PeopleEmailProviderInput,
  type PeopleEnrichProviderInput,
  type PeopleMobileProviderInput,
  type PeopleSearchProviderInput,
  type PersonEmailFinding,
  type PersonLookupInput,
  type PersonSearchRecord,
  type PersonSocialProfile,
  type PhoneNumberRecord,
} from "@/lib/enrichment/people-fields";
import { phoneCountry, toE164 } from "@/lib/enrichment/people-phone";
import type { EnrichmentProvider, ProviderFields } from "@/lib/enrichment/types";
import { findCompany, findCompanyByName } from "./companies/company-store";
import type { CompanySnapshot, CompanySnapshots } from "./company-snapshot";
import { emailFromPattern, nameSpellings } from "./email/email-pattern";
import { departmentFromTitle, seniorityFromTitle } from "./email/job-title";
import { emailVerification, isDisposableDomain, isWebmailDomain } from "./email/verification";
import { findPersonByEmail, findPersonByLinkedin, listPeopleAt, type StoredPerson } from "./people/people-store";
import type { OrganizationAddress } from "./website/extract-organization";
import type { FoundPerson } from "./website/extract-people";

/*
 * The people operations answered without a vendor account: from the company's own website (the shared company
 * snapshot: the people its team pages name, the addresses it publishes and the address format they follow) and from
 * our store of people seen on earlier visits. Nothing here guesses beyond what a site states: an address built from the
 * company's format says so (`reason: "pattern"`, a lower confidence), a phone number is only one printed for that very
 * person, and never a mobile.
 */

/** Collecting a site takes several page fetches; later callers reuse the finished snapshot. */
const SNAPSHOT_TIMEOUT_MS = 25_000;
/** Facts the company states about its own people, on its own site now. */
const ON_SITE_CONFIDENCE = 0.9;
/** A person identified only because their name makes the address under the company's format. */
const BY_PATTERN_CONFIDENCE = 0.7;
/** What an earlier visit saw: the person may have moved on since. */
const STORED_CONFIDENCE = 0.7;
/** Addresses from the company's format: only from a format at least this sure (as for domain emails). */
const MIN_PATTERN_CONFIDENCE = 0.5;
/** An address from the format is never as sure as a seen one: scaled from the format's confidence, capped. */
const NAMED_PATTERN_SCALE = 75;
/** …and less for a name the site does not list: we do not even know the person works there. */
const UNNAMED_PATTERN_SCALE = 60;
const MAX_PATTERN_CONFIDENCE = 70;
/** people/search confidence (0–100) by where we saw the person. */
const SEARCH_CONFIDENCE = { "json-ld": 95, "team-card": 90, stored: 60 } as const;

export interface FirstPartyPeopleOptions {
  snapshots: CompanySnapshots;
  db: () => DbClient;
}

const dateOnly = (date: Date) => date.toISOString().slice(0, 10);
const siteOf = (domain: string) => getDomain(domain) ?? domain;
const spelling = (name: string) => nameSpellings(name)[0] ?? "";
const domainOfEmail = (email: string) => email.slice(email.lastIndexOf("@") + 1);

/** The site names this person: same first name, and the same last name (or the last word of the full name). */
function isNamed(person: { firstName: string; lastName: string; fullName?: string }, firstName: string, lastName: string): boolean {
  if (spelling(person.firstName) !== spelling(firstName) || spelling(lastName) === "") return false;
  const lastWord = person.fullName?.trim().split(/\s+/).at(-1) ?? person.lastName;
  return spelling(person.lastName) === spelling(lastName) || spelling(lastWord) === spelling(lastName);
}

/** The one person of the site with this name; none when nobody or several (namesakes) match. */
function namedPerson(snapshot: CompanySnapshot, firstName: string, lastName: string): FoundPerson | null {
  const matches = snapshot.siteEmails.people.filter((person) => isNamed(person, firstName, lastName));
  return matches.length === 1 ? matches[0]! : null;
}

/** Whether the address is printed on a page of the site (addresses built from the format never are). */
function seenOnSite(snapshot: CompanySnapshot, address: string): boolean {
  return snapshot.crawl.pages.some((page) => page.html.toLowerCase().includes(address));
}

function hasMx(snapshot: CompanySnapshot): boolean | null {
  return snapshot.mailDns ? snapshot.mailDns.mx.length > 0 : null;
}

interface IdentifiedPerson {
  person: FoundPerson;
  /** How sure we are this is the person asked about. */
  confidence: number;
}

/**
 * The site's person with this address: the one the site states it for, the owner site-emails tied it to, or the
 * one person whose name makes it under the site's address format.
 */
function personWithEmail(snapshot: CompanySnapshot, email: string): IdentifiedPerson | null {
  const { people, emails, pattern } = snapshot.siteEmails;
  const stated = people.find((person) => person.email === email);
  if (stated) return { person: stated, confidence: ON_SITE_CONFIDENCE };
  const record = emails.find((item) => item.value === email && item.firstName !== null && item.lastName !== null);
  const owner = record ? namedPerson(snapshot, record.firstName!, record.lastName!) : null;
  if (owner && seenOnSite(snapshot, email)) return { person: owner, confidence: ON_SITE_CONFIDENCE };
  if (pattern === null || pattern.confidence < MIN_PATTERN_CONFIDENCE) return null;
  const site = siteOf(snapshot.domain);
  const fitting = people.filter((person) => emailFromPattern(pattern.pattern, person.firstName, person.lastName, site) === email);
  return fitting.length === 1 ? { person: fitting[0]!, confidence: BY_PATTERN_CONFIDENCE * pattern.confidence } : null;
}

/** The person asked about, on their company's site now: by their address's domain, or by the store's record of them. */
async function identifyOnSite(options: FirstPartyPeopleOptions, input: PersonLookupInput): Promise<{ snapshot: CompanySnapshot; found: IdentifiedPerson } | null> {
  if (input.email !== undefined) {
    const domain = domainOfEmail(input.email);
    // A mailbox service's site says nothing about its users.
    if (isWebmailDomain(domain) || isDisposableDomain(domain)) return null;
    const snapshot = await options.snapshots(domain);
    const found = snapshot.reachable ? personWithEmail(snapshot, input.email) : null;
    return found ? { snapshot, found } : null;
  }
  if (input.linkedinUrl !== undefined) {
    // A profile URL names no company: the store knows where we saw it, and the site is visited again for fresh facts.
    const stored = await findPersonByLinkedin(options.db(), input.linkedinUrl);
    if (stored === null || stored.firstName === null || stored.lastName === null) return null;
    const snapshot = await options.snapshots(stored.domain);
    const person = snapshot.reachable ? namedPerson(snapshot, stored.firstName, stored.lastName) : null;
    return person ? { snapshot, found: { person, confidence: ON_SITE_CONFIDENCE } } : null;
  }
  return null;
}

/** The address the site shows (or its format gives) this person, with whether it was seen. */
function siteAddressOf(snapshot: CompanySnapshot, person: FoundPerson): { address: string; seen: boolean } | null {
  if (person.email !== null && snapshot.siteEmails.emails.some((record) => record.value === person.email)) return { address: person.email, seen: true };
  const record = snapshot.siteEmails.emails.find((item) => item.type === "personal" && item.firstName !== null && isNamed(person, item.firstName, item.lastName ?? ""));
  return record ? { address: record.value, seen: seenOnSite(snapshot, record.value) } : null;
}

function socialProfilesOf(person: { linkedin: string | null; twitter: string | null }): PersonSocialProfile[] {
  const profiles: PersonSocialProfile[] = [];
  if (person.linkedin) profiles.push({ network: "linkedin", url: person.linkedin });
  if (person.twitter) profiles.push({ network: "twitter", url: `https://twitter.com/${person.twitter}` });
  return profiles;
}

/** The company's stated address as a location; null when it names no place. */
function locationOf(address: OrganizationAddress | null | undefined) {
  if (!address) return null;
  const location = { locality: address.locality ?? null, region: address.region ?? null, country: address.country ?? null };
  return location.locality || location.region || location.country ? location : null;
}

/** A stored company's organization address, from the profile its last visit saved. */
function storedAddress(profile: Record<string, unknown> | undefined): OrganizationAddress | null {
  const address = profile?.address;
  return typeof address === "object" && address !== null ? (address as OrganizationAddress) : null;
}

function phoneRecord(raw: string | null, country: string | null | undefined, confidence: number, source: string): PhoneNumberRecord[] {
  const number = raw === null ? null : toE164(raw, phoneCountry(country));
  // A number printed in a person's own card is their work line; whether it rings a mobile, the site does not say.
  return number === null ? [] : [{ number, type: "work", confidence: Math.round(confidence * 100) / 100, source }];
}

// ─── people_email ────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A person's address at their company from its website: an address the site publishes for them first, then the
 * address the company's format gives their name (less sure, and less again when the site does not list them).
 */
export function websitePersonEmailProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleEmailProviderInput> {
  return {
    id: "website",
    operation: "people_email",
    supplies: ["email", "domain", "firstName", "lastName", "position", "seniority", "department", "pattern", "candidates"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      // A name alone is resolved only from companies we have seen; guessing domains from names finds namesakes.
      const domain = input.domain ?? (input.company ? (await findCompanyByName(options.db(), input.company))?.domain : undefined);
      if (domain === undefined) return {};
      const fields: ProviderFields = { domain: { value: domain, confidence: 1 } };
      const snapshot = await options.snapshots(domain);
      if (!snapshot.reachable) return fields;

      const site = siteOf(domain);
      const today = dateOnly(snapshot.collectedAt);
      const person = namedPerson(snapshot, input.firstName, input.lastName);
      const findings: PersonEmailFinding[] = snapshot.siteEmails.emails
        .filter((record) => record.type === "personal" && record.firstName !== null && record.lastName !== null && isNamed({ firstName: record.firstName, lastName: record.lastName }, input.firstName, input.lastName))
        .map((record) => ({
          email: record.value,
          confidence: record.confidence,
          reason: seenOnSite(snapshot, record.value) ? ("found_on_site" as const) : ("pattern" as const),
          verification: record.verification,
          sources: record.sources,
        }));

      const pattern = snapshot.siteEmails.pattern;
      if (pattern !== null) fields.pattern = { value: pattern.pattern, confidence: pattern.confidence };
      if (pattern !== null && pattern.confidence >= MIN_PATTERN_CONFIDENCE) {
        const address = emailFromPattern(pattern.pattern, person?.firstName ?? input.firstName, person?.lastName ?? input.lastName, site);
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
        const candidates: EmailCandidate[] = findings.map(({ email, confidence, reason }) => ({ email, confidence, reason }));
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

// ─── people_enrich ───────────────────────────────────────────────────────────────────────────────────────────────

/** A person's profile from their company's website, found by their address (or by where the store saw their profile). */
export function websitePersonProfileProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleEnrichProviderInput> {
  return {
    id: "website",
    operation: "people_enrich",
    supplies: ["fullName", "firstName", "lastName", "position", "seniority", "department", "email", "company", "location", "socialProfiles"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const identified = await identifyOnSite(options, input);
      if (identified === null) return {};
      const { snapshot, found } = identified;
      const { person, confidence } = found;
      const fields: ProviderFields = {
        fullName: { value: person.fullName, confidence },
        firstName: { value: person.firstName, confidence },
        lastName: { value: person.lastName, confidence },
        company: { value: { name: snapshot.organization.name, domain: snapshot.domain }, confidence },
      };
      if (person.jobTitle) {
        fields.position = { value: person.jobTitle, confidence };
        const seniority = seniorityFromTitle(person.jobTitle);
        const department = departmentFromTitle(person.jobTitle);
        if (seniority) fields.seniority = { value: seniority, confidence };
        if (department) fields.department = { value: department, confidence };
      }
      if (input.email !== undefined) {
        fields.email = { value: input.email, confidence };
      } else {
        const address = siteAddressOf(snapshot, person);
        if (address) fields.email = { value: address.address, confidence: address.seen ? confidence : BY_PATTERN_CONFIDENCE };
      }
      // The person's own location is not on a team page; where their company is, is the best honest proxy.
      const location = locationOf(snapshot.organization.address);
      if (location) fields.location = { value: location, confidence: confidence * 0.8 };
      const profiles = socialProfilesOf(person);
      if (profiles.length > 0) fields.socialProfiles = { value: profiles, confidence };
      return fields;
    },
  };
}

/** Who the store has seen with this address or profile, on an earlier visit to their company's site. */
async function storedPerson(options: FirstPartyPeopleOptions, input: PersonLookupInput): Promise<StoredPerson | null> {
  if (input.email !== undefined) return findPersonByEmail(options.db(), input.email);
  if (input.linkedinUrl !== undefined) return findPersonByLinkedin(options.db(), input.linkedinUrl);
  return null;
}

/** A person's profile from our store of people named on company sites (when their site no longer lists them). */
export function storedPersonProfileProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleEnrichProviderInput> {
  return {
    id: "people-store",
    operation: "people_enrich",
    supplies: ["fullName", "firstName", "lastName", "position", "seniority", "department", "email", "company", "location", "socialProfiles"],
    costCents: 0,
    async enrich(input) {
      const person = await storedPerson(options, input);
      if (person === null) return {};
      const company = await findCompany(options.db(), person.domain);
      const confidence = STORED_CONFIDENCE;
      const fields: ProviderFields = {
        fullName: { value: person.fullName, confidence },
        company: { value: { name: company?.name ?? null, domain: person.domain }, confidence },
      };
      const scalars = { firstName: person.firstName, lastName: person.lastName, position: person.position, seniority: person.seniority, department: person.department, email: person.email };
      for (const [name, value] of Object.entries(scalars)) if (value !== null) fields[name] = { value, confidence };
      // As above: the company's address stands in for the person's location.
      const location = locationOf(storedAddress(company?.profile));
      if (location) fields.location = { value: location, confidence: confidence * 0.8 };
      const profiles = socialProfilesOf(person);
      if (profiles.length > 0) fields.socialProfiles = { value: profiles, confidence };
      return fields;
    },
  };
}

// ─── people_mobile ───────────────────────────────────────────────────────────────────────────────────────────────

/** The number the company's site prints for this very person (their team card), as a work number. */
export function websitePersonPhoneProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleMobileProviderInput> {
  return {
    id: "website",
    operation: "people_mobile",
    supplies: ["phoneNumbers"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const identified = await identifyOnSite(options, input);
      if (identified === null) return {};
      const { snapshot, found } = identified;
      const numbers = phoneRecord(found.person.phone, snapshot.organization.address?.country, found.confidence, found.person.pageUrl);
      return numbers.length === 0 ? {} : { phoneNumbers: { value: numbers, confidence: found.confidence } };
    },
  };
}

/** The number an earlier visit saw printed for this person. */
export function storedPersonPhoneProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleMobileProviderInput> {
  return {
    id: "people-store",
    operation: "people_mobile",
    supplies: ["phoneNumbers"],
    costCents: 0,
    async enrich(input) {
      const person = await storedPerson(options, input);
      if (person === null || person.phone === null) return {};
      const company = await findCompany(options.db(), person.domain);
      const numbers = phoneRecord(person.phone, storedAddress(company?.profile)?.country, STORED_CONFIDENCE, person.sourceUrl);
      return numbers.length === 0 ? {} : { phoneNumbers: { value: numbers, confidence: STORED_CONFIDENCE } };
    },
  };
}

// ─── people_search ───────────────────────────────────────────────────────────────────────────────────────────────

/** Everyone the company's site names now, with the address it shows (or its format gives) them. */
export function websitePeopleSearchProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleSearchProviderInput> {
  return {
    id: "website",
    operation: "people_search",
    supplies: ["domain", "people"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const fields: ProviderFields = { domain: { value: input.domain, confidence: 1 } };
      const snapshot = await options.snapshots(input.domain);
      if (!snapshot.reachable) return fields;
      const people: PersonSearchRecord[] = snapshot.siteEmails.people.map((person) => ({
        fullName: person.fullName,
        firstName: person.firstName,
        lastName: person.lastName,
        position: person.jobTitle,
        seniority: seniorityFromTitle(person.jobTitle),
        department: departmentFromTitle(person.jobTitle),
        email: siteAddressOf(snapshot, person)?.address ?? null,
        linkedin: person.linkedin,
        twitter: person.twitter,
        confidence: SEARCH_CONFIDENCE[person.evidence],
      }));
      if (people.length > 0) fields.people = { value: people, confidence: Math.max(...people.map((person) => person.confidence)) / 100 };
      return fields;
    },
  };
}

/** People earlier visits saw at the company, including those its site no longer lists (less sure). */
export function storedPeopleSearchProvider(options: FirstPartyPeopleOptions): EnrichmentProvider<PeopleSearchProviderInput> {
  return {
    id: "people-store",
    operation: "people_search",
    supplies: ["people"],
    costCents: 0,
    async enrich(input) {
      const stored = await listPeopleAt(options.db(), input.domain);
      const people: PersonSearchRecord[] = stored.flatMap((person) =>
        person.firstName === null || person.lastName === null
          ? []
          : [
              {
                fullName: person.fullName,
                firstName: person.firstName,
                lastName: person.lastName,
                position: person.position,
                seniority: person.seniority,
                department: person.department,
                email: person.email,
                linkedin: person.linkedin,
                twitter: person.twitter,
                confidence: SEARCH_CONFIDENCE.stored,
              },
            ],
      );
      return people.length === 0 ? {} : { people: { value: people, confidence: SEARCH_CONFIDENCE.stored / 100 } };
    },
  };
}
