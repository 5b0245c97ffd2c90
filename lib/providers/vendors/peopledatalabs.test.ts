import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Funding, IntelligenceSignal } from "@/lib/providers/fields/intelligence";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import type { CompanyProfile } from "./company-profile";
import { createPeopleDataLabsFundingProvider, fetchPeopleDataLabsCompany } from "./peopledatalabs";
import { vendorFailure, withRequestCount } from "@/test/vendor-failures";

// Real HTTP on loopback against the local fake, through the real outbound client; nothing here can reach the vendor.
const http = createOutboundClient({ allowLoopback: true });
let fake: FakePdl;

beforeAll(async () => {
  fake = await startFakePdl({ rateLimitResetSeconds: 60, slowMs: 5_000 });
});

afterEach(() => {
  fake.setMode("normal");
});

afterAll(async () => {
  await fake.close();
});

function provider(overrides: { apiKey?: string; baseUrl?: string; timeoutMs?: number } = {}) {
  return createPeopleDataLabsFundingProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http, ...overrides });
}

function enrich(domain: string, signal: IntelligenceSignal = "funding", abort = AbortSignal.timeout(10_000)) {
  return provider().enrich({ domain, signal }, { signal: abort });
}

function fetchCompany(query: { website?: string; name?: string; profile?: string }) {
  return fetchPeopleDataLabsCompany({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    http,
    query,
    signal: AbortSignal.timeout(10_000),
  });
}

function failure(call: Promise<unknown>, apiKey = fake.apiKey) {
  return vendorFailure(call, [
    /people ?data ?labs|pdl/i,
    apiKey,
    /too quick|invalid api key|account maximum|internal server/i,
  ]);
}

const ACME_PROFILE: CompanyProfile = {
  name: "Acme Robotics",
  domain: "acme-robotics.example",
  description: "acme robotics builds autonomous picking arms for mid-size warehouses.",
  industry: "machinery",
  sizeRange: "51-200",
  employeeCount: 142,
  founded: 2016,
  location: { locality: "springfield", region: "oregon", country: "united states" },
  socialProfiles: {
    linkedin: "https://linkedin.example/company/acme-robotics",
    twitter: "https://twitter.example/acmerobotics",
    facebook: null,
  },
  tags: ["robotics", "warehouse automation", "computer vision"],
  funding: {
    totalRaisedUsd: 41_500_000,
    latestStage: "series_b",
    lastRoundDate: "2024-06-12",
    roundCount: 3,
    rounds: [
      { type: "seed", amountUsd: 1_500_000, date: "2019-03-04", investors: ["Dana Whitfield"] },
      // Raised in euros: the amount is not converted, so it is not stated in dollars.
      { type: "series_a", amountUsd: null, date: "2021-09-20", investors: ["Bluepeak Capital"] },
      {
        type: "series_b",
        amountUsd: 30_000_000,
        date: "2024-06-12",
        investors: ["Northwind Ventures", "Bluepeak Capital"],
      },
    ],
  },
  matchConfidence: 0.9,
};

describe("company data adapter: company profile", () => {
  it("maps a full record, per-round details included, to the neutral profile", async () => {
    expect(await fetchCompany({ website: "acme-robotics.example" })).toEqual(ACME_PROFILE);
  });

  it("maps a record without per-round details: one round per stage, the latest one dated", async () => {
    expect(await fetchCompany({ website: "https://www.globex-logistics.example/" })).toEqual({
      name: "Globex Logistics",
      domain: "globex-logistics.example",
      description: null,
      industry: "logistics and supply chain",
      sizeRange: "201-500",
      employeeCount: 388,
      founded: 2009,
      location: { locality: "riverton", region: "texas", country: "united states" },
      socialProfiles: {
        linkedin: "https://linkedin.example/company/globex-logistics",
        twitter: null,
        facebook: "https://facebook.example/globexlogistics",
      },
      tags: [],
      funding: {
        totalRaisedUsd: 12_000_000,
        latestStage: "series_a",
        lastRoundDate: "2018-11-02",
        roundCount: 2,
        rounds: [
          { type: "seed", amountUsd: null, date: null, investors: [] },
          { type: "series_a", amountUsd: null, date: "2018-11-02", investors: [] },
        ],
      },
      matchConfidence: 0.6,
    } satisfies CompanyProfile);
  });

  it("finds a company by name or by profile too", async () => {
    expect((await fetchCompany({ name: "Acme Robotics" }))?.domain).toBe("acme-robotics.example");
    expect(fake.requests.at(-1)?.query).toEqual({ name: "Acme Robotics" });
    expect((await fetchCompany({ profile: "https://linkedin.example/company/globex-logistics" }))?.name).toBe(
      "Globex Logistics",
    );
  });

  it("no match (404) is null, not a failure", async () => {
    expect(await fetchCompany({ website: "nobody-here.example" })).toBeNull();
  });

  it("refuses a query with nothing to match on", async () => {
    await expect(fetchCompany({ website: "  " })).rejects.toThrow(/website, name or profile/);
  });
});

describe("company data adapter: funding provider", () => {
  it("is an internal funding provider costing 10 cents by default", () => {
    expect(provider()).toMatchObject({
      id: "peopledatalabs",
      operation: "companies_intelligence",
      supplies: ["funding"],
      costCents: 10,
      timeoutMs: 10_000,
    });
    expect(createPeopleDataLabsFundingProvider({ apiKey: "k", http, costCents: 7, timeoutMs: 3_000 })).toMatchObject({
      costCents: 7,
      timeoutMs: 3_000,
    });
    expect(() => createPeopleDataLabsFundingProvider({ apiKey: "", http })).toThrow(/API key/);
  });

  it("answers the funding signal from the detailed rounds, as sure as the match (capped)", async () => {
    expect(await enrich("acme-robotics.example")).toEqual({
      funding: {
        value: {
          totalRaisedUsd: 41_500_000,
          lastRound: {
            type: "series_b",
            amountUsd: 30_000_000,
            date: "2024-06-12",
            investors: ["Northwind Ventures", "Bluepeak Capital"],
          },
          rounds: ACME_PROFILE.funding.rounds,
        } satisfies Funding,
        confidence: 0.9,
      },
    });
  });

  it("answers from the stages when there are no details", async () => {
    expect(await enrich("globex-logistics.example")).toEqual({
      funding: {
        value: {
          totalRaisedUsd: 12_000_000,
          lastRound: { type: "series_a", amountUsd: null, date: "2018-11-02", investors: [] },
          rounds: [
            { type: "seed", amountUsd: null, date: null, investors: [] },
            { type: "series_a", amountUsd: null, date: "2018-11-02", investors: [] },
          ],
        } satisfies Funding,
        confidence: 0.6,
      },
    });
  });

  it("a company without funding, or none at all, leaves the field missing", async () => {
    expect(await enrich("quiet-holdings.example")).toEqual({});
    expect(await enrich("nobody-here.example")).toEqual({});
  });

  it("asks nothing for another signal", async () => {
    const { result, requests } = await withRequestCount(fake.requests, () =>
      enrich("acme-robotics.example", "technographics"),
    );
    expect(result).toEqual({});
    expect(requests).toBe(0);
  });

  it("sends the key in X-Api-Key only, the domain as the website", async () => {
    await enrich("acme-robotics.example");
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({
      method: "GET",
      path: "/v5/company/enrich",
      query: { website: "acme-robotics.example" },
    });
    expect(request?.headers["x-api-key"]).toBe(fake.apiKey);
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe(http.userAgent);
    expect(request?.url).not.toContain(fake.apiKey);
  });
});

describe("company data adapter: failures", () => {
  it("a wrong key: 401, at once, without the key or the vendor's wording", async () => {
    const wrongKey = "f".repeat(64);
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(
        provider({ apiKey: wrongKey }).enrich(
          { domain: "acme-robotics.example", signal: "funding" },
          { signal: AbortSignal.timeout(5_000) },
        ),
        wrongKey,
      ),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "unauthorized", message: "upstream answered 401", status: 401 });
  });

  it("out of credits: 402 is quota, not retried", async () => {
    fake.setMode("out_of_credits");
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(enrich("acme-robotics.example")),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "quota", message: "upstream answered 402", status: 402 });
  });

  it("429 whose window ends in a second: waits for it, retries once and answers", async () => {
    fake.enqueue({ mode: "rate_limited", resetInSeconds: 1 });
    const { result, requests } = await withRequestCount(fake.requests, () => enrich("globex-logistics.example"));
    expect(requests).toBe(2);
    expect(result.funding?.confidence).toBe(0.6);
  });

  it("429 whose window ends in a minute: fails at once with the seconds to wait", async () => {
    fake.setMode("rate_limited");
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(enrich("acme-robotics.example")),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "rate_limited", message: "upstream answered 429", status: 429 });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("a server error is retried once", async () => {
    fake.enqueue("server_error");
    const recovered = await withRequestCount(fake.requests, () => enrich("acme-robotics.example"));
    expect(recovered.requests).toBe(2);
    expect(recovered.result.funding?.value).toMatchObject({ totalRaisedUsd: 41_500_000 });

    fake.setMode("server_error");
    const failed = await withRequestCount(fake.requests, () => failure(enrich("acme-robotics.example")));
    expect(failed.requests).toBe(2);
    expect(failed.result).toMatchObject({ reason: "unavailable", message: "upstream answered 500", status: 500 });
  });

  it("a slow upstream is cut off by the adapter's time limit, without a retry", async () => {
    fake.setMode("slow");
    const adapter = provider({ timeoutMs: 300 });
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(
        adapter.enrich({ domain: "acme-robotics.example", signal: "funding" }, { signal: AbortSignal.timeout(10_000) }),
      ),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a redirect is not followed", async () => {
    fake.setMode("redirect");
    const { result: error } = await withRequestCount(fake.requests, () => failure(enrich("acme-robotics.example")));
    expect(error).toMatchObject({ reason: "redirected", message: "upstream answered 302" });
    expect(fake.requests.at(-1)?.path).toBe("/v5/company/enrich");
  });

  it("a body that is not JSON, or not the documented shape", async () => {
    fake.setMode("malformed");
    expect(await failure(enrich("acme-robotics.example"))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with a body that is not JSON",
    });
    fake.setMode("unexpected_shape");
    expect(await failure(enrich("acme-robotics.example"))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with an unexpected body",
    });
  });
});
