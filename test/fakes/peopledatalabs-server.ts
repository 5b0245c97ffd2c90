import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { answerLater } from "./answer-later";
import { type FakeVendorRequest, sendJson, sendRedirect, sendTruncatedJson, startFakeVendorServer } from "./vendor-server";

/*
 * A local stand-in for People Data Labs' Company Enrichment API, so adapter tests run offline over real HTTP. The
 * protocol follows PDL's public v5 documentation: `GET /v5/company/enrich` with `website`, `name` or `profile`, the key
 * in `X-Api-Key` (or `api_key` in the query); a match is 200 with the company's fields at the top level next to
 * `status` and `likelihood`; no match is 404; errors are `{ status, error: { type, message } }` (400
 * invalid_request_error, 401 authentication_error, 402 payment_required, 429 rate_limit_error, 5xx); responses carry
 * the documented `x-ratelimit-*` and `x-call-credits-*` headers, a 429's `x-ratelimit-reset` being the window's end as
 * an ISO 8601 UTC time. The companies are handmade and fictional: every domain is under the reserved `.example` TLD.
 */

/** A company record as the API returns it (a subset of the documented Company Schema, with realistic extras). */
export type FakePdlCompany = Record<string, unknown> & { website: string; name: string; likelihood: number };

const location = (locality: string, region: string, country: string) => ({
  name: `${locality}, ${region}, ${country}`,
  locality,
  region,
  metro: `${locality}, ${region}`,
  country,
  continent: "north america",
  street_address: null,
  address_line_2: null,
  postal_code: null,
  geo: null,
});

export const FAKE_PDL_COMPANIES: readonly FakePdlCompany[] = [
  {
    // The record with everything: the premium per-round details included.
    id: "fakePdlAcmeRobotics0001",
    name: "acme robotics",
    display_name: "Acme Robotics",
    size: "51-200",
    employee_count: 142,
    founded: 2016,
    industry: "machinery",
    industry_v2: "industrial machinery manufacturing",
    inferred_revenue: "$10M-$25M",
    location: location("springfield", "oregon", "united states"),
    linkedin_url: "linkedin.example/company/acme-robotics",
    twitter_url: "twitter.example/acmerobotics",
    facebook_url: null,
    website: "acme-robotics.example",
    summary: "acme robotics builds autonomous picking arms for mid-size warehouses.",
    tags: ["robotics", "warehouse automation", "computer vision"],
    type: "private",
    ticker: null,
    total_funding_raised: 41_500_000,
    latest_funding_stage: "series_b",
    last_funding_date: "2024-06-12",
    number_funding_rounds: 3,
    funding_stages: ["seed", "series_a", "series_b"],
    funding_details: [
      {
        funding_round_date: "2024-06-12",
        funding_raised: 30_000_000,
        funding_currency: "USD",
        funding_type: "series_b",
        investing_companies: ["Northwind Ventures", "Bluepeak Capital"],
        investing_individuals: [],
      },
      {
        funding_round_date: "2019-03-04",
        funding_raised: 1_500_000,
        funding_currency: "USD",
        funding_type: "seed",
        investing_companies: [],
        investing_individuals: ["Dana Whitfield"],
      },
      {
        funding_round_date: "2021-09-20",
        funding_raised: 9_000_000,
        funding_currency: "EUR",
        funding_type: "series_a",
        investing_companies: ["Bluepeak Capital"],
        investing_individuals: [],
      },
    ],
    likelihood: 9,
  },
  {
    // Without the premium bundle: stages and the latest date only, no per-round details.
    id: "fakePdlGlobexLogistic02",
    name: "globex logistics",
    display_name: "Globex Logistics",
    size: "201-500",
    employee_count: 388,
    founded: 2009,
    industry: "logistics and supply chain",
    location: location("riverton", "texas", "united states"),
    linkedin_url: "linkedin.example/company/globex-logistics",
    twitter_url: null,
    facebook_url: "facebook.example/globexlogistics",
    website: "www.globex-logistics.example",
    summary: null,
    tags: null,
    total_funding_raised: 12_000_000,
    latest_funding_stage: "series_a",
    last_funding_date: "2018-11-02",
    number_funding_rounds: 2,
    funding_stages: ["seed", "series_a"],
    funding_details: null,
    likelihood: 6,
  },
  {
    // Known, never funded (or not that PDL knows).
    id: "fakePdlQuietHoldings003",
    name: "quiet holdings",
    display_name: "Quiet Holdings",
    size: "1-10",
    employee_count: 4,
    founded: null,
    industry: null,
    location: null,
    linkedin_url: null,
    twitter_url: null,
    facebook_url: null,
    website: "quiet-holdings.example",
    summary: null,
    tags: [],
    total_funding_raised: null,
    latest_funding_stage: null,
    last_funding_date: null,
    number_funding_rounds: null,
    funding_stages: [],
    funding_details: null,
    likelihood: 4,
  },
];

/**
 * `normal` answers per the data; the others simulate what an adapter must survive: `rate_limited` 429 whose
 * `x-ratelimit-reset` is `rateLimitResetSeconds` away, `unauthorized` 401 whatever the key, `out_of_credits` 402,
 * `server_error` 500, `slow` answers after `slowMs`, `malformed` a 200 cut off mid-JSON, `unexpected_shape` a 200
 * without `likelihood`, `redirect` a 302 elsewhere.
 */
export type FakePdlMode =
  | "normal"
  | "rate_limited"
  | "unauthorized"
  | "out_of_credits"
  | "server_error"
  | "slow"
  | "malformed"
  | "unexpected_shape"
  | "redirect";

/** One scripted answer: a mode, or a 429 whose window ends this many seconds from now. */
export type FakePdlAnswer = FakePdlMode | { mode: "rate_limited"; resetInSeconds: number };

export interface FakePdlOptions {
  /** Default: a random 64-character key, the length PDL's keys have. */
  apiKey?: string;
  /** When a `rate_limited` answer's window ends; default 60 s. */
  rateLimitResetSeconds?: number;
  /** How long `slow` waits before answering; default 5 s. */
  slowMs?: number;
}

export interface FakePdl {
  /** Like "https://api.peopledatalabs.com/v5": `${baseUrl}/company/enrich`. */
  baseUrl: string;
  apiKey: string;
  requests: FakeVendorRequest[];
  /** How every request is answered once the queue is empty; clears the queue. */
  setMode(mode: FakePdlMode): void;
  /** Answers for the next requests, one each, before the mode applies again. */
  enqueue(...answers: FakePdlAnswer[]): void;
  close(): Promise<void>;
}

const RATE_LIMIT_PER_MINUTE = 100;

function usageHeaders(remaining: number, resetAt: Date): Record<string, string> {
  return {
    "x-ratelimit-reset": resetAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
    "x-ratelimit-remaining": JSON.stringify({ minute: remaining, day: null, month: null }),
    "x-ratelimit-limit": JSON.stringify({ minute: RATE_LIMIT_PER_MINUTE, day: null, month: null }),
    "x-totallimit-remaining": "1342",
  };
}

function sendError(response: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}) {
  sendJson(response, status, { status, error: { type, message } }, headers);
}

/** "https://www.Acme.example/about" and "acme.example" name the same website. */
function websiteKey(value: string): string {
  return urlKey(value).split("/")[0] ?? "";
}

/** A URL without scheme, "www." or trailing slash, lower-cased: how PDL writes profile URLs. */
function urlKey(value: string): string {
  return value.trim().toLowerCase().replace(/^[a-z][a-z\d+.-]*:\/\//, "").replace(/^www\./, "").replace(/\/+$/, "");
}

function companyEnrich(query: URLSearchParams, response: ServerResponse, resetAt: Date) {
  const website = query.get("website");
  const name = query.get("name");
  const profile = query.get("profile");
  if (!website && !name && !profile) {
    return sendError(response, 400, "invalid_request_error", "You must include at least one of: name, profile, ticker, website, pdl_id");
  }
  const company = FAKE_PDL_COMPANIES.find(
    (item) =>
      (website !== null && websiteKey(item.website) === websiteKey(website)) ||
      (name !== null && item.name === name.trim().toLowerCase()) ||
      (profile !== null && typeof item.linkedin_url === "string" && urlKey(profile) === urlKey(item.linkedin_url)),
  );
  if (!company) return sendError(response, 404, "not_found", "No records were found matching your request", usageHeaders(RATE_LIMIT_PER_MINUTE - 1, resetAt));
  sendJson(response, 200, { status: 200, ...company }, {
    ...usageHeaders(RATE_LIMIT_PER_MINUTE - 1, resetAt),
    "x-call-credits-spent": "1",
    "x-call-credits-type": "enrich_company",
  });
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakePdl(options: FakePdlOptions = {}): Promise<FakePdl> {
  const apiKey = options.apiKey ?? randomBytes(32).toString("hex");
  let mode: FakePdlMode = "normal";
  const queue: FakePdlAnswer[] = [];
  const windowEnd = (seconds: number) => new Date(Date.now() + seconds * 1000);

  const server = await startFakeVendorServer((request, response) => {
    const query = new URLSearchParams(request.query);
    if (request.path !== "/v5/company/enrich" || request.method !== "GET") return sendError(response, 404, "not_found", "Route not found");
    const key = request.headers["x-api-key"] ?? query.get("api_key");
    if (key !== apiKey) return sendError(response, 401, "authentication_error", "Invalid API key");

    const answer = queue.shift() ?? mode;
    if (typeof answer === "object") {
      return sendError(response, 429, "rate_limit_error", "An error occurred due to requests hitting the API too quick", usageHeaders(0, windowEnd(answer.resetInSeconds)));
    }
    switch (answer) {
      case "rate_limited":
        return sendError(
          response,
          429,
          "rate_limit_error",
          "An error occurred due to requests hitting the API too quick",
          usageHeaders(0, windowEnd(options.rateLimitResetSeconds ?? 60)),
        );
      case "unauthorized":
        return sendError(response, 401, "authentication_error", "Invalid API key");
      case "out_of_credits":
        return sendError(response, 402, "payment_required", "You have hit your account maximum for company enrichment");
      case "server_error":
        return sendError(response, 500, "internal_error", "Internal server error");
      case "malformed":
        return sendTruncatedJson(response, '{"status":200,"name":"acme robotics","display_name":"Acme Rob');
      case "unexpected_shape":
        return sendJson(response, 200, { status: 200, data: { name: "acme robotics" } });
      case "redirect":
        return sendRedirect(response, server.origin);
      case "slow":
        return answerLater(response, server.pending, options.slowMs ?? 5_000, () => companyEnrich(query, response, windowEnd(60)));
      case "normal":
        return companyEnrich(query, response, windowEnd(60));
    }
  });

  return {
    baseUrl: `${server.origin}/v5`,
    apiKey,
    requests: server.requests,
    setMode: (next) => {
      mode = next;
      queue.length = 0;
    },
    enqueue: (...answers) => {
      queue.push(...answers);
    },
    close: server.close,
  };
}
