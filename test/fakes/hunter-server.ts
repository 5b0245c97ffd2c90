import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { answerLater } from "./answer-later";
import {
  type FakeVendorRequest,
  sendJson,
  sendOversized,
  sendRedirect,
  sendTruncatedJson,
  startFakeVendorServer,
} from "./vendor-server";

/*
 * A local stand-in for Hunter's API, so adapter and HTTP tests run offline over real HTTP. The protocol (paths
 * `/v2/domain-search` and `/v2/email-finder`, their query parameters, X-API-KEY / api_key authentication, the
 * `{ data, meta }` body and the `{ errors: [{ id, code, details }] }` error shape) follows Hunter's public API v2
 * documentation for Domain Search and Email Finder, as far as it is known without access to the service. Its statuses
 * are Hunter's: 401 for a bad key, 403 when the per-second/per-minute rate limit is hit, 429 when the plan's monthly
 * searches are used up, 404 when the Email Finder has no address for the person, 451 when the person asked not to be
 * processed. The companies, people and addresses below are handmade and fictional: every domain is under the reserved
 * `.example` TLD and every phone number is in the 555-0100..0199 range reserved for fiction.
 */

interface FakeSource {
  domain: string;
  uri: string;
  extracted_on: string;
  last_seen_on: string;
  still_on_page: boolean;
}

interface FakeEmail {
  value: string;
  type: "personal" | "generic";
  confidence: number;
  sources: FakeSource[];
  first_name: string | null;
  last_name: string | null;
  position: string | null;
  seniority: string | null;
  department: string | null;
  // Optional so one record can leave them out entirely, as sparse upstream records sometimes do.
  linkedin?: string | null;
  twitter?: string | null;
  phone_number?: string | null;
  verification: { date: string | null; status: string | null };
}

interface FakeCompany {
  domain: string;
  organization: string | null;
  pattern: string | null;
  accept_all: boolean;
  webmail: boolean;
  disposable: boolean;
  emails: FakeEmail[];
}

function source(domain: string, path: string, extractedOn: string, lastSeenOn: string): FakeSource {
  return {
    domain,
    uri: `https://${domain}${path}`,
    extracted_on: extractedOn,
    last_seen_on: lastSeenOn,
    still_on_page: true,
  };
}

function person(
  value: string,
  [firstName, lastName]: [string, string],
  [position, seniority, department]: [string, string, string],
  confidence: number,
  extra: Partial<FakeEmail> = {},
): FakeEmail {
  const domain = value.split("@")[1] as string;
  return {
    value,
    type: "personal",
    confidence,
    sources: [source(domain, "/about/team", "2024-03-11", "2025-12-02")],
    first_name: firstName,
    last_name: lastName,
    position,
    seniority,
    department,
    linkedin: null,
    twitter: null,
    phone_number: null,
    verification: { date: "2025-11-20", status: "valid" },
    ...extra,
  };
}

function generic(value: string, department: string | null, confidence: number): FakeEmail {
  const domain = value.split("@")[1] as string;
  return {
    value,
    type: "generic",
    confidence,
    sources: [source(domain, "/contact", "2023-09-05", "2025-12-02")],
    first_name: null,
    last_name: null,
    position: null,
    seniority: null,
    department,
    linkedin: null,
    twitter: null,
    phone_number: null,
    verification: { date: "2025-11-20", status: "valid" },
  };
}

export const FAKE_HUNTER_COMPANIES: readonly FakeCompany[] = [
  {
    domain: "acme-robotics.example",
    organization: "Acme Robotics",
    pattern: "{first}.{last}",
    accept_all: false,
    webmail: false,
    disposable: false,
    emails: [
      person(
        "maria.gonzalez@acme-robotics.example",
        ["Maria", "Gonzalez"],
        ["Chief Executive Officer", "executive", "executive"],
        97,
        {
          sources: [
            source("acme-robotics.example", "/about/team", "2024-03-11", "2025-12-02"),
            source("robotics-news.example", "/2024/acme-raises-series-b", "2024-06-18", "2025-10-30"),
          ],
          linkedin: "https://linkedin.example/in/maria-gonzalez",
          twitter: "mgonzalez_acme",
          phone_number: "+1 202-555-0143",
        },
      ),
      person(
        "david.chen@acme-robotics.example",
        ["David", "Chen"],
        ["Chief Technology Officer", "executive", "it"],
        95,
        {
          linkedin: "https://linkedin.example/in/david-chen",
        },
      ),
      person("priya.raman@acme-robotics.example", ["Priya", "Raman"], ["VP of Sales", "executive", "sales"], 93, {
        phone_number: "+1 202-555-0171",
      }),
      person("tom.okafor@acme-robotics.example", ["Tom", "Okafor"], ["Senior Robotics Engineer", "senior", "it"], 88),
      person(
        "lena.fischer@acme-robotics.example",
        ["Lena", "Fischer"],
        ["Senior Account Executive", "senior", "sales"],
        86,
      ),
      person(
        "samuel.reyes@acme-robotics.example",
        ["Samuel", "Reyes"],
        ["Financial Controller", "senior", "finance"],
        84,
      ),
      person("aiko.tanaka@acme-robotics.example", ["Aiko", "Tanaka"], ["Marketing Manager", "senior", "marketing"], 81),
      person("jonas.berg@acme-robotics.example", ["Jonas", "Berg"], ["Software Engineer", "junior", "it"], 74, {
        verification: { date: null, status: null },
        linkedin: undefined,
        twitter: undefined,
        phone_number: undefined,
      }),
      person(
        "chloe.martin@acme-robotics.example",
        ["Chloe", "Martin"],
        ["Sales Development Representative", "junior", "sales"],
        71,
        {
          verification: { date: "2025-08-14", status: "unknown" },
        },
      ),
      generic("info@acme-robotics.example", null, 90),
      generic("sales@acme-robotics.example", "sales", 87),
      generic("support@acme-robotics.example", "support", 85),
    ],
  },
  {
    domain: "globex-logistics.example",
    organization: "Globex Logistics",
    pattern: "{f}{last}",
    accept_all: true,
    webmail: false,
    disposable: false,
    emails: [
      person(
        "hwright@globex-logistics.example",
        ["Helen", "Wright"],
        ["Chief Operating Officer", "executive", "operations"],
        92,
        {
          verification: { date: "2025-10-01", status: "accept_all" },
        },
      ),
      person(
        "rkumar@globex-logistics.example",
        ["Rahul", "Kumar"],
        ["Fleet Operations Manager", "senior", "operations"],
        83,
        {
          verification: { date: "2025-10-01", status: "accept_all" },
        },
      ),
      person("emorales@globex-logistics.example", ["Elena", "Morales"], ["Recruiter", "junior", "hr"], 68, {
        verification: { date: "2025-10-01", status: "accept_all" },
      }),
      generic("dispatch@globex-logistics.example", "operations", 79),
      generic("careers@globex-logistics.example", "hr", 76),
    ],
  },
  {
    // Known to the finder, but nothing found: no organization, no pattern, no addresses.
    domain: "quiet-holdings.example",
    organization: null,
    pattern: null,
    accept_all: false,
    webmail: false,
    disposable: false,
    emails: [],
  },
];

/**
 * `normal` answers per the data; the others simulate the failures an adapter must survive (on every route):
 * `rate_limited` 429 with a Retry-After (`retryAfterSeconds`), `throttled` 403 (Hunter's rate limit, no Retry-After),
 * `usage_exhausted` 429 without Retry-After (the plan's monthly searches are used up), `unauthorized` 401 whatever
 * the key (a revoked key), `server_error` 500, `slow` answers after `slowMs`, `malformed` a 200 cut off mid-JSON,
 * `unexpected_shape` JSON that is not the documented shape, `redirect` a 302 elsewhere, `oversized` a 5 MiB body.
 */
export type FakeHunterMode =
  | "normal"
  | "rate_limited"
  | "throttled"
  | "usage_exhausted"
  | "unauthorized"
  | "server_error"
  | "slow"
  | "malformed"
  | "unexpected_shape"
  | "redirect"
  | "oversized";

/** One scripted answer: a mode, a 429 with this exact Retry-After value, or a 200 with this body. */
export type FakeHunterAnswer = FakeHunterMode | { mode: "rate_limited"; retryAfter: string } | { body: unknown };

export type FakeHunterRequest = FakeVendorRequest;

export interface FakeHunterOptions {
  /** Default: a random key. */
  apiKey?: string;
  /** The `retry-after` of `rate_limited` answers; default 30. */
  retryAfterSeconds?: number;
  /** How long `slow` waits before answering; default 5 s. */
  slowMs?: number;
}

export interface FakeHunter {
  /** Like "https://api.hunter.io/v2": `${baseUrl}/domain-search`, `${baseUrl}/email-finder`. */
  baseUrl: string;
  apiKey: string;
  /** Every request received, oldest first. */
  requests: FakeHunterRequest[];
  /** How every request is answered once the queue is empty. */
  setMode(mode: FakeHunterMode): void;
  /** Answers for the next requests, one each, before the mode applies again; `setMode` clears it. */
  enqueue(...answers: FakeHunterAnswer[]): void;
  close(): Promise<void>;
}

function sendError(
  response: ServerResponse,
  status: number,
  id: string,
  details: string,
  headers: Record<string, string> = {},
) {
  sendJson(response, status, { errors: [{ id, code: status, details }] }, headers);
}

/** As in Hunter: a filter is a comma-separated list of accepted values. */
function matches(value: string | null, filter: string | null): boolean {
  if (filter === null) return true;
  return (
    value !== null &&
    filter
      .split(",")
      .map((item) => item.trim().toLowerCase())
      .includes(value.toLowerCase())
  );
}

function nonNegativeInteger(text: string | null, fallback: number): number | null {
  if (text === null) return fallback;
  return /^\d+$/.test(text) ? Number(text) : null;
}

function domainSearch(query: URLSearchParams, response: ServerResponse) {
  const domain = query.get("domain");
  const companyName = query.get("company");
  const type = query.get("type");
  const seniority = query.get("seniority");
  const department = query.get("department");
  const limit = nonNegativeInteger(query.get("limit"), 10);
  const offset = nonNegativeInteger(query.get("offset"), 0);

  if (!domain && !companyName)
    return sendError(response, 400, "wrong_params", "You are missing the domain or company parameter");
  if (type !== null && type !== "personal" && type !== "generic") {
    return sendError(response, 400, "wrong_params", "The type parameter must be personal or generic");
  }
  if (limit === null || limit < 1 || limit > 100)
    return sendError(response, 400, "wrong_params", "The limit must be between 1 and 100");
  if (offset === null) return sendError(response, 400, "wrong_params", "The offset must be a positive integer");

  // The domain wins when both are given; a company name is matched case-insensitively.
  const company = domain
    ? FAKE_HUNTER_COMPANIES.find((item) => item.domain === domain.toLowerCase())
    : FAKE_HUNTER_COMPANIES.find((item) => item.organization?.toLowerCase() === companyName?.trim().toLowerCase());
  const found = company ?? {
    domain: domain ? domain.toLowerCase() : null,
    organization: null,
    pattern: null,
    accept_all: false,
    webmail: false,
    disposable: false,
    emails: [],
  };
  const emails = found.emails.filter(
    (email) =>
      (type === null || email.type === type) &&
      matches(email.seniority, seniority) &&
      matches(email.department, department),
  );
  sendJson(response, 200, {
    data: { ...found, emails: emails.slice(offset, offset + limit), linked_domains: [] },
    meta: {
      results: emails.length,
      limit,
      offset,
      params: { domain: domain ?? null, company: companyName ?? null, type, seniority, department },
    },
  });
}

/**
 * People who asked Hunter to stop processing their data: the Email Finder answers 451 for them, whatever it knows.
 * (Handmade and fictional, like everyone here.)
 */
export const FAKE_HUNTER_RESTRICTED_PEOPLE: readonly { domain: string; firstName: string; lastName: string }[] = [
  { domain: "acme-robotics.example", firstName: "Noor", lastName: "Haddad" },
];

/** The score the finder gives an address it only derived from the domain's pattern, having seen it nowhere. */
export const FAKE_HUNTER_PATTERN_GUESS_SCORE = 41;

function companyFor(domain: string | null, companyName: string | null): FakeCompany | undefined {
  // As in Domain Search: the domain wins when both are given; a company name is matched case-insensitively.
  return domain
    ? FAKE_HUNTER_COMPANIES.find((item) => item.domain === domain.trim().toLowerCase())
    : FAKE_HUNTER_COMPANIES.find((item) => item.organization?.toLowerCase() === companyName?.trim().toLowerCase());
}

/** The person's name from `first_name` + `last_name`, or from `full_name` (first word, then the rest). */
function requestedName(query: URLSearchParams): { first: string; last: string } | null {
  const first = query.get("first_name")?.trim();
  const last = query.get("last_name")?.trim();
  if (first && last) return { first, last };
  const words = query.get("full_name")?.trim().split(/\s+/) ?? [];
  if (words.length < 2) return null;
  return { first: words[0] as string, last: words.slice(1).join(" ") };
}

/** An address from a pattern such as "{first}.{last}" or "{f}{last}", as the finder derives one. */
function fromPattern(pattern: string, domain: string, { first, last }: { first: string; last: string }): string {
  const clean = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const local = pattern
    .replaceAll("{first}", clean(first))
    .replaceAll("{last}", clean(last))
    .replaceAll("{f}", clean(first).slice(0, 1))
    .replaceAll("{l}", clean(last).slice(0, 1));
  return `${local}@${domain}`;
}

function emailFinder(query: URLSearchParams, response: ServerResponse) {
  const domain = query.get("domain");
  const companyName = query.get("company");
  const maxDuration = query.get("max_duration");
  if (!domain && !companyName)
    return sendError(response, 400, "wrong_params", "You are missing the domain or the company parameter");
  const name = requestedName(query);
  if (!name)
    return sendError(
      response,
      400,
      "wrong_params",
      "You are missing the first_name and last_name, or the full_name parameter",
    );
  if (maxDuration !== null && !(/^\d+$/.test(maxDuration) && Number(maxDuration) >= 3 && Number(maxDuration) <= 20)) {
    return sendError(response, 400, "wrong_params", "The max_duration must be between 3 and 20");
  }

  const company = companyFor(domain, companyName);
  const sameName = (first: string | null, last: string | null) =>
    first?.toLowerCase() === name.first.toLowerCase() && last?.toLowerCase() === name.last.toLowerCase();
  if (
    company &&
    FAKE_HUNTER_RESTRICTED_PEOPLE.some(
      (person) => person.domain === company.domain && sameName(person.firstName, person.lastName),
    )
  ) {
    return sendError(
      response,
      451,
      "restricted_person",
      "The person behind this email address asked us to stop processing their personal data",
    );
  }
  // Unknown company: nothing to derive an address from.
  if (!company) return sendError(response, 404, "not_found", "No email address was found for this person");

  const known = company.emails.find(
    (email) => email.type === "personal" && sameName(email.first_name, email.last_name),
  );
  const guess = !known && company.pattern ? fromPattern(company.pattern, company.domain, name) : null;
  const meta = {
    params: {
      first_name: query.get("first_name"),
      last_name: query.get("last_name"),
      full_name: query.get("full_name"),
      domain,
      company: companyName,
      max_duration: maxDuration,
    },
  };
  const base = { domain: company.domain, accept_all: company.accept_all, company: company.organization };
  if (known) {
    return sendJson(response, 200, {
      data: {
        first_name: known.first_name,
        last_name: known.last_name,
        email: known.value,
        score: known.confidence,
        ...base,
        position: known.position,
        twitter: known.twitter,
        linkedin_url: known.linkedin,
        phone_number: known.phone_number,
        sources: known.sources,
        verification: known.verification,
      },
      meta,
    });
  }
  // Not seen anywhere: a guess from the domain's pattern, or, without one, no address at all (`email: null`).
  sendJson(response, 200, {
    data: {
      first_name: name.first,
      last_name: name.last,
      email: guess,
      score: guess ? FAKE_HUNTER_PATTERN_GUESS_SCORE : null,
      ...base,
      position: null,
      twitter: null,
      linkedin_url: null,
      phone_number: null,
      sources: [],
      verification: { date: null, status: guess && company.accept_all ? "accept_all" : null },
    },
    meta,
  });
}

/** The bodies the failure modes send, per route: each route's own documented shape, broken. */
const BROKEN_BODIES = {
  "/v2/domain-search": {
    truncated: '{"data":{"domain":"acme-robotics.example","emails":[{"value":"maria.gonz',
    unexpected: { data: { domain: "acme-robotics.example", emails: { count: 12 } } },
  },
  "/v2/email-finder": {
    truncated: '{"data":{"first_name":"Maria","last_name":"Gonzalez","email":"maria.gonz',
    unexpected: { data: { email: { value: "maria.gonzalez@acme-robotics.example" }, score: "high" } },
  },
} as const;

type FakeHunterRoute = keyof typeof BROKEN_BODIES;

const ROUTES: Record<FakeHunterRoute, (query: URLSearchParams, response: ServerResponse) => void> = {
  "/v2/domain-search": domainSearch,
  "/v2/email-finder": emailFinder,
};

function isRoute(path: string): path is FakeHunterRoute {
  return Object.hasOwn(ROUTES, path);
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeHunter(options: FakeHunterOptions = {}): Promise<FakeHunter> {
  const apiKey = options.apiKey ?? `fake_${randomBytes(16).toString("hex")}`;
  let mode: FakeHunterMode = "normal";
  const queue: FakeHunterAnswer[] = [];

  const server = await startFakeVendorServer((request, response) => {
    const query = new URLSearchParams(request.query);
    const route = request.path;
    if (!isRoute(route) || request.method !== "GET")
      return sendError(response, 404, "not_found", "This route does not exist");
    const key = request.headers["x-api-key"] ?? query.get("api_key");
    if (key !== apiKey)
      return sendError(response, 401, "authentication_failed", "No user found for the API key supplied");

    const answer = queue.shift() ?? mode;
    if (typeof answer === "object") {
      if ("body" in answer) return sendJson(response, 200, answer.body);
      return sendError(response, 429, "too_many_requests", "You have reached your rate limit", {
        "retry-after": answer.retryAfter,
      });
    }
    switch (answer) {
      case "rate_limited":
        return sendError(response, 429, "too_many_requests", "You have reached your rate limit", {
          "retry-after": String(options.retryAfterSeconds ?? 30),
        });
      case "throttled":
        return sendError(response, 403, "too_many_requests", "You have reached the rate limit for this API key");
      case "usage_exhausted":
        return sendError(
          response,
          429,
          "too_many_requests",
          "You've reached the limit for the number of searches per billing period included in your plan.",
        );
      case "unauthorized":
        return sendError(response, 401, "authentication_failed", "No user found for the API key supplied");
      case "server_error":
        return sendError(response, 500, "server_error", "Something went wrong on our side");
      case "malformed":
        return sendTruncatedJson(response, BROKEN_BODIES[route].truncated);
      case "unexpected_shape":
        return sendJson(response, 200, BROKEN_BODIES[route].unexpected);
      case "redirect":
        return sendRedirect(response, server.origin);
      case "oversized":
        return sendOversized(response, 5 * 1024 * 1024, false);
      case "slow":
        return answerLater(response, server.pending, options.slowMs ?? 5_000, () => ROUTES[route](query, response));
      case "normal":
        return ROUTES[route](query, response);
    }
  });

  return {
    baseUrl: `${server.origin}/v2`,
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
