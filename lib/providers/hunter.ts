import { z } from "zod";
import { readLimited } from "@/lib/api/body";
import { DOMAIN_EMAIL_FIELDS, type DomainEmailsProviderInput, type EmailRecord } from "@/lib/enrichment/domain-emails-fields";
import type { EnrichmentProvider, ProviderFields } from "@/lib/enrichment/types";

/*
 * Adapter for Hunter's email finder "Domain Search", written against Hunter's public API v2 documentation:
 * `GET {baseUrl}/domain-search?domain=…|company=…&limit&offset&type&seniority&department`, key in `X-API-KEY`
 * (Hunter also takes `api_key` in the query; the header keeps the key out of URLs and access logs).
 * Errors thrown here are phrased so they can be logged or surfaced anywhere: they never name the vendor, repeat its
 * wording or carry the key.
 */

const DEFAULT_BASE_URL = "https://api.hunter.io/v2";
const USER_AGENT = "Signalbox/0.1";
/** Hunter's documented maximum page size. */
const MAX_LIMIT = 100;
/** A full page is well under 1 MiB; anything far larger is not a Domain Search answer and is not buffered. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How sure we are of scalars Hunter states (facts such as the pattern are inferred on its side, not observed). */
const SCALAR_CONFIDENCE = 0.9;

export interface HunterOptions {
  apiKey: string;
  /** Default "https://api.hunter.io/v2"; tests point it at a local fake. */
  baseUrl?: string;
  /** What one call costs us, in cents; default 1. */
  costCents?: number;
  /** Default the global fetch; the composition root may pass an SSRF-safe one. */
  fetch?: typeof fetch;
}

/** A failed upstream call. `status` is that of a non-2xx answer; `retryAfterSeconds` is set when it said when to retry. */
export class UpstreamError extends Error {
  readonly status?: number;
  readonly retryAfterSeconds?: number;

  constructor(message: string, options: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "UpstreamError";
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

// The documented body is checked strictly where we depend on it (the `data` object, and each email's address, type
// and confidence), so a changed API fails loudly instead of answering nothing. Optional details that are missing or
// of another type become null: one odd field should not throw away a page of addresses.
const optionalText = z.string().nullable().catch(null);
const optionalFlag = z.boolean().nullable().catch(null);
const source = z.object({ uri: z.string(), extracted_on: z.string() }).nullable().catch(null);
const verificationStatus = z.enum(["valid", "invalid", "accept_all", "webmail", "disposable", "unknown"]).nullable().catch(null);

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
export function createHunterDomainEmailsProvider(options: HunterOptions): EnrichmentProvider<DomainEmailsProviderInput> {
  if (options.apiKey === "") throw new Error("The email finder adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL).href.replace(/\/+$/, "");

  return {
    id: "hunter",
    operation: "companies_domain_emails",
    supplies: DOMAIN_EMAIL_FIELDS.map((field) => field.name),
    costCents: options.costCents ?? 1,
    async enrich(input, { signal }) {
      const url = `${baseUrl}/domain-search?${domainSearchQuery(input)}`;
      const body = await getJson(options.fetch ?? globalThis.fetch, url, options.apiKey, signal);
      const parsed = domainSearchBody.safeParse(body);
      if (!parsed.success) throw new UpstreamError("upstream answered with an unexpected body");
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

async function getJson(fetchImpl: typeof fetch, url: string, apiKey: string, signal: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    const response = await fetchImpl(url, {
      headers: { "x-api-key": apiKey, accept: "application/json", "user-agent": USER_AGENT },
      signal,
      // Fetch would carry the X-API-KEY header along to wherever a redirect points; the API never redirects.
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new UpstreamError(`upstream answered ${response.status}`, {
        status: response.status,
        retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after")),
      });
    }
    text = await readText(response);
  } catch (error) {
    throw asUpstreamError(error, signal);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError("upstream answered with a body that is not JSON");
  }
}

/** The body as text, refusing (without buffering) anything over MAX_BODY_BYTES. */
async function readText(response: Response): Promise<string> {
  const body = await readLimited(response.body, response.headers.get("content-length"), MAX_BODY_BYTES, () => new UpstreamError("upstream answer is too large"));
  return body.toString("utf8");
}

/** Network errors carry the upstream's host in their cause: it stays there, for the server's own logs, not in the message. */
function asUpstreamError(error: unknown, signal: AbortSignal): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (signal.aborted) {
    const timedOut = signal.reason instanceof DOMException && signal.reason.name === "TimeoutError";
    return new UpstreamError(timedOut ? "upstream request timed out" : "upstream request aborted", { cause: signal.reason });
  }
  return new UpstreamError("upstream request failed", { cause: error });
}

/** `Retry-After` as seconds from now: either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
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
