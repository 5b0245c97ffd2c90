import { z } from "zod";
import type { EmailCandidate, PeopleEmailProviderInput, PersonEmailFinding } from "@/lib/providers/fields/people";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { hunterStatusMeaning, type HunterOptions } from "./hunter";
import { VENDOR_COSTS_CENTS } from "./vendor-costs";
import { VendorError } from "./vendor-error";
import { DEFAULT_VENDOR_TIMEOUT_MS, requestVendorJson } from "./vendor-request";

/*
 * Adapter for Hunter's "Email Finder", written against Hunter's public API v2 documentation:
 * `GET {baseUrl}/email-finder?domain=…|company=…&first_name=…&last_name=…&max_duration=…`, key in `X-API-KEY` (never
 * `api_key` in the query, which would put it in URLs and access logs). The answer is `{ data: { email, score, domain,
 * first_name, last_name, position, sources, verification, … } }`; "no address" is either a 404 or a 200 whose `email`
 * is null, and a 451 means the person asked Hunter to stop processing their data: all three answer nothing. Statuses
 * and rate limits are Domain Search's (see hunter.ts): 403 the per-second limit, retried once after a second; 429
 * without Retry-After the monthly allowance, not retried. Hunter bills a search credit only for a found address.
 */

const DEFAULT_BASE_URL = "https://api.hunter.io/v2";
/** How sure we are of facts Hunter states about the company (the resolved domain), not about the person. */
const SCALAR_CONFIDENCE = 0.9;
/** Hunter's narrowest rate-limit window is one second. */
const RATE_LIMIT_BACKOFF_MS = 1_000;
/** Hunter's documented bounds for `max_duration`, in seconds. */
const MIN_DURATION_S = 3;
const MAX_DURATION_S = 20;
/** What the Email Finder states (of PEOPLE_EMAIL_FIELDS): the address with its evidence, and the person's facts. */
const SUPPLIES: readonly string[] = ["email", "candidates", "domain", "firstName", "lastName", "position"];
/** Hunter answers 451 for a person who asked it to stop processing their personal data. */
const RESTRICTED_PERSON = 451;

// Strict where we depend on the answer (a `data` object whose `email` is a string or null, and a numeric score next to
// an address); every other detail becomes null when missing or odd, so one strange field does not lose the address.
const optionalText = z.string().trim().min(1).nullable().catch(null);
const source = z.object({ uri: z.string(), extracted_on: z.string() }).nullable().catch(null);
const verificationStatus = z
  .enum(["valid", "invalid", "accept_all", "webmail", "disposable", "unknown"])
  .nullable()
  .catch(null);

const emailFinderBody = z.object({
  data: z
    .object({
      email: z.string().trim().nullable().optional(),
      score: z.number().nullable().optional(),
      domain: optionalText,
      first_name: optionalText,
      last_name: optionalText,
      position: optionalText,
      sources: z.array(source).nullable().catch([]),
      verification: z.object({ date: optionalText, status: verificationStatus }).nullable().catch(null),
    })
    .refine((data) => !data.email || typeof data.score === "number", "an address comes with a score"),
});

type EmailFinderData = z.infer<typeof emailFinderBody>["data"];

/** Hunter's Email Finder as a people-email provider (id "hunter-email-finder"). */
export function createHunterEmailFinderProvider(options: HunterOptions): EnrichmentProvider<PeopleEmailProviderInput> {
  if (options.apiKey === "") throw new Error("The email finder adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL).href.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;

  return {
    id: "hunter-email-finder",
    operation: "people_email",
    supplies: SUPPLIES,
    costCents: options.costCents ?? VENDOR_COSTS_CENTS["hunter-email-finder"],
    timeoutMs,
    async enrich(input, { signal }) {
      const answer = await requestVendorJson({
        http: options.http,
        url: `${baseUrl}/email-finder?${emailFinderQuery(input, timeoutMs)}`,
        headers: { "x-api-key": options.apiKey },
        signal,
        timeoutMs,
        statusMeaning: hunterStatusMeaning,
        rateLimitBackoffMs: RATE_LIMIT_BACKOFF_MS,
      }).catch((error: unknown) => {
        // A person who opted out is an answer (there is nothing we may return), not a failure of the provider.
        if (error instanceof VendorError && error.status === RESTRICTED_PERSON) return null;
        throw error;
      });
      if (answer === null || !answer.found) return {};
      const parsed = emailFinderBody.safeParse(answer.body);
      if (!parsed.success)
        throw new VendorError("invalid_body", "upstream answered with an unexpected body", { status: answer.status });
      return toFields(parsed.data.data);
    },
  };
}

function emailFinderQuery(input: PeopleEmailProviderInput, timeoutMs: number): URLSearchParams {
  const query = new URLSearchParams();
  // Hunter prefers the domain when both are given; the company name is only a fallback for it to resolve.
  if (input.domain !== undefined) query.set("domain", input.domain);
  else if (input.company !== undefined) query.set("company", input.company);
  else throw new Error("A domain or a company is required.");
  // First and last name match better than a full name Hunter has to split; the caller always has both.
  query.set("first_name", input.firstName);
  query.set("last_name", input.lastName);
  // Hunter searches for up to `max_duration` seconds (default 10): half our time limit leaves room for the answer and
  // a retry, within Hunter's 3–20 s.
  query.set("max_duration", String(Math.min(MAX_DURATION_S, Math.max(MIN_DURATION_S, Math.floor(timeoutMs / 2_000)))));
  return query;
}

/**
 * Only what Hunter stated becomes a field. Facts about the person are as sure as the address they came with (Hunter
 * echoes the name it was given when it only guessed), never more than a vendor's scalar; the domain is the company's.
 */
function toFields(data: EmailFinderData): ProviderFields {
  if (!data.email || typeof data.score !== "number") return {};
  const confidence = Math.round(Math.min(100, Math.max(0, data.score)));
  const finding: PersonEmailFinding = {
    email: data.email,
    confidence,
    reason: "vendor",
    verification: { date: data.verification?.date ?? null, status: data.verification?.status ?? null },
    sources: (data.sources ?? []).flatMap((item) => (item ? [{ uri: item.uri, extractedOn: item.extracted_on }] : [])),
  };
  const candidate: EmailCandidate = { email: data.email, confidence, reason: "vendor" };
  const fields: ProviderFields = {
    email: { value: finding, confidence: confidence / 100 },
    candidates: { value: [candidate], confidence: confidence / 100 },
  };
  if (data.domain !== null) fields.domain = { value: data.domain.toLowerCase(), confidence: SCALAR_CONFIDENCE };
  const personConfidence = Math.min(SCALAR_CONFIDENCE, confidence / 100);
  const person = { firstName: data.first_name, lastName: data.last_name, position: data.position };
  for (const [name, value] of Object.entries(person)) {
    if (value !== null) fields[name] = { value, confidence: personConfidence };
  }
  return fields;
}
