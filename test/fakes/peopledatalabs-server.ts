import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { answerLater } from "./answer-later";
import {
  type FakeVendorRequest,
  sendJson,
  sendRedirect,
  sendTruncatedJson,
  startFakeVendorServer,
} from "./vendor-server";

/*
 * A local stand-in for People Data Labs' Company and Person Enrichment APIs, so adapter tests run offline over real
 * HTTP. The protocol follows PDL's public v5 documentation: `GET /v5/company/enrich` with `website`, `name` or
 * `profile`, and `GET /v5/person/enrich` with `email` or `profile` (plus `min_likelihood`, `required`, `titlecase`),
 * the key in `X-Api-Key` (or `api_key` in the query). A company match is 200 with the company's fields at the top
 * level next to `status` and `likelihood`; a person match is 200 `{ status, likelihood, data: { …person… } }`; no
 * match is 404; errors are `{ status, error: { type, message } }` (400 invalid_request_error, 401
 * authentication_error, 402 payment_required, 429 rate_limit_error, 5xx); responses carry the documented
 * `x-ratelimit-*` and `x-call-credits-*` headers, a 429's `x-ratelimit-reset` being the window's end as an ISO 8601
 * UTC time. The companies and people are handmade and fictional: every domain is under the reserved `.example` TLD
 * and every phone number is in the 555-0100..0199 range reserved for fiction.
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
 * `normal` answers per the data; the others simulate what an adapter must survive (on every route): `rate_limited`
 * 429 whose `x-ratelimit-reset` is `rateLimitResetSeconds` away, `unauthorized` 401 whatever the key,
 * `out_of_credits` 402, `server_error` 500, `slow` answers after `slowMs`, `malformed` a 200 cut off mid-JSON,
 * `unexpected_shape` a 200 without `likelihood`, `redirect` a 302 elsewhere.
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

/** One scripted answer: a mode, a 429 whose window ends this many seconds from now, or a 200 with this body. */
export type FakePdlAnswer = FakePdlMode | { mode: "rate_limited"; resetInSeconds: number } | { body: unknown };

export interface FakePdlOptions {
  /** Default: a random 64-character key, the length PDL's keys have. */
  apiKey?: string;
  /** When a `rate_limited` answer's window ends; default 60 s. */
  rateLimitResetSeconds?: number;
  /** How long `slow` waits before answering; default 5 s. */
  slowMs?: number;
}

export interface FakePdl {
  /** Like "https://api.peopledatalabs.com/v5": `${baseUrl}/company/enrich`, `${baseUrl}/person/enrich`. */
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

function sendError(
  response: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  sendJson(response, status, { status, error: { type, message } }, headers);
}

/** "https://www.Acme.example/about" and "acme.example" name the same website. */
function websiteKey(value: string): string {
  return urlKey(value).split("/")[0] ?? "";
}

/** A URL without scheme, "www." or trailing slash, lower-cased: how PDL writes profile URLs. */
function urlKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z\d+.-]*:\/\//, "")
    .replace(/^www\./, "")
    .replace(/\/+$/, "");
}

function companyEnrich(query: URLSearchParams, response: ServerResponse, resetAt: Date) {
  const website = query.get("website");
  const name = query.get("name");
  const profile = query.get("profile");
  if (!website && !name && !profile) {
    return sendError(
      response,
      400,
      "invalid_request_error",
      "You must include at least one of: name, profile, ticker, website, pdl_id",
    );
  }
  const company = FAKE_PDL_COMPANIES.find(
    (item) =>
      (website !== null && websiteKey(item.website) === websiteKey(website)) ||
      (name !== null && item.name === name.trim().toLowerCase()) ||
      (profile !== null && typeof item.linkedin_url === "string" && urlKey(profile) === urlKey(item.linkedin_url)),
  );
  if (!company)
    return sendError(
      response,
      404,
      "not_found",
      "No records were found matching your request",
      usageHeaders(RATE_LIMIT_PER_MINUTE - 1, resetAt),
    );
  sendJson(
    response,
    200,
    { status: 200, ...company },
    {
      ...usageHeaders(RATE_LIMIT_PER_MINUTE - 1, resetAt),
      "x-call-credits-spent": "1",
      "x-call-credits-type": "enrich_company",
    },
  );
}

/** A person record as the API returns it in `data` (a subset of the documented Person Schema), and its likelihood. */
export interface FakePdlPerson {
  likelihood: number;
  data: Record<string, unknown> & { full_name: string };
}

function personRecord(fields: Record<string, unknown> & { full_name: string }): FakePdlPerson["data"] {
  // Every field the schema has and the record does not state is null, as the API sends it.
  return {
    id: null,
    first_name: null,
    last_name: null,
    middle_name: null,
    sex: null,
    linkedin_url: null,
    linkedin_username: null,
    twitter_url: null,
    twitter_username: null,
    github_url: null,
    github_username: null,
    facebook_url: null,
    facebook_username: null,
    work_email: null,
    personal_emails: [],
    recommended_personal_email: null,
    mobile_phone: null,
    phone_numbers: [],
    emails: [],
    industry: null,
    job_title: null,
    job_title_role: null,
    job_title_sub_role: null,
    job_title_class: null,
    job_title_levels: [],
    job_company_id: null,
    job_company_name: null,
    job_company_website: null,
    job_company_size: null,
    job_company_industry: null,
    job_company_linkedin_url: null,
    job_start_date: null,
    location_name: null,
    location_locality: null,
    location_metro: null,
    location_region: null,
    location_country: null,
    location_continent: null,
    skills: [],
    profiles: [],
    ...fields,
  };
}

export const FAKE_PDL_PEOPLE: readonly FakePdlPerson[] = [
  {
    // The record with everything, contact fields included (a Pro plan's view).
    likelihood: 9,
    data: personRecord({
      id: "fakePdlMariaGonzalez001",
      full_name: "maria gonzalez",
      first_name: "maria",
      last_name: "gonzalez",
      sex: "female",
      linkedin_url: "linkedin.example/in/maria-gonzalez",
      linkedin_username: "maria-gonzalez",
      twitter_url: "twitter.example/mgonzalez_acme",
      twitter_username: "mgonzalez_acme",
      work_email: "maria.gonzalez@acme-robotics.example",
      personal_emails: ["maria.g.home@mail.example"],
      recommended_personal_email: "maria.g.home@mail.example",
      // The mobile number, listed again among the others, once more in another format.
      mobile_phone: "+12025550143",
      phone_numbers: ["+12025550143", "+1 (202) 555-0177", "202-555-0160"],
      emails: [
        { address: "maria.gonzalez@acme-robotics.example", type: "current_professional" },
        { address: "maria.g.home@mail.example", type: "personal" },
      ],
      industry: "machinery",
      job_title: "chief executive officer",
      job_title_role: "operations",
      job_title_sub_role: "executive",
      job_title_class: "general_and_administrative",
      job_title_levels: ["cxo", "owner"],
      job_company_id: "fakePdlAcmeRobotics0001",
      job_company_name: "acme robotics",
      job_company_website: "acme-robotics.example",
      job_company_size: "51-200",
      job_company_industry: "machinery",
      job_company_linkedin_url: "linkedin.example/company/acme-robotics",
      job_start_date: "2016-02",
      location_name: "springfield, oregon, united states",
      location_locality: "springfield",
      location_metro: "eugene, oregon",
      location_region: "oregon",
      location_country: "united states",
      location_continent: "north america",
      skills: ["robotics", "leadership"],
      profiles: [
        { network: "linkedin", url: "linkedin.example/in/maria-gonzalez", username: "maria-gonzalez" },
        { network: "twitter", url: "twitter.example/mgonzalez_acme", username: "mgonzalez_acme" },
      ],
    }),
  },
  {
    // No mobile number; one other phone; social profiles beyond LinkedIn.
    likelihood: 7,
    data: personRecord({
      id: "fakePdlHelenWright00002",
      full_name: "helen wright",
      first_name: "helen",
      last_name: "wright",
      linkedin_url: "linkedin.example/in/helen-wright",
      linkedin_username: "helen-wright",
      github_url: "github.example/hwright",
      github_username: "hwright",
      facebook_url: "facebook.example/helen.wright",
      facebook_username: "helen.wright",
      work_email: "hwright@globex-logistics.example",
      phone_numbers: ["+12025550119"],
      emails: [{ address: "hwright@globex-logistics.example", type: "current_professional" }],
      job_title: "chief operating officer",
      job_title_role: "operations",
      job_title_sub_role: "logistics",
      job_title_levels: ["cxo"],
      job_company_name: "globex logistics",
      job_company_website: "www.globex-logistics.example",
      location_name: "riverton, texas, united states",
      location_locality: "riverton",
      location_region: "texas",
      location_country: "united states",
    }),
  },
  {
    // A free plan's view: contact fields say only whether a value exists (`true`), never the value.
    likelihood: 8,
    data: personRecord({
      id: "fakePdlTomOkafor000003",
      full_name: "tom okafor",
      first_name: "tom",
      last_name: "okafor",
      linkedin_url: "linkedin.example/in/tom-okafor",
      work_email: true,
      personal_emails: true,
      mobile_phone: true,
      phone_numbers: true,
      emails: true,
      job_title: "senior robotics engineer",
      job_title_role: "engineering",
      job_title_sub_role: "robotics",
      job_title_levels: ["senior"],
      job_company_name: "acme robotics",
      job_company_website: "acme-robotics.example",
      location_country: "united states",
    }),
  },
  {
    // A weak match, only returned when the caller accepts a likelihood this low; no phone number.
    likelihood: 3,
    data: personRecord({
      id: "fakePdlJonasBerg000004",
      full_name: "jonas berg",
      first_name: "jonas",
      last_name: "berg",
      linkedin_url: "linkedin.example/in/jonas-berg",
      work_email: "jonas.berg@acme-robotics.example",
      job_title: "software engineer",
      job_title_levels: ["entry"],
      job_company_name: "acme robotics",
      job_company_website: "acme-robotics.example",
    }),
  },
];

/** The default `min_likelihood`, as documented. */
const DEFAULT_MIN_LIKELIHOOD = 2;

/** The text fields `titlecase=true` capitalises (names, titles, places); addresses, URLs and codes stay as they are. */
const TITLECASED_FIELDS = [
  "full_name",
  "first_name",
  "last_name",
  "middle_name",
  "industry",
  "job_title",
  "job_company_name",
  "job_company_industry",
  "location_name",
  "location_locality",
  "location_metro",
  "location_region",
  "location_country",
  "location_continent",
];

function titlecased(data: FakePdlPerson["data"]): FakePdlPerson["data"] {
  const result = { ...data };
  for (const field of TITLECASED_FIELDS) {
    const value = result[field];
    if (typeof value === "string") result[field] = value.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
  }
  return result;
}

/** A field holds something: not null, not false, not an empty list (a free plan's `true` counts). */
function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);
}

/** The `required` parameter, flat: fields joined by AND within groups joined by OR ("a AND b OR c"). */
function meetsRequired(data: Record<string, unknown>, required: string): boolean {
  return required
    .split(/\s+OR\s+/)
    .some((group) => group.split(/\s+AND\s+/).every((field) => present(data[field.trim()])));
}

function emailsOf(data: Record<string, unknown>): string[] {
  const listed = [data.work_email, ...(Array.isArray(data.personal_emails) ? data.personal_emails : [])];
  const typed = Array.isArray(data.emails) ? data.emails.map((item: { address?: unknown }) => item.address) : [];
  return [...listed, ...typed]
    .filter((item): item is string => typeof item === "string")
    .map((item) => item.toLowerCase());
}

function profilesOf(data: Record<string, unknown>): string[] {
  const listed = [data.linkedin_url, data.twitter_url, data.github_url, data.facebook_url];
  const typed = Array.isArray(data.profiles) ? data.profiles.map((item: { url?: unknown }) => item.url) : [];
  return [...listed, ...typed].filter((item): item is string => typeof item === "string").map(urlKey);
}

function personEnrich(query: URLSearchParams, response: ServerResponse, resetAt: Date) {
  const email = query.get("email");
  const profile = query.get("profile");
  const hasName = Boolean(query.get("name") || (query.get("first_name") && query.get("last_name")));
  const hasContext = [
    "company",
    "school",
    "location",
    "street_address",
    "locality",
    "region",
    "country",
    "postal_code",
    "birth_date",
  ].some((name) => query.get(name));
  const identifying = ["email", "profile", "phone", "email_hash", "lid", "pdl_id"].some((name) => query.get(name));
  if (!identifying && !(hasName && hasContext)) {
    return sendError(
      response,
      400,
      "invalid_request_error",
      "Request needs a profile, email, phone, email_hash, lid, pdl_id, or a name with context",
    );
  }
  const minText = query.get("min_likelihood");
  if (minText !== null && !(/^\d+$/.test(minText) && Number(minText) >= 1 && Number(minText) <= 10)) {
    return sendError(response, 400, "invalid_request_error", "min_likelihood must be an integer between 1 and 10");
  }
  const minLikelihood = minText === null ? DEFAULT_MIN_LIKELIHOOD : Number(minText);
  const required = query.get("required");

  // The fake matches on email and profile only; other inputs are valid but find no one here.
  const person = FAKE_PDL_PEOPLE.find(
    (item) =>
      (email !== null && emailsOf(item.data).includes(email.trim().toLowerCase())) ||
      (profile !== null && profilesOf(item.data).includes(urlKey(profile))),
  );
  const usage = usageHeaders(RATE_LIMIT_PER_MINUTE - 1, resetAt);
  if (!person || person.likelihood < minLikelihood || (required !== null && !meetsRequired(person.data, required))) {
    return sendError(response, 404, "not_found", "No records were found matching your request", usage);
  }
  const data = query.get("titlecase") === "true" ? titlecased(person.data) : person.data;
  sendJson(
    response,
    200,
    { status: 200, likelihood: person.likelihood, data },
    {
      ...usage,
      "x-call-credits-spent": "1",
      "x-call-credits-type": "enrich_person",
    },
  );
}

/** Each route's answer, and the bodies its failure modes send (its own documented shape, broken). */
const ROUTES = {
  "/v5/company/enrich": {
    answer: companyEnrich,
    product: "company enrichment",
    truncated: '{"status":200,"name":"acme robotics","display_name":"Acme Rob',
    unexpected: { status: 200, data: { name: "acme robotics" } },
  },
  "/v5/person/enrich": {
    answer: personEnrich,
    product: "person enrichment",
    truncated: '{"status":200,"likelihood":9,"data":{"full_name":"maria gonz',
    unexpected: { status: 200, data: { full_name: "maria gonzalez" } },
  },
} as const;

type FakePdlRoute = keyof typeof ROUTES;

function isRoute(path: string): path is FakePdlRoute {
  return Object.hasOwn(ROUTES, path);
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakePdl(options: FakePdlOptions = {}): Promise<FakePdl> {
  const apiKey = options.apiKey ?? randomBytes(32).toString("hex");
  let mode: FakePdlMode = "normal";
  const queue: FakePdlAnswer[] = [];
  const windowEnd = (seconds: number) => new Date(Date.now() + seconds * 1000);

  const server = await startFakeVendorServer((request, response) => {
    const query = new URLSearchParams(request.query);
    const path = request.path;
    if (!isRoute(path) || request.method !== "GET") return sendError(response, 404, "not_found", "Route not found");
    const route = ROUTES[path];
    const key = request.headers["x-api-key"] ?? query.get("api_key");
    if (key !== apiKey) return sendError(response, 401, "authentication_error", "Invalid API key");

    const answer = queue.shift() ?? mode;
    if (typeof answer === "object") {
      if ("body" in answer) return sendJson(response, 200, answer.body);
      return sendError(
        response,
        429,
        "rate_limit_error",
        "An error occurred due to requests hitting the API too quick",
        usageHeaders(0, windowEnd(answer.resetInSeconds)),
      );
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
        return sendError(response, 402, "payment_required", `You have hit your account maximum for ${route.product}`);
      case "server_error":
        return sendError(response, 500, "internal_error", "Internal server error");
      case "malformed":
        return sendTruncatedJson(response, route.truncated);
      case "unexpected_shape":
        return sendJson(response, 200, route.unexpected);
      case "redirect":
        return sendRedirect(response, server.origin);
      case "slow":
        return answerLater(response, server.pending, options.slowMs ?? 5_000, () =>
          route.answer(query, response, windowEnd(60)),
        );
      case "normal":
        return route.answer(query, response, windowEnd(60));
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
