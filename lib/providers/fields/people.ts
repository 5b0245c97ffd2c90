import type { FieldSpec } from "@/lib/providers/provider";

/*
 * The people operations' vocabulary: what providers are asked (the *ProviderInput types), the records they answer
 * with, and how each field merges across providers (the FieldSpec lists). Providers return these field names with a
 * confidence (0–1); the operations in lib/enrichment/people-*.ts shape the merged fields into the response `data`.
 */

// ─── people_email ────────────────────────────────────────────────────────────────────────────────────────────────

/** What providers are asked for a people/email call: a person's name at a company. */
export interface PeopleEmailProviderInput {
  /** Always present: the caller's `firstName`, or the first token of `fullName`. */
  firstName: string;
  /** Always present: the caller's `lastName`, or the last token of `fullName`. */
  lastName: string;
  /** The name as the caller gave it (`fullName`, else "firstName lastName"). */
  fullName: string;
  /** The company's domain, when the caller gave one. */
  domain?: string;
  /** The company's name, when the caller gave no domain: providers resolve it (field `domain`). */
  company?: string;
}

export type EmailCandidateReason = "found_on_site" | "pattern" | "vendor";

export type PersonEmailVerificationStatus = "valid" | "invalid" | "accept_all" | "webmail" | "disposable" | "unknown";

/** One address the person may have, with why we think so. */
export interface EmailCandidate {
  email: string;
  /** 0–100. */
  confidence: number;
  reason: EmailCandidateReason;
}

/**
 * The address a provider answers with (field `email`): its best candidate, with the evidence for it. A scalar, so
 * the most confident provider's address wins together with its confidence, verification and sources.
 */
export interface PersonEmailFinding {
  email: string;
  /** 0–100. */
  confidence: number;
  reason: EmailCandidateReason;
  verification: { date: string | null; status: PersonEmailVerificationStatus | null };
  sources: { uri: string; extractedOn: string }[];
}

/**
 * Fields of people_email. Scalars: `email` (PersonEmailFinding), `domain` (resolved), `firstName`, `lastName` (as the
 * company spells them), `position`, `seniority`, `department`, `pattern` (e.g. "{first}.{last}"). List: `candidates`
 * (EmailCandidate[], ranked by the caller by confidence).
 */
export const PEOPLE_EMAIL_FIELDS: readonly FieldSpec[] = [
  { name: "email", kind: "scalar" },
  { name: "domain", kind: "scalar" },
  { name: "firstName", kind: "scalar" },
  { name: "lastName", kind: "scalar" },
  { name: "position", kind: "scalar" },
  { name: "seniority", kind: "scalar" },
  { name: "department", kind: "scalar" },
  { name: "pattern", kind: "scalar" },
  {
    name: "candidates",
    kind: "list",
    key: (item) => (item as EmailCandidate).email.toLowerCase(),
    confidence: (item) => (item as EmailCandidate).confidence / 100,
  },
];

// ─── people_enrich ───────────────────────────────────────────────────────────────────────────────────────────────

/** What providers are asked for a people/enrich or people/mobile call: exactly one of the two identifiers. */
export interface PersonLookupInput {
  /** Lower-cased, trimmed. */
  email?: string;
  /** Canonical profile URL, `https://www.linkedin.com/in/<handle>`. */
  linkedinUrl?: string;
}

export type PeopleEnrichProviderInput = PersonLookupInput;

export interface PersonCompany {
  name: string | null;
  domain: string | null;
}

export interface PersonLocation {
  locality: string | null;
  region: string | null;
  country: string | null;
}

export type PersonSocialNetwork = "linkedin" | "twitter" | "github" | "facebook" | "instagram" | "youtube" | "other";

export interface PersonSocialProfile {
  network: PersonSocialNetwork;
  url: string;
}

/**
 * Fields of people_enrich. Scalars: `fullName`, `firstName`, `lastName`, `position`, `seniority`, `department`,
 * `email` (string), `company` (PersonCompany), `location` (PersonLocation). List: `socialProfiles`
 * (PersonSocialProfile[]; one entry per URL).
 */
export const PEOPLE_ENRICH_FIELDS: readonly FieldSpec[] = [
  { name: "fullName", kind: "scalar" },
  { name: "firstName", kind: "scalar" },
  { name: "lastName", kind: "scalar" },
  { name: "position", kind: "scalar" },
  { name: "seniority", kind: "scalar" },
  { name: "department", kind: "scalar" },
  { name: "email", kind: "scalar" },
  { name: "company", kind: "scalar" },
  { name: "location", kind: "scalar" },
  {
    name: "socialProfiles",
    kind: "list",
    key: (item) => socialProfileKey((item as PersonSocialProfile).url),
    // A profile link is equally good from any source: the first provider's entry for a URL stays.
    confidence: () => 1,
  },
];

/** Equal profile URLs compare equal: no scheme, no `www.`, no trailing slash, lower case. */
export function socialProfileKey(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/^www\./, "")
    .replace(/\/+$/, "");
}

// ─── people_mobile ───────────────────────────────────────────────────────────────────────────────────────────────

export type PeopleMobileProviderInput = PersonLookupInput;

export interface PhoneNumberRecord {
  /** E.164, e.g. "+15550142". */
  number: string;
  type: "mobile" | "work" | "other";
  /** 0–1. */
  confidence: number;
  /** Where the number was seen (a page URL), or "vendor" for a data vendor's record. */
  source: string;
}

/** Fields of people_mobile. List: `phoneNumbers` (PhoneNumberRecord[]; one entry per E.164 number). */
export const PEOPLE_MOBILE_FIELDS: readonly FieldSpec[] = [
  {
    name: "phoneNumbers",
    kind: "list",
    key: (item) => (item as PhoneNumberRecord).number,
    confidence: (item) => (item as PhoneNumberRecord).confidence,
  },
];

// ─── people_search ───────────────────────────────────────────────────────────────────────────────────────────────

export const PEOPLE_SENIORITIES = ["junior", "senior", "executive"] as const;
export type PeopleSeniority = (typeof PEOPLE_SENIORITIES)[number];

/** What providers are asked for a people/search call. Filters are hints; the service applies them again. */
export interface PeopleSearchProviderInput {
  domain: string;
  /** Lower-cased; a person matches when their position contains any of them. */
  titles?: string[];
  seniority?: PeopleSeniority[];
  /** Lower-cased department names (the job-title vocabulary: sales, it, marketing…). */
  department?: string[];
  /** How many people to return at most. */
  wanted: number;
}

/** One person as people/search returns them. */
export interface PersonSearchRecord {
  fullName: string;
  firstName: string;
  lastName: string;
  position: string | null;
  seniority: string | null;
  department: string | null;
  email: string | null;
  /** Profile URL, https://www.linkedin.com/in/…. */
  linkedin: string | null;
  /** Handle without "@". */
  twitter: string | null;
  /** 0–100: how sure we are this person works there now, in this role. */
  confidence: number;
}

/** Names compare without case or accents ("José Álvarez" = "Jose Alvarez"). */
export function personNameKey(fullName: string): string {
  return fullName.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Fields of people_search. Scalar: `domain`. List: `people` (PersonSearchRecord[]; one entry per name). */
export const PEOPLE_SEARCH_FIELDS: readonly FieldSpec[] = [
  { name: "domain", kind: "scalar" },
  {
    name: "people",
    kind: "list",
    key: (item) => personNameKey((item as PersonSearchRecord).fullName),
    confidence: (item) => (item as PersonSearchRecord).confidence / 100,
  },
];
