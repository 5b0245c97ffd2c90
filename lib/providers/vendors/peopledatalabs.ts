import { z } from "zod";
import type { Funding, FundingRound, IntelligenceProviderInput } from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import type { OutboundClient } from "@/lib/outbound/types";
import type { CompanyFundingSummary, CompanyProfile } from "./company-profile";
import { VENDOR_COSTS_CENTS } from "./vendor-costs";
import { VendorError } from "./vendor-error";
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
 * Adapter for People Data Labs' Company Enrichment API, written against its public v5 documentation:
 * `GET {baseUrl}/company/enrich?website=…|name=…|profile=…`, key in the `X-Api-Key` header (PDL also takes `api_key`
 * in the query; the header keeps it out of URLs). A match is 200 with the company's fields at the top level next to
 * `status` and `likelihood` (1–10, how sure PDL is of the match); no match is 404 and is not billed. Errors are
 * `{ status, error: { type, message } }`: 401 bad key, 402 credits used up, 429 rate limit (current versions state the
 * window's end in `x-ratelimit-reset` as an ISO 8601 UTC time, older ones sent `retry-after` seconds).
 * The company record is mapped to the neutral `CompanyProfile`, which other operations reuse.
 */

/** An aggregator's funding facts are secondhand even when it is sure of the company: never fully certain. */
const FUNDING_CONFIDENCE_CAP = 0.9;

export interface PeopleDataLabsOptions {
  apiKey: string;
  /** Default "https://api.peopledatalabs.com/v5"; tests point it at a local fake. */
  baseUrl?: string;
  http: OutboundClient;
  /** The whole call, retries included; default 10 s. */
  timeoutMs?: number;
}

/** What identifies the company; at least one is required, the website being the strongest. */
export interface PeopleDataLabsCompanyQuery {
  website?: string;
  name?: string;
  /** A social profile URL, e.g. the company's LinkedIn page. */
  profile?: string;
}

// Only `likelihood` is required: it is in every documented match, and without it the answer is not one. Every other
// field is optional and becomes null when missing or odd, as PDL itself sends null for what it does not know.
const wholeNumber = z.number().int().nonnegative().nullable().catch(null);
const amount = z.number().nonnegative().nullable().catch(null);

const fundingDetail = z.object({
  funding_type: pdlText,
  funding_raised: amount,
  funding_currency: pdlText,
  funding_round_date: pdlText,
  investing_companies: pdlTextList,
  investing_individuals: pdlTextList,
});

const companyBody = z.object({
  likelihood: z.number(),
  name: pdlText,
  display_name: pdlText,
  website: pdlText,
  summary: pdlText,
  industry: pdlText,
  size: pdlText,
  employee_count: wholeNumber,
  founded: wholeNumber,
  location: z.object({ locality: pdlText, region: pdlText, country: pdlText }).nullable().catch(null),
  linkedin_url: pdlText,
  twitter_url: pdlText,
  facebook_url: pdlText,
  tags: pdlTextList,
  total_funding_raised: amount,
  latest_funding_stage: pdlText,
  last_funding_date: pdlText,
  number_funding_rounds: wholeNumber,
  funding_stages: pdlTextList,
  funding_details: z.array(fundingDetail.nullable().catch(null)).nullable().catch(null),
});

type CompanyBody = z.infer<typeof companyBody>;

/** The company PDL matches to `query`, or null when it has none. Rejects with a `VendorError`. */
export async function fetchPeopleDataLabsCompany(
  options: PeopleDataLabsOptions & { query: PeopleDataLabsCompanyQuery; signal: AbortSignal },
): Promise<CompanyProfile | null> {
  if (options.apiKey === "") throw new Error("The company data adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? PDL_DEFAULT_BASE_URL).href.replace(/\/+$/, "");
  const answer = await requestVendorJson({
    http: options.http,
    url: `${baseUrl}/company/enrich?${companyQuery(options.query)}`,
    headers: { "x-api-key": options.apiKey },
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS,
    retryAfter: pdlRateLimitWait,
  });
  if (!answer.found) return null;
  const parsed = companyBody.safeParse(answer.body);
  if (!parsed.success)
    throw new VendorError("invalid_body", "upstream answered with an unexpected body", { status: answer.status });
  return toCompanyProfile(parsed.data);
}

/** PDL's company funding as a funding provider (id "peopledatalabs"). */
export function createPeopleDataLabsFundingProvider(
  options: PeopleDataLabsOptions & { costCents?: number },
): EnrichmentProvider<IntelligenceProviderInput> {
  if (options.apiKey === "") throw new Error("The company data adapter needs an API key.");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;
  return {
    id: "peopledatalabs",
    operation: "companies_intelligence",
    supplies: ["funding"],
    costCents: options.costCents ?? VENDOR_COSTS_CENTS.peopledatalabs,
    timeoutMs,
    async enrich(input, { signal }) {
      if (input.signal !== "funding") return {};
      const company = await fetchPeopleDataLabsCompany({
        ...options,
        timeoutMs,
        query: { website: input.domain },
        signal,
      });
      const funding = company && toFunding(company.funding);
      return funding
        ? { funding: { value: funding, confidence: Math.min(FUNDING_CONFIDENCE_CAP, company.matchConfidence) } }
        : {};
    },
  };
}

function companyQuery(query: PeopleDataLabsCompanyQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ["website", "name", "profile"] as const) {
    const value = query[name]?.trim();
    if (value) params.set(name, value);
  }
  if (params.size === 0) throw new Error("A website, name or profile is required.");
  return params;
}

function toCompanyProfile(body: CompanyBody): CompanyProfile {
  return {
    name: body.display_name ?? body.name,
    domain: domainOf(body.website),
    description: body.summary,
    industry: body.industry,
    sizeRange: body.size,
    employeeCount: body.employee_count,
    founded: body.founded,
    location: {
      locality: body.location?.locality ?? null,
      region: body.location?.region ?? null,
      country: body.location?.country ?? null,
    },
    socialProfiles: {
      linkedin: profileUrl(body.linkedin_url),
      twitter: profileUrl(body.twitter_url),
      facebook: profileUrl(body.facebook_url),
    },
    tags: body.tags,
    funding: {
      totalRaisedUsd: body.total_funding_raised,
      latestStage: body.latest_funding_stage,
      lastRoundDate: body.last_funding_date,
      roundCount: body.number_funding_rounds,
      rounds: fundingRounds(body),
    },
    matchConfidence: Math.min(1, Math.max(0, body.likelihood / 10)),
  };
}

/**
 * Rounds, oldest first, from the per-round details when the account's field bundle includes them; otherwise one round
 * per listed stage, carrying only its type, and the last funding date on the latest stage, which is what it dates.
 */
function fundingRounds(body: CompanyBody): FundingRound[] {
  const details = (body.funding_details ?? []).flatMap((detail) =>
    detail?.funding_type ? [{ ...detail, funding_type: detail.funding_type }] : [],
  );
  if (details.length > 0) {
    return details
      .map((detail) => ({
        type: detail.funding_type,
        // An amount in another currency is not converted: a guessed rate would be a made-up number.
        amountUsd: detail.funding_currency?.toUpperCase() === "USD" ? detail.funding_raised : null,
        date: detail.funding_round_date,
        investors: [...detail.investing_companies, ...detail.investing_individuals],
      }))
      .sort((a, b) => (a.date ?? "").localeCompare(b.date ?? ""));
  }
  const latestIndex = body.funding_stages.lastIndexOf(body.latest_funding_stage ?? "");
  return body.funding_stages.map((type, index) => ({
    type,
    amountUsd: null,
    date: index === latestIndex ? body.last_funding_date : null,
    investors: [],
  }));
}

/** The `Funding` signal from a profile's summary, or null when the profile says nothing about funding. */
function toFunding(summary: CompanyFundingSummary): Funding | null {
  const { rounds, latestStage, lastRoundDate, totalRaisedUsd } = summary;
  const latestRound = latestStage
    ? (rounds.findLast(
        (round) => round.type === latestStage && (lastRoundDate === null || round.date === lastRoundDate),
      ) ?? {
        type: latestStage,
        amountUsd: null,
        date: lastRoundDate,
        investors: [],
      })
    : (rounds.at(-1) ?? null);
  if (totalRaisedUsd === null && latestRound === null && rounds.length === 0) return null;
  return { totalRaisedUsd, lastRound: latestRound, rounds };
}

const profileUrl = (url: string | null) => (url === null ? null : withScheme(url));
