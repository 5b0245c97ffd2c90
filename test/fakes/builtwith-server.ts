import { randomUUID } from "node:crypto";
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
 * A local stand-in for BuiltWith's Domain API, so adapter tests run offline over real HTTP. The protocol follows
 * BuiltWith's public documentation for Domain API v22: `GET /v22/api.json?KEY=…&LOOKUP=…` with the optional NOMETA,
 * NOPII, NOATTR, HIDETEXT, HIDEDL and LIVEONLY switches; the answer `{ Results: [{ Result: { IsDB, Spend, Paths:
 * [{ Domain, Url, SubDomain, FirstIndexed, LastIndexed, Technologies: [{ Categories, IsPremium, Name, Description,
 * Link, Tag, FirstDetected, LastDetected }] }] }, Meta, Attributes, FirstIndexed, LastIndexed, Lookup }], Errors }`,
 * times in epoch milliseconds; errors reported in `Errors` with a 200 for a lookup it cannot do; the
 * `X-API-CREDITS-*` headers. A bad key is answered 401 with an `Errors` body (BuiltWith documents 401 for invalid
 * keys on its newer endpoints; the Domain API page does not say). Unknown domains get a result without paths.
 * The domains are handmade and fictional, under the reserved `.example` TLD; the technologies are real product names.
 */

const ms = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`);

interface FakeTechnology {
  Name: string;
  Tag: string | null;
  Categories: string[] | null;
  FirstDetected: number;
  LastDetected: number;
  IsPremium: "yes" | "no" | "maybe";
  Description: string;
  Link: string;
}

interface FakePath {
  Domain: string;
  SubDomain: string;
  Url: string;
  FirstIndexed: number;
  LastIndexed: number;
  /** Also odd entries, as a lenient client must survive them. */
  Technologies: (FakeTechnology | Record<string, unknown>)[];
}

function tech(
  name: string,
  tag: string | null,
  categories: string[] | null,
  first: string,
  last: string,
): FakeTechnology {
  return {
    Name: name,
    Tag: tag,
    Categories: categories,
    FirstDetected: ms(first),
    LastDetected: ms(last),
    IsPremium: "no",
    Description: `${name} as detected on the site.`,
    Link: `https://technology-directory.example/${encodeURIComponent(name.toLowerCase())}`,
  };
}

function path(domain: string, subDomain: string, technologies: FakePath["Technologies"]): FakePath {
  return {
    Domain: domain,
    SubDomain: subDomain,
    Url: "",
    FirstIndexed: ms("2017-01-01"),
    LastIndexed: ms("2025-11-28"),
    Technologies: technologies,
  };
}

/** Lookup → the paths BuiltWith has indexed for it. */
export const FAKE_BUILTWITH_DOMAINS: Readonly<Record<string, FakePath[]>> = {
  "acme-robotics.example": [
    path("acme-robotics.example", "", [
      tech("Google Analytics", "analytics", ["Audience Measurement"], "2019-02-10", "2025-11-20"),
      tech("jQuery", "javascript", null, "2018-05-01", "2025-11-25"),
      tech("Drift", "widgets", ["Live Chat"], "2020-01-15", "2025-03-10"),
      tech("Marketo", "analytics", ["Marketing Automation"], "2017-06-01", "2023-08-01"),
      { Name: "", Tag: "widgets", FirstDetected: ms("2020-01-01"), LastDetected: ms("2025-11-01") },
      { Tag: "cdn", IsPremium: "no" },
    ]),
    path("acme-robotics.example", "shop", [
      tech("JQuery", "javascript", null, "2017-09-01", "2025-10-01"),
      tech("Stripe", "payment", ["Payments Processor"], "2021-04-01", "2025-11-28"),
    ]),
  ],
  "globex-logistics.example": [
    path("globex-logistics.example", "", [
      tech("WordPress", "cms", ["Open Source", "Blog"], "2012-03-01", "2025-11-15"),
      tech("Cloudflare", "cdn", null, "2016-08-01", "2025-11-27"),
    ]),
  ],
  "quiet-holdings.example": [],
};

/**
 * `normal` answers per the data; the others simulate what an adapter must survive: `rate_limited` 429 with a
 * Retry-After (`retryAfterSeconds`), `unauthorized` 401 whatever the key, `server_error` 503, `slow` answers after
 * `slowMs`, `malformed` a 200 cut off mid-JSON, `unexpected_shape` a 200 without `Results`, `redirect` a 302.
 */
export type FakeBuiltWithMode =
  "normal" | "rate_limited" | "unauthorized" | "server_error" | "slow" | "malformed" | "unexpected_shape" | "redirect";

/** One scripted answer: a mode, or a 429 with this exact Retry-After value. */
export type FakeBuiltWithAnswer = FakeBuiltWithMode | { mode: "rate_limited"; retryAfter: string };

export interface FakeBuiltWithOptions {
  /** Default: a random key in BuiltWith's UUID format. */
  apiKey?: string;
  /** The `retry-after` of `rate_limited` answers; default 30. */
  retryAfterSeconds?: number;
  /** How long `slow` waits before answering; default 5 s. */
  slowMs?: number;
}

export interface FakeBuiltWith {
  /** Like "https://api.builtwith.com/v22": `${baseUrl}/api.json`. */
  baseUrl: string;
  apiKey: string;
  requests: FakeVendorRequest[];
  /** How every request is answered once the queue is empty; clears the queue. */
  setMode(mode: FakeBuiltWithMode): void;
  /** Answers for the next requests, one each, before the mode applies again. */
  enqueue(...answers: FakeBuiltWithAnswer[]): void;
  close(): Promise<void>;
}

const CREDIT_HEADERS = {
  "x-api-credits-available": "2000",
  "x-api-credits-used": "118",
  "x-api-credits-remaining": "1882",
};

function sendErrors(
  response: ServerResponse,
  status: number,
  lookup: string | null,
  message: string,
  headers: Record<string, string> = {},
) {
  sendJson(response, status, { Results: [], Errors: [{ Lookup: lookup, Message: message, Code: -1 }] }, headers);
}

function flag(query: URLSearchParams, name: string): boolean {
  return query.has(name) && query.get(name)?.toLowerCase() !== "no";
}

function domainLookup(query: URLSearchParams, response: ServerResponse) {
  const lookup = query.get("LOOKUP")?.trim().toLowerCase() ?? "";
  if (!/^[a-z\d-]+(\.[a-z\d-]+)+$/.test(lookup))
    return sendErrors(response, 200, lookup || null, "Lookup must be a domain, subdomain or URL", CREDIT_HEADERS);
  const hideDetails = flag(query, "HIDEDL") || flag(query, "HIDETEXT");
  const paths = (FAKE_BUILTWITH_DOMAINS[lookup] ?? []).map((item) => ({
    ...item,
    Technologies: item.Technologies.map((technology) => {
      if (!hideDetails) return technology;
      const { Description: _description, Link: _link, ...rest } = technology;
      return rest;
    }),
  }));
  sendJson(
    response,
    200,
    {
      Results: [
        {
          Result: { IsDB: paths.length > 0 ? "True" : "False", Spend: paths.length > 0 ? 420 : 0, Paths: paths },
          Meta: flag(query, "NOMETA")
            ? null
            : { CompanyName: null, Vertical: "Technology", Social: [], Telephones: [], Emails: [] },
          Attributes: flag(query, "NOATTR") ? null : { Employees: 0, MJRank: 0 },
          FirstIndexed: ms("2017-01-01"),
          LastIndexed: ms("2025-11-28"),
          Lookup: lookup,
        },
      ],
      Errors: [],
    },
    CREDIT_HEADERS,
  );
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeBuiltWith(options: FakeBuiltWithOptions = {}): Promise<FakeBuiltWith> {
  const apiKey = options.apiKey ?? randomUUID();
  let mode: FakeBuiltWithMode = "normal";
  const queue: FakeBuiltWithAnswer[] = [];

  const server = await startFakeVendorServer((request, response) => {
    const query = new URLSearchParams(request.query);
    if (request.path !== "/v22/api.json" || request.method !== "GET")
      return sendErrors(response, 404, null, "Not found");
    if (query.get("KEY") !== apiKey)
      return sendErrors(response, 401, query.get("LOOKUP"), "Invalid or missing API key");

    const answer = queue.shift() ?? mode;
    if (typeof answer === "object")
      return sendErrors(response, 429, query.get("LOOKUP"), "Too many requests", { "retry-after": answer.retryAfter });
    switch (answer) {
      case "rate_limited":
        return sendErrors(response, 429, query.get("LOOKUP"), "Too many requests", {
          "retry-after": String(options.retryAfterSeconds ?? 30),
        });
      case "unauthorized":
        return sendErrors(response, 401, query.get("LOOKUP"), "Invalid or missing API key");
      case "server_error":
        return sendErrors(response, 503, query.get("LOOKUP"), "Service temporarily unavailable");
      case "malformed":
        return sendTruncatedJson(
          response,
          '{"Results":[{"Result":{"IsDB":"True","Paths":[{"Technologies":[{"Name":"jQu',
        );
      case "unexpected_shape":
        return sendJson(response, 200, { results: [{ technologies: [] }] });
      case "redirect":
        return sendRedirect(response, server.origin);
      case "slow":
        return answerLater(response, server.pending, options.slowMs ?? 5_000, () => domainLookup(query, response));
      case "normal":
        return domainLookup(query, response);
    }
  });

  return {
    baseUrl: `${server.origin}/v22`,
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
