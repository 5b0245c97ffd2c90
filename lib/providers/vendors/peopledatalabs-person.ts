import { z } from "zod";
import {
  PEOPLE_ENRICH_FIELDS,
  socialProfileKey,
  type PeopleEnrichProviderInput,
  type PeopleMobileProviderInput,
  type PeopleSeniority,
  type PersonCompany,
  type PersonLocation,
  type PersonLookupInput,
  type PersonSocialNetwork,
  type PersonSocialProfile,
  type PhoneNumberRecord,
} from "@/lib/providers/fields/people";
import type { EnrichmentProvider, OperationName, ProviderFields } from "@/lib/providers/provider";
import type { PeopleDataLabsOptions } from "./peopledatalabs";
import { VENDOR_COSTS_CENTS } from "./vendor-costs";
import { VendorError } from "./vendor-error";
import { toE164 } from "@/lib/providers/fields/phone";
import {
  domainOf,
  PDL_DEFAULT_BASE_URL,
  pdlRateLimitWait,
  pdlText,
  pdlTextList,
  withScheme,
} from "./peopledatalabs-api";
import { DEFAULT_VENDOR_TIMEOUT_MS, requestVendorJson } from "./vendor-request";

/*
 * Adapter for People Data Labs' Person Enrichment API, written against its public v5 documentation:
 * `GET {baseUrl}/person/enrich?email=…|profile=…&min_likelihood=…&titlecase=true[&required=…]`, key in the `X-Api-Key`
 * header (PDL also takes `api_key` in the query; the header keeps it out of URLs). A match is 200
 * `{ status, likelihood, data: { …person… } }`, `likelihood` (1–10) being how sure PDL is that the record is the person
 * asked about; no match (or none as likely as `min_likelihood`, or none with the `required` fields) is 404 and is not
 * billed. Errors are the company API's (see peopledatalabs.ts): 401 bad key, 402 credits used up, 429 rate limit with
 * the window's end in `x-ratelimit-reset`. On free plans contact fields (emails, phone numbers) hold `true` instead of
 * the value: those are treated as unknown.
 * One request and one mapping into the neutral `PeopleDataLabsPerson` serve two providers: people_enrich (the
 * person's profile) and people_mobile (their phone numbers).
 */

/**
 * A weaker match is a different person as often as not; PDL bills a match whatever its likelihood, so we ask it to
 * answer 404 (free) below this.
 */
const DEFAULT_MIN_LIKELIHOOD = 6;
/** A vendor's record of a person is secondhand even when it is sure of the match: never fully certain. */
const CONFIDENCE_CAP = 0.9;
/** The mobile provider only pays for a record that has a number. */
const REQUIRE_A_PHONE = "mobile_phone OR phone_numbers";

/** Where a job-title level puts the person, highest first (PDL's canonical `job_title_levels`). */
const SENIORITY_BY_LEVEL: readonly (readonly [PeopleSeniority, readonly string[]])[] = [
  ["executive", ["cxo", "owner", "vp", "partner"]],
  ["senior", ["director", "manager", "senior"]],
  ["junior", ["entry", "training", "unpaid"]],
];

/** PDL's job-title roles in the department vocabulary the people operations use; roles without a match say nothing. */
const DEPARTMENT_BY_ROLE: Readonly<Record<string, string>> = {
  engineering: "it",
  information_technology: "it",
  finance: "finance",
  sales: "sales",
  sales_engineering: "sales",
  marketing: "marketing",
  legal: "legal",
  human_resources: "hr",
  support: "support",
  customer_service: "support",
  operations: "operations",
  creative: "design",
  design: "design",
  education: "education",
  health: "health",
  media: "communication",
  public_relations: "communication",
};

const SOCIAL_NETWORKS: readonly PersonSocialNetwork[] = [
  "linkedin",
  "twitter",
  "github",
  "facebook",
  "instagram",
  "youtube",
];

export interface PeopleDataLabsPersonOptions extends PeopleDataLabsOptions {
  /** What one call costs us, in cents; default from the vendor catalogue. */
  costCents?: number;
  /** The weakest match (1–10) worth paying for; default 6. */
  minLikelihood?: number;
}

/** A person as PDL describes them, in our words. Every fact is nullable: PDL says null for what it does not know. */
export interface PeopleDataLabsPerson {
  fullName: string | null;
  firstName: string | null;
  lastName: string | null;
  position: string | null;
  seniority: PeopleSeniority | null;
  department: string | null;
  workEmail: string | null;
  company: PersonCompany;
  location: PersonLocation;
  /** Profile URLs with a scheme, one per URL. */
  socialProfiles: PersonSocialProfile[];
  /** As PDL states them: the mobile number, and every number listed (the mobile one usually among them). */
  mobilePhone: string | null;
  phoneNumbers: string[];
  /** 0–1: how sure PDL is that this record is the person asked about. */
  matchConfidence: number;
}

// Only `likelihood` and a `data` object are required: they are in every documented match. Every other field becomes
// null (or an empty list) when missing or odd, which is also what a free plan's `true` placeholders become.

const personBody = z.object({
  likelihood: z.number(),
  data: z.object({
    full_name: pdlText,
    first_name: pdlText,
    last_name: pdlText,
    job_title: pdlText,
    job_title_role: pdlText,
    job_title_levels: pdlTextList,
    job_company_name: pdlText,
    job_company_website: pdlText,
    location_locality: pdlText,
    location_region: pdlText,
    location_country: pdlText,
    linkedin_url: pdlText,
    twitter_url: pdlText,
    github_url: pdlText,
    facebook_url: pdlText,
    profiles: z
      .array(z.object({ network: pdlText, url: pdlText }).nullable().catch(null))
      .nullable()
      .catch(null),
    work_email: pdlText,
    mobile_phone: pdlText,
    phone_numbers: pdlTextList,
  }),
});

type PersonBody = z.infer<typeof personBody>;

/** The person PDL matches to `query`, or null when it has none. Rejects with a `VendorError`. */
export async function fetchPeopleDataLabsPerson(
  options: PeopleDataLabsOptions & {
    query: PersonLookupInput;
    minLikelihood?: number;
    /** PDL's `required`: fields a record must have to be a match (and billed), e.g. "mobile_phone OR phone_numbers". */
    required?: string;
    signal: AbortSignal;
  },
): Promise<PeopleDataLabsPerson | null> {
  if (options.apiKey === "") throw new Error("The person data adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? PDL_DEFAULT_BASE_URL).href.replace(/\/+$/, "");
  const answer = await requestVendorJson({
    http: options.http,
    url: `${baseUrl}/person/enrich?${personQuery(options)}`,
    headers: { "x-api-key": options.apiKey },
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS,
    retryAfter: pdlRateLimitWait,
  });
  if (!answer.found) return null;
  const parsed = personBody.safeParse(answer.body);
  if (!parsed.success)
    throw new VendorError("invalid_body", "upstream answered with an unexpected body", { status: answer.status });
  return toPerson(parsed.data);
}

/** PDL's person record as a people-enrich provider (id "peopledatalabs-person"). */
export function createPeopleDataLabsPersonEnrichProvider(
  options: PeopleDataLabsPersonOptions,
): EnrichmentProvider<PeopleEnrichProviderInput> {
  return personProvider(options, {
    id: "peopledatalabs-person",
    operation: "people_enrich",
    supplies: PEOPLE_ENRICH_FIELDS.map((field) => field.name),
    costCents: VENDOR_COSTS_CENTS["peopledatalabs-person"],
    toFields: toEnrichFields,
  });
}

/** PDL's person record as a people-mobile provider (id "peopledatalabs-mobile"): its mobile and other numbers. */
export function createPeopleDataLabsPersonMobileProvider(
  options: PeopleDataLabsPersonOptions,
): EnrichmentProvider<PeopleMobileProviderInput> {
  return personProvider(options, {
    id: "peopledatalabs-mobile",
    operation: "people_mobile",
    supplies: ["phoneNumbers"],
    costCents: VENDOR_COSTS_CENTS["peopledatalabs-mobile"],
    required: REQUIRE_A_PHONE,
    toFields: toMobileFields,
  });
}

/** The two providers differ only in what they ask PDL to require and how they read the person. */
function personProvider(
  options: PeopleDataLabsPersonOptions,
  spec: {
    id: string;
    operation: OperationName;
    supplies: readonly string[];
    costCents: number;
    required?: string;
    toFields: (person: PeopleDataLabsPerson) => ProviderFields;
  },
): EnrichmentProvider<PersonLookupInput> {
  if (options.apiKey === "") throw new Error("The person data adapter needs an API key.");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;
  return {
    id: spec.id,
    operation: spec.operation,
    supplies: spec.supplies,
    costCents: options.costCents ?? spec.costCents,
    timeoutMs,
    async enrich(input, { signal }) {
      const person = await fetchPeopleDataLabsPerson({
        ...options,
        timeoutMs,
        query: input,
        required: spec.required,
        signal,
      });
      return person ? spec.toFields(person) : {};
    },
  };
}

function personQuery(options: {
  query: PersonLookupInput;
  minLikelihood?: number;
  required?: string;
}): URLSearchParams {
  const params = new URLSearchParams();
  const email = options.query.email?.trim();
  const profile = options.query.linkedinUrl?.trim();
  if (email) params.set("email", email);
  if (profile) params.set("profile", profile);
  if (params.size === 0) throw new Error("An email or a LinkedIn URL is required.");
  const minLikelihood = Math.min(10, Math.max(1, Math.round(options.minLikelihood ?? DEFAULT_MIN_LIKELIHOOD)));
  params.set("min_likelihood", String(minLikelihood));
  // PDL lower-cases names, titles and places unless asked; "maria gonzalez" is not how anyone writes her name.
  params.set("titlecase", "true");
  if (options.required) params.set("required", options.required);
  return params;
}

function toPerson({ likelihood, data }: PersonBody): PeopleDataLabsPerson {
  return {
    fullName: data.full_name,
    firstName: data.first_name,
    lastName: data.last_name,
    position: data.job_title,
    seniority:
      SENIORITY_BY_LEVEL.find(([, levels]) =>
        data.job_title_levels.some((level) => levels.includes(level.toLowerCase())),
      )?.[0] ?? null,
    department: (data.job_title_role && DEPARTMENT_BY_ROLE[data.job_title_role.toLowerCase()]) ?? null,
    workEmail: data.work_email?.toLowerCase() ?? null,
    company: { name: data.job_company_name, domain: domainOf(data.job_company_website) },
    location: { locality: data.location_locality, region: data.location_region, country: data.location_country },
    socialProfiles: socialProfiles(data),
    mobilePhone: data.mobile_phone,
    phoneNumbers: data.phone_numbers,
    matchConfidence: Math.min(1, Math.max(0, likelihood / 10)),
  };
}

/** The top-level profile URLs first, then any other listed profile; one entry per URL. */
function socialProfiles(data: PersonBody["data"]): PersonSocialProfile[] {
  const listed = [
    { network: "linkedin", url: data.linkedin_url },
    { network: "twitter", url: data.twitter_url },
    { network: "github", url: data.github_url },
    { network: "facebook", url: data.facebook_url },
    ...(data.profiles ?? []).map((profile) => ({ network: profile?.network ?? null, url: profile?.url ?? null })),
  ];
  const seen = new Set<string>();
  return listed.flatMap(({ network, url }) => {
    if (url === null || seen.has(socialProfileKey(url))) return [];
    seen.add(socialProfileKey(url));
    const known = SOCIAL_NETWORKS.find((name) => name === network?.toLowerCase());
    return [{ network: known ?? "other", url: withScheme(url) }];
  });
}

/** Only what PDL stated becomes a field, as sure as the match (capped): nulls stay missing for the next provider. */
function toEnrichFields(person: PeopleDataLabsPerson): ProviderFields {
  const confidence = Math.min(CONFIDENCE_CAP, person.matchConfidence);
  const { company, location } = person;
  const values: Record<string, unknown> = {
    fullName: person.fullName,
    firstName: person.firstName,
    lastName: person.lastName,
    position: person.position,
    seniority: person.seniority,
    department: person.department,
    email: person.workEmail,
    company: company.name !== null || company.domain !== null ? company : null,
    location: location.locality !== null || location.region !== null || location.country !== null ? location : null,
    socialProfiles: person.socialProfiles.length > 0 ? person.socialProfiles : null,
  };
  const fields: ProviderFields = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== null) fields[name] = { value, confidence };
  }
  return fields;
}

/**
 * The mobile number as "mobile", every other listed number as "other", one entry per number. Only numbers PDL
 * states with a country code (+CC…) are kept, compacted to E.164: a national number's country would be a guess.
 */
function toMobileFields(person: PeopleDataLabsPerson): ProviderFields {
  const confidence = Math.min(CONFIDENCE_CAP, person.matchConfidence);
  const numbers = new Map<string, PhoneNumberRecord>();
  const add = (raw: string, type: PhoneNumberRecord["type"]) => {
    const number = toE164(raw, null);
    if (number !== null && !numbers.has(number)) numbers.set(number, { number, type, confidence, source: "vendor" });
  };
  if (person.mobilePhone !== null) add(person.mobilePhone, "mobile");
  for (const raw of person.phoneNumbers) add(raw, "other");
  return numbers.size > 0 ? { phoneNumbers: { value: [...numbers.values()], confidence } } : {};
}
