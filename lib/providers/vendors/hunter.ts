import { z } from "zod";
import {
  DOMAIN_EMAIL_FIELDS,
  type DomainEmailsProviderInput,
  type EmailRecord,
} from "@/lib/providers/fields/domain-emails";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import type { OutboundClient } from "@/lib/outbound/types";
import { VENDOR_COSTS_CENTS } from "./vendor-costs";
import { VendorError } from "./vendor-error";
import { DEFAULT_VENDOR_TIMEOUT_MS, requestVendorJson, type StatusMeaning } from "./vendor-request";

/*
 * Adapter for Hunter's email finder "Domain Search", written against Hunter's public API v2 documentation:
 * `GET {baseUrl}/domain-search?domain=…|company=…&limit&offset&type&seniority&department`, key in `X-API-KEY`
 * (Hunter also takes `api_key` in the query; the header keeps the key out of URLs and access logs).
 * Hunter's statuses differ from the usual ones: 403 means the per-second/per-minute rate limit was hit (slow down and
 * retry), 429 means the plan's monthly searches are used up (nothing to retry until the operator acts). Hunter
 * documents no Retry-After, so a 403 is retried once after a second, the width of its narrowest window.
 */

const DEFAULT_BASE_URL = "https://api.hunter.io/v2";
/** Hunter's documented maximum page size. */
const MAX_LIMIT = 100;
/** How sure we are of scalars Hunter states (facts such as the pattern are inferred on its side, not observed). */
const SCALAR_CONFIDENCE = 0.9;
/** Hunter's narrowest rate-limit window is one second. */
const RATE_LIMIT_BACKOFF_MS = 1_000;

export interface HunterOptions {
  apiKey: string;
  /** Default "https://api.hunter.io/v2"; tests point it at a local fake. */
  baseUrl?: string;
  http: OutboundClient;
  /** What one call costs us, in cents; default from the vendor catalogue. */
  costCents?: number;
  /** The whole call, retries included; default 10 s. */
  timeoutMs?: number;
}

/** 403 is Hunter's rate limit; a 429 without a stated wait is its monthly usage limit. */
export const hunterStatusMeaning: StatusMeaning = (status, retryAfterSeconds) => {
  if (status === 403) return "rate_limited";
  if (status === 429 && retryAfterSeconds === undefined) return "quota";
  return undefined;
};

// The documented body is checked strictly where we depend on it (the `data` object, and each email's address, type
// and confidence), so a changed API fails loudly instead of answering nothing. Optional details that are missing or
// of another type become null: one odd field should not throw away a page of addresses.
const optionalText = z.string().nullable().catch(null);
const optionalFlag = z.boolean().nullable().catch(null);
const source = z.object({ uri: z.string(), extracted_on: z.string() }).nullable().catch(null);
const verificationStatus = z
  .enum(["valid", "invalid", "accept_all", "webmail", "disposable", "unknown"])
  .nullable()
  .catch(null);

const domainSearchBody = z.object({
  data: z.object({
    domain: optionalText,
    organization: optionalText,
    pattern: optionalText,
    accept_all: optionalFlag,
    webmail: optionalFlag,
    disposable: optionalFlag,
    emails: z.array(
      z.object({
        value: z.string().min(1),
        type: z.enum(["personal", "generic"]),
        confidence: z.number(),
        sources: z.array(source).catch([]),
        first_name: optionalText,
        last_name: optionalText,
        position: optionalText,
        seniority: optionalText,
        department: optionalText,
        linkedin: optionalText,
        twitter: optionalText,
        phone_number: optionalText,
        verification: z.object({ date: optionalText, status: verificationStatus }).nullable().catch(null),
      }),
    ),
  }),
});

type DomainSearchData = z.infer<typeof domainSearchBody>["data"];

/** Hunter's Domain Search as a domain-emails provider (id "hunter"). */
export function createHunterDomainEmailsProvider(
  options: HunterOptions,
): EnrichmentProvider<DomainEmailsProviderInput> {
  if (options.apiKey === "") throw new Error("The email finder adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL).href.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;

  return {
    id: "hunter",
    operation: "companies_domain_emails",
    supplies: DOMAIN_EMAIL_FIELDS.map((field) => field.name),
    costCents: options.costCents ?? VENDOR_COSTS_CENTS.hunter,
    timeoutMs,
    async enrich(input, { signal }) {
      const answer = await requestVendorJson({
        http: options.http,
        url: `${baseUrl}/domain-search?${domainSearchQuery(input)}`,
        headers: { "x-api-key": options.apiKey },
        signal,
        timeoutMs,
        statusMeaning: hunterStatusMeaning,
        rateLimitBackoffMs: RATE_LIMIT_BACKOFF_MS,
      });
      if (!answer.found) return {};
      const parsed = domainSearchBody.safeParse(answer.body);
      if (!parsed.success)
        throw new VendorError("invalid_body", "upstream answered with an unexpected body", { status: answer.status });
      return toFields(parsed.data.data);
    },
  };
}

function domainSearchQuery(input: DomainEmailsProviderInput): URLSearchParams {
  const query = new URLSearchParams();
  // Hunter prefers the domain when both are given; the company name is only a fallback for it to resolve.
  if (input.domain !== undefined) query.set("domain", input.domain);
  else if (input.company !== undefined) query.set("company", input.company);
  else throw new Error("A domain or a company is required.");
  // One call, offset 0: ask for what the caller's page needs (offset + limit), within Hunter's page size.
  query.set("limit", String(Math.min(MAX_LIMIT, Math.max(1, Math.floor(input.wanted)))));
  query.set("offset", "0");
  if (input.type !== undefined) query.set("type", input.type);
  if (input.seniority !== undefined) query.set("seniority", input.seniority);
  if (input.department !== undefined) query.set("department", input.department);
  return query;
}

function toEmailRecord(email: DomainSearchData["emails"][number]): EmailRecord {
  return {
    value: email.value,
    type: email.type,
    confidence: Math.round(Math.min(100, Math.max(0, email.confidence))),
    firstName: email.first_name,
    lastName: email.last_name,
    position: email.position,
    seniority: email.seniority,
    department: email.department,
    linkedin: email.linkedin,
    twitter: email.twitter,
    phoneNumber: email.phone_number,
    sources: email.sources.flatMap((item) => (item ? [{ uri: item.uri, extractedOn: item.extracted_on }] : [])),
    verification: { date: email.verification?.date ?? null, status: email.verification?.status ?? null },
  };
}

/**
 * Only what Hunter actually stated becomes a field: null scalars and an empty email list are left out, so the
 * waterfall still counts them as missing and may ask the next provider.
 */
function toFields(data: DomainSearchData): ProviderFields {
  const fields: ProviderFields = {};
  const scalars = {
    domain: data.domain,
    organization: data.organization,
    pattern: data.pattern,
    acceptAll: data.accept_all,
    webmail: data.webmail,
    disposable: data.disposable,
  };
  for (const [name, value] of Object.entries(scalars)) {
    if (value !== null) fields[name] = { value, confidence: SCALAR_CONFIDENCE };
  }
  const emails = data.emails.map(toEmailRecord);
  if (emails.length > 0) {
    fields.emails = { value: emails, confidence: Math.max(...emails.map((email) => email.confidence)) / 100 };
  }
  return fields;
}
