import { canonicalLinkedinUrl } from "@/lib/contracts/people";
import type { DbClient } from "@/lib/db/client";
import { departmentFromTitle, seniorityFromTitle } from "@/lib/providers/first-party/email/job-title";
import { personKey } from "@/lib/providers/first-party/website/extract-people";

/*
 * People we have seen named on company websites (public facts, shared by every workspace). Every company snapshot
 * saves the people it found, so later questions about a person (by email or profile URL) and searches for people at
 * a company can be answered from what we already know.
 */

/** A person as a collector found them. */
export interface PersonRecord {
  fullName: string;
  firstName: string | null;
  lastName: string | null;
  position: string | null;
  email: string | null;
  linkedin: string | null;
  twitter: string | null;
  phone: string | null;
  sourceUrl: string;
}

export interface StoredPerson extends PersonRecord {
  domain: string;
  seniority: string | null;
  department: string | null;
  firstSeenAt: Date;
  updatedAt: Date;
}

/**
 * Creates or refreshes the people of a company. A value found now replaces the stored one; a value not found now
 * keeps what an earlier visit found (a team page may drop an email link, the person still has the address).
 */
export async function savePeople(client: DbClient, domain: string, people: readonly PersonRecord[]): Promise<void> {
  const company = domain.toLowerCase();
  const byKey = new Map(people.map((person) => [personKey(person.fullName), person]));
  for (const [nameKey, person] of byKey) {
    const values = {
      fullName: person.fullName,
      firstName: person.firstName,
      lastName: person.lastName,
      position: person.position,
      seniority: person.position ? seniorityFromTitle(person.position) : null,
      department: person.position ? departmentFromTitle(person.position) : null,
      email: person.email?.toLowerCase() ?? null,
      linkedin: person.linkedin ? canonicalLinkedinUrl(person.linkedin) : null,
      twitter: person.twitter,
      phone: person.phone,
      sourceUrl: person.sourceUrl,
    };
    const found = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
    await client.person.upsert({
      where: { domain_nameKey: { domain: company, nameKey } },
      create: { domain: company, nameKey, ...values },
      update: { ...found, updatedAt: new Date() },
    });
  }
}

/** The person whose address this is, the most recently seen when (oddly) several share it. */
export async function findPersonByEmail(client: DbClient, email: string): Promise<StoredPerson | null> {
  return client.person.findFirst({
    where: { email: email.trim().toLowerCase() },
    orderBy: { updatedAt: "desc" },
    omit: { nameKey: true },
  });
}

/** The person with this LinkedIn profile, in any of its URL spellings. */
export async function findPersonByLinkedin(client: DbClient, url: string): Promise<StoredPerson | null> {
  const linkedin = canonicalLinkedinUrl(url);
  if (linkedin === null) return null;
  return client.person.findFirst({ where: { linkedin }, orderBy: { updatedAt: "desc" }, omit: { nameKey: true } });
}

/** Everyone we know at a company, by name. */
export async function listPeopleAt(client: DbClient, domain: string): Promise<StoredPerson[]> {
  return client.person.findMany({
    where: { domain: domain.toLowerCase() },
    orderBy: [{ nameKey: "asc" }],
    omit: { nameKey: true },
  });
}
