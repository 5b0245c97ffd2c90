import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  PEOPLE_EMAIL_FIELDS,
  type PeopleEmailProviderInput,
  type PersonEmailFinding,
} from "@/lib/providers/fields/people";
import type { ProviderFields } from "@/lib/providers/provider";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { FAKE_HUNTER_PATTERN_GUESS_SCORE, startFakeHunter, type FakeHunter } from "@/test/fakes/hunter-server";
import { createHunterEmailFinderProvider } from "./hunter-email-finder";
import { vendorFailure, withRequestCount } from "@/test/vendor-failures";
import type { VendorError } from "./vendor-error";

// Real HTTP on loopback against the local fake, through the real outbound client; nothing here can reach the vendor.
const http = createOutboundClient({ allowLoopback: true });
let fake: FakeHunter;

beforeAll(async () => {
  fake = await startFakeHunter({ retryAfterSeconds: 42, slowMs: 5_000 });
});

afterEach(() => {
  fake.setMode("normal");
});

afterAll(async () => {
  await fake.close();
});

function provider(overrides: { apiKey?: string; baseUrl?: string; timeoutMs?: number } = {}) {
  return createHunterEmailFinderProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http, ...overrides });
}

/** A people-email input as the endpoint builds it: both name parts, the full name, and a domain or a company. */
function person(
  firstName: string,
  lastName: string,
  at: { domain?: string; company?: string },
): PeopleEmailProviderInput {
  return { firstName, lastName, fullName: `${firstName} ${lastName}`, ...at };
}

function enrich(input: PeopleEmailProviderInput, signal = AbortSignal.timeout(10_000)) {
  return provider().enrich(input, { signal });
}

function lastRequest() {
  const request = fake.requests.at(-1);
  if (!request) throw new Error("the fake received no request");
  return request;
}

/** A failed call whose error can be shown anywhere: no vendor name, no key, no vendor wording. */
function failure(call: Promise<unknown>, apiKey = fake.apiKey): Promise<VendorError> {
  return vendorFailure(call, [
    /hunter/i,
    apiKey,
    /No user found|rate limit|billing period|went wrong|stop processing/i,
  ]);
}

describe("email finder adapter: mapping", () => {
  it("is an internal people-email provider costing 1 cent by default, supplying only people-email fields", () => {
    const adapter = provider();
    expect(adapter).toMatchObject({
      id: "hunter-email-finder",
      operation: "people_email",
      costCents: 1,
      timeoutMs: 10_000,
    });
    expect([...adapter.supplies].sort()).toEqual([
      "candidates",
      "domain",
      "email",
      "firstName",
      "lastName",
      "position",
    ]);
    const known = PEOPLE_EMAIL_FIELDS.map((field) => field.name);
    expect(adapter.supplies.filter((name) => !known.includes(name))).toEqual([]);
    expect(createHunterEmailFinderProvider({ apiKey: "k", http, costCents: 3, timeoutMs: 4_000 })).toMatchObject({
      costCents: 3,
      timeoutMs: 4_000,
    });
  });

  it("maps a known person's address, its evidence and the person's facts", async () => {
    expect(await enrich(person("Maria", "Gonzalez", { domain: "acme-robotics.example" }))).toEqual({
      email: {
        value: {
          email: "maria.gonzalez@acme-robotics.example",
          confidence: 97,
          reason: "vendor",
          verification: { date: "2025-11-20", status: "valid" },
          sources: [
            { uri: "https://acme-robotics.example/about/team", extractedOn: "2024-03-11" },
            { uri: "https://robotics-news.example/2024/acme-raises-series-b", extractedOn: "2024-06-18" },
          ],
        } satisfies PersonEmailFinding,
        confidence: 0.97,
      },
      candidates: {
        value: [{ email: "maria.gonzalez@acme-robotics.example", confidence: 97, reason: "vendor" }],
        confidence: 0.97,
      },
      domain: { value: "acme-robotics.example", confidence: 0.9 },
      firstName: { value: "Maria", confidence: 0.9 },
      lastName: { value: "Gonzalez", confidence: 0.9 },
      position: { value: "Chief Executive Officer", confidence: 0.9 },
    } satisfies ProviderFields);
  });

  it("makes the person's facts only as sure as the address, and keeps an unverified address's nulls", async () => {
    const fields = await enrich(person("jonas", "BERG", { domain: "acme-robotics.example" }));
    expect(fields.email).toEqual({
      value: {
        email: "jonas.berg@acme-robotics.example",
        confidence: 74,
        reason: "vendor",
        verification: { date: null, status: null },
        sources: [{ uri: "https://acme-robotics.example/about/team", extractedOn: "2024-03-11" }],
      },
      confidence: 0.74,
    });
    // Spelled as the company spells them, not as asked.
    expect(fields.firstName).toEqual({ value: "Jonas", confidence: 0.74 });
    expect(fields.lastName).toEqual({ value: "Berg", confidence: 0.74 });
    expect(fields.position).toEqual({ value: "Software Engineer", confidence: 0.74 });
    const chloe = await enrich(person("Chloe", "Martin", { domain: "acme-robotics.example" }));
    expect((chloe.email?.value as PersonEmailFinding).verification).toEqual({ date: "2025-08-14", status: "unknown" });
  });

  it("resolves a company name to its domain", async () => {
    const fields = await enrich(person("Helen", "Wright", { company: "Globex Logistics" }));
    expect(lastRequest().query).toMatchObject({ company: "Globex Logistics" });
    expect(lastRequest().query).not.toHaveProperty("domain");
    expect(fields.domain).toEqual({ value: "globex-logistics.example", confidence: 0.9 });
    expect(fields.email?.value).toMatchObject({
      email: "hwright@globex-logistics.example",
      verification: { status: "accept_all" },
    });
  });

  it("passes on an address derived from the domain's pattern, as unsure as the upstream says", async () => {
    const fields = await enrich(person("Ada", "Lindqvist", { domain: "globex-logistics.example" }));
    const confidence = FAKE_HUNTER_PATTERN_GUESS_SCORE / 100;
    expect(fields).toEqual({
      email: {
        value: {
          email: "alindqvist@globex-logistics.example",
          confidence: FAKE_HUNTER_PATTERN_GUESS_SCORE,
          reason: "vendor",
          verification: { date: null, status: "accept_all" },
          sources: [],
        },
        confidence,
      },
      candidates: {
        value: [
          {
            email: "alindqvist@globex-logistics.example",
            confidence: FAKE_HUNTER_PATTERN_GUESS_SCORE,
            reason: "vendor",
          },
        ],
        confidence,
      },
      domain: { value: "globex-logistics.example", confidence: 0.9 },
      // The name it was given, echoed: no surer than the guess.
      firstName: { value: "Ada", confidence },
      lastName: { value: "Lindqvist", confidence },
    } satisfies ProviderFields);
  });

  it("no address is an empty answer, so the next provider may try: a null email, a 404, an opted-out person", async () => {
    expect(await enrich(person("Maria", "Gonzalez", { domain: "quiet-holdings.example" }))).toEqual({});
    expect(await enrich(person("Maria", "Gonzalez", { domain: "nobody-here.example" }))).toEqual({});
    const { result, requests } = await withRequestCount(fake.requests, () =>
      enrich(person("Noor", "Haddad", { domain: "acme-robotics.example" })),
    );
    expect(result).toEqual({});
    expect(requests).toBe(1);
  });

  it("tolerates odd optional details but clamps the score to 0–100", async () => {
    fake.enqueue({
      body: {
        data: {
          email: "a.person@odd.example",
          score: 140.4,
          domain: "ODD.example",
          first_name: ["A"],
          last_name: "Person",
          position: 42,
          sources: [
            { uri: "https://odd.example/a" },
            null,
            { uri: "https://odd.example/b", extracted_on: "2025-01-01" },
          ],
          verification: { date: "2025-01-01", status: "risky" },
        },
      },
    });
    expect(await enrich(person("A", "Person", { domain: "odd.example" }))).toEqual({
      email: {
        value: {
          email: "a.person@odd.example",
          confidence: 100,
          reason: "vendor",
          verification: { date: "2025-01-01", status: null },
          sources: [{ uri: "https://odd.example/b", extractedOn: "2025-01-01" }],
        },
        confidence: 1,
      },
      candidates: { value: [{ email: "a.person@odd.example", confidence: 100, reason: "vendor" }], confidence: 1 },
      domain: { value: "odd.example", confidence: 0.9 },
      lastName: { value: "Person", confidence: 0.9 },
    });
  });
});

describe("email finder adapter: request", () => {
  it("sends the key in X-API-KEY only, never in the URL, with the outbound client's user agent", async () => {
    await enrich(person("Maria", "Gonzalez", { domain: "acme-robotics.example" }));
    const request = lastRequest();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v2/email-finder");
    expect(request.headers["x-api-key"]).toBe(fake.apiKey);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["user-agent"]).toBe(http.userAgent);
    expect(request.url).not.toContain(fake.apiKey);
    expect(request.query).not.toHaveProperty("api_key");
  });

  it("asks by first and last name, with a search time of half the call's limit", async () => {
    await enrich(person("Maria", "Gonzalez", { domain: "acme-robotics.example" }));
    expect(lastRequest().query).toEqual({
      domain: "acme-robotics.example",
      first_name: "Maria",
      last_name: "Gonzalez",
      max_duration: "5",
    });
  });

  it("keeps the search time within the upstream's 3–20 seconds", async () => {
    const input = person("Maria", "Gonzalez", { domain: "acme-robotics.example" });
    await provider({ timeoutMs: 4_000 }).enrich(input, { signal: AbortSignal.timeout(5_000) });
    expect(lastRequest().query.max_duration).toBe("3");
    await provider({ timeoutMs: 60_000 }).enrich(input, { signal: AbortSignal.timeout(5_000) });
    expect(lastRequest().query.max_duration).toBe("20");
  });

  it("prefers the domain when both are given", async () => {
    await enrich(person("Helen", "Wright", { domain: "globex-logistics.example", company: "Acme Robotics" }));
    expect(lastRequest().query).not.toHaveProperty("company");
  });

  it("encodes hostile input as data, never as extra parameters", async () => {
    const lastName = "O'Brien&api_key=x&domain=evil.example#frag";
    await enrich(person("Sam", lastName, { company: "Acme & Co?limit=1000" }));
    expect(lastRequest().query).toEqual({
      company: "Acme & Co?limit=1000",
      first_name: "Sam",
      last_name: lastName,
      max_duration: "5",
    });
  });

  it("accepts a base URL with a trailing slash", async () => {
    await provider({ baseUrl: `${fake.baseUrl}/` }).enrich(
      person("Maria", "Gonzalez", { domain: "acme-robotics.example" }),
      {
        signal: AbortSignal.timeout(5_000),
      },
    );
    expect(lastRequest().path).toBe("/v2/email-finder");
  });

  it("refuses to be built without a key, or called with neither domain nor company", async () => {
    expect(() => createHunterEmailFinderProvider({ apiKey: "", http })).toThrow(/API key/);
    const { result, requests } = await withRequestCount(fake.requests, () =>
      enrich(person("Maria", "Gonzalez", {})).catch((error: unknown) => error),
    );
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(/domain or a company/);
    expect(requests).toBe(0);
  });
});

describe("email finder adapter: failures", () => {
  const maria = () => person("Maria", "Gonzalez", { domain: "acme-robotics.example" });

  it("a wrong key: 401, at once, without echoing either key or the upstream's wording", async () => {
    const wrongKey = "wrong_key_0123456789abcdef";
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(provider({ apiKey: wrongKey }).enrich(maria(), { signal: AbortSignal.timeout(5_000) }), wrongKey),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({
      reason: "unauthorized",
      message: "upstream answered 401",
      status: 401,
      retryAfterSeconds: undefined,
    });
    expect(error.message).not.toContain(fake.apiKey);
  });

  it("429 with a short Retry-After: waits, retries once and answers", async () => {
    fake.enqueue({ mode: "rate_limited", retryAfter: "1" });
    const { result, requests } = await withRequestCount(fake.requests, () => enrich(maria()));
    expect(requests).toBe(2);
    expect(result.email?.confidence).toBe(0.97);
  });

  it("429 with a long Retry-After: fails at once with the seconds to wait", async () => {
    fake.setMode("rate_limited");
    const { result: error, requests } = await withRequestCount(fake.requests, () => failure(enrich(maria())));
    expect(requests).toBe(1);
    expect(error).toMatchObject({
      reason: "rate_limited",
      message: "upstream answered 429",
      status: 429,
      retryAfterSeconds: 42,
    });
  });

  it("403 is the per-second rate limit: retried once after a pause", async () => {
    fake.enqueue("throttled");
    const recovered = await withRequestCount(fake.requests, () => enrich(maria()));
    expect(recovered.requests).toBe(2);
    expect(recovered.result.domain?.value).toBe("acme-robotics.example");

    fake.setMode("throttled");
    const failed = await withRequestCount(fake.requests, () => failure(enrich(maria())));
    expect(failed.requests).toBe(2);
    expect(failed.result).toMatchObject({ reason: "rate_limited", message: "upstream answered 403", status: 403 });
  });

  it("429 without Retry-After is the monthly usage limit: quota, not retried", async () => {
    fake.setMode("usage_exhausted");
    const { result: error, requests } = await withRequestCount(fake.requests, () => failure(enrich(maria())));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "quota", message: "upstream answered 429", status: 429 });
  });

  it("a server error is retried once: a blip is survived, an outage fails as unavailable", async () => {
    fake.enqueue("server_error");
    const recovered = await withRequestCount(fake.requests, () => enrich(maria()));
    expect(recovered.requests).toBe(2);
    expect(recovered.result.email?.value).toMatchObject({ email: "maria.gonzalez@acme-robotics.example" });

    fake.setMode("server_error");
    const failed = await withRequestCount(fake.requests, () => failure(enrich(maria())));
    expect(failed.requests).toBe(2);
    expect(failed.result).toMatchObject({ reason: "unavailable", message: "upstream answered 500", status: 500 });
  });

  it("a body that is not JSON, or not the documented shape", async () => {
    fake.setMode("malformed");
    expect(await failure(enrich(maria()))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with a body that is not JSON",
    });
    fake.setMode("unexpected_shape");
    expect(await failure(enrich(maria()))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with an unexpected body",
    });
    fake.setMode("normal");
    // An address without a score, and no `data` at all.
    fake.enqueue({ body: { data: { email: "x@a.example" } } }, { body: { errors: [] } });
    expect((await failure(enrich(maria()))).reason).toBe("invalid_body");
    expect((await failure(enrich(maria()))).reason).toBe("invalid_body");
  });

  it("a slow upstream is cut off by the adapter's time limit, without a retry", async () => {
    fake.setMode("slow");
    const adapter = provider({ timeoutMs: 300 });
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(adapter.enrich(maria(), { signal: AbortSignal.timeout(10_000) })),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a slow upstream is cut off by the caller's time limit", async () => {
    fake.setMode("slow");
    expect(await failure(enrich(maria(), AbortSignal.timeout(150)))).toMatchObject({
      reason: "timeout",
      message: "upstream request timed out",
    });
  });

  it("a redirect is refused, so the key is never sent elsewhere", async () => {
    fake.setMode("redirect");
    const { result: error } = await withRequestCount(fake.requests, () => failure(enrich(maria())));
    expect(error).toMatchObject({ reason: "redirected", message: "upstream answered 302" });
    expect(fake.requests.at(-1)?.path).toBe("/v2/email-finder");
  });
});
