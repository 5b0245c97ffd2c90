import { getDomain } from "tldts";
import type { PersonLookupInput } from "@/lib/providers/fields/people";
import type { CompanySnapshot } from "./company-snapshot";
import { emailFromPattern, nameSpellings } from "./email/email-pattern";
import { isDisposableDomain, isWebmailDomain } from "./email/verification";
import type { FirstPartyOptions } from "./options";
import { findPersonByEmail, findPersonByLinkedin, type StoredPerson } from "./people/people-store";
import type { OrganizationAddress } from "./website/extract-organization";
import type { FoundPerson } from "./website/extract-people";

/*
 * Who a people operation asks about, for the first-party people providers (people-email.ts, people-enrich.ts,
 * people-mobile.ts, people-search.ts): the person on their company's own website (the shared company snapshot: the
 * people its team pages name, the addresses it publishes and the address format they follow), or in our store of
 * people seen on earlier visits. Nothing here guesses beyond what a site states: an address built from the company's
 * format says so (`reason: "pattern"`, a lower confidence), a phone number is only one printed for that very person,
 * and never a mobile.
 */

/** Facts the company states about its own people, on its own site now. */
export const ON_SITE_CONFIDENCE = 0.9;
/** A person identified only because their name makes the address under the company's format. */
export const BY_PATTERN_CONFIDENCE = 0.7;
/** What an earlier visit saw: the person may have moved on since. */
export const STORED_CONFIDENCE = 0.7;
/** Addresses from the company's format: only from a format at least this sure (as for domain emails). */
export const MIN_PATTERN_CONFIDENCE = 0.5;

export const siteOf = (domain: string) => getDomain(domain) ?? domain;
const spelling = (name: string) => nameSpellings(name)[0] ?? "";
const domainOfEmail = (email: string) => email.slice(email.lastIndexOf("@") + 1);

/** The site names this person: same first name, and the same last name (or the last word of the full name). */
export function isNamed(
  person: { firstName: string; lastName: string; fullName?: string },
  firstName: string,
  lastName: string,
): boolean {
  if (spelling(person.firstName) !== spelling(firstName) || spelling(lastName) === "") return false;
  const lastWord = person.fullName?.trim().split(/\s+/).at(-1) ?? person.lastName;
  return spelling(person.lastName) === spelling(lastName) || spelling(lastWord) === spelling(lastName);
}

/** The one person of the site with this name; none when nobody or several (namesakes) match. */
export function namedPerson(snapshot: CompanySnapshot, firstName: string, lastName: string): FoundPerson | null {
  const matches = snapshot.siteEmails.people.filter((person) => isNamed(person, firstName, lastName));
  return matches.length === 1 ? matches[0]! : null;
}

/** The address the site's format gives this person, when the format is sure enough to build from. */
function addressFromFormat(snapshot: CompanySnapshot, person: { firstName: string; lastName: string }): string | null {
  const { pattern } = snapshot.siteEmails;
  if (pattern === null || pattern.confidence < MIN_PATTERN_CONFIDENCE) return null;
  return emailFromPattern(pattern.pattern, person.firstName, person.lastName, siteOf(snapshot.domain));
}

export interface IdentifiedPerson {
  person: FoundPerson;
  /** How sure we are this is the person asked about. */
  confidence: number;
}

/**
 * The site's person with this address: the one the site states it for, the owner site-emails tied this personal
 * address to (every domain-emails record is printed on the site), or the one person whose name makes it under the
 * site's address format. A role mailbox names no person, even when its holder is printed beside it.
 */
function personWithEmail(snapshot: CompanySnapshot, email: string): IdentifiedPerson | null {
  const { people, emails, pattern } = snapshot.siteEmails;
  const stated = people.find((person) => person.email === email);
  if (stated) return { person: stated, confidence: ON_SITE_CONFIDENCE };
  const record = emails.find(
    (item) => item.value === email && item.type === "personal" && item.firstName !== null && item.lastName !== null,
  );
  const owner = record ? namedPerson(snapshot, record.firstName!, record.lastName!) : null;
  if (owner) return { person: owner, confidence: ON_SITE_CONFIDENCE };
  const fitting = people.filter((person) => addressFromFormat(snapshot, person) === email);
  return fitting.length === 1 && pattern !== null
    ? { person: fitting[0]!, confidence: BY_PATTERN_CONFIDENCE * pattern.confidence }
    : null;
}

/** The person asked about, on their company's site now: by their address's domain, or by the store's record of them. */
export async function identifyOnSite(
  options: FirstPartyOptions,
  input: PersonLookupInput,
): Promise<{ snapshot: CompanySnapshot; found: IdentifiedPerson } | null> {
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

/** The address the site shows (or, not seen, its format gives) this person. */
export function siteAddressOf(
  snapshot: CompanySnapshot,
  person: FoundPerson,
): { address: string; seen: boolean } | null {
  if (person.email !== null && snapshot.siteEmails.emails.some((record) => record.value === person.email))
    return { address: person.email, seen: true };
  const record = snapshot.siteEmails.emails.find(
    (item) =>
      item.type === "personal" && item.firstName !== null && isNamed(person, item.firstName, item.lastName ?? ""),
  );
  if (record) return { address: record.value, seen: true };
  const built = addressFromFormat(snapshot, person);
  return built === null ? null : { address: built, seen: false };
}

/** Who the store has seen with this address or profile, on an earlier visit to their company's site. */
export async function storedPerson(options: FirstPartyOptions, input: PersonLookupInput): Promise<StoredPerson | null> {
  if (input.email !== undefined) return findPersonByEmail(options.db(), input.email);
  if (input.linkedinUrl !== undefined) return findPersonByLinkedin(options.db(), input.linkedinUrl);
  return null;
}

/** A stored company's organization address, from the profile its last visit saved. */
export function storedAddress(profile: Record<string, unknown> | undefined): OrganizationAddress | null {
  const address = profile?.address;
  return typeof address === "object" && address !== null ? (address as OrganizationAddress) : null;
}
