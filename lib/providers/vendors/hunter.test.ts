import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DomainEmailsProviderInput, EmailRecord } from "@/lib/providers/fields/domain-emails";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { FAKE_HUNTER_COMPANIES, startFakeHunter, type FakeHunter } from "@/test/fakes/hunter-server";
import { createHunterDomainEmailsProvider } from "./hunter";
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
  return createHunterDomainEmailsProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http, ...overrides });
}

function enrich(input: Partial<DomainEmailsProviderInput>, signal = AbortSignal.timeout(10_000)) {
  return provider().enrich({ wanted: 10, ...input }, { signal });
}

function lastRequest() {
  const request = fake.requests.at(-1);
  if (!request) throw new Error("the fake received no request");
  return request;
}

/** A failed call whose error can be shown anywhere: no vendor name, no key, no vendor wording. */
function failure(call: Promise<unknown>, apiKey = fake.apiKey): Promise<VendorError> {
  return vendorFailure(call, [/hunter/i, apiKey, /No user found|rate limit|billing period|went wrong/i]);
}

/** How many requests the fake receives while `call` runs. */
async function requestsDuring(call: () => Promise<unknown>): Promise<number> {
  return (await withRequestCount(fake.requests, call)).requests;
}

describe("hunter adapter: mapping", () => {
  it("is an internal domain-emails provider costing 1 cent by default", () => {
    const adapter = provider();
    expect(adapter).toMatchObject({
      id: "hunter",
      operation: "companies_domain_emails",
      costCents: 1,
      timeoutMs: 10_000,
    });
    expect([...adapter.supplies].sort()).toEqual([
      "acceptAll",
      "disposable",
      "domain",
      "emails",
      "organization",
      "pattern",
      "webmail",
    ]);
    expect(createHunterDomainEmailsProvider({ apiKey: "k", http, costCents: 3, timeoutMs: 4_000 })).toMatchObject({
      costCents: 3,
      timeoutMs: 4_000,
    });
  });

  it("maps the domain's facts and every email field", async () => {
    const fields = await enrich({ domain: "acme-robotics.example", wanted: 100 });
    expect(fields).toMatchObject({
      domain: { value: "acme-robotics.example", confidence: 0.9 },
      organization: { value: "Acme Robotics", confidence: 0.9 },
      pattern: { value: "{first}.{last}", confidence: 0.9 },
      acceptAll: { value: false, confidence: 0.9 },
      webmail: { value: false, confidence: 0.9 },
      disposable: { value: false, confidence: 0.9 },
      // The best address's confidence (97) on the 0–1 scale.
      emails: { confidence: 0.97 },
    });
    const emails = fields.emails?.value as EmailRecord[];
    expect(emails.map((email) => email.value)).toEqual(FAKE_HUNTER_COMPANIES[0]?.emails.map((email) => email.value));
    expect(emails[0]).toEqual({
      value: "maria.gonzalez@acme-robotics.example",
      type: "personal",
      confidence: 97,
      firstName: "Maria",
      lastName: "Gonzalez",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
      linkedin: "https://linkedin.example/in/maria-gonzalez",
      twitter: "mgonzalez_acme",
      phoneNumber: "+1 202-555-0143",
      sources: [
        { uri: "https://acme-robotics.example/about/team", extractedOn: "2024-03-11" },
        { uri: "https://robotics-news.example/2024/acme-raises-series-b", extractedOn: "2024-06-18" },
      ],
      verification: { date: "2025-11-20", status: "valid" },
    } satisfies EmailRecord);
    // Keys the upstream left out, and an unverified address, become nulls.
    expect(emails.find((email) => email.value.startsWith("jonas."))).toMatchObject({
      linkedin: null,
      twitter: null,
      phoneNumber: null,
      verification: { date: null, status: null },
    });
    expect(emails.find((email) => email.value.startsWith("chloe."))?.verification).toEqual({
      date: "2025-08-14",
      status: "unknown",
    });
    expect(emails.find((email) => email.value === "info@acme-robotics.example")).toEqual({
      value: "info@acme-robotics.example",
      type: "generic",
      confidence: 90,
      firstName: null,
      lastName: null,
      position: null,
      seniority: null,
      department: null,
      linkedin: null,
      twitter: null,
      phoneNumber: null,
      sources: [{ uri: "https://acme-robotics.example/contact", extractedOn: "2023-09-05" }],
      verification: { date: "2025-11-20", status: "valid" },
    } satisfies EmailRecord);
  });

  it("keeps a domain's own pattern and accept-all flag", async () => {
    const fields = await enrich({ domain: "globex-logistics.example" });
    expect(fields.pattern?.value).toBe("{f}{last}");
    expect(fields.acceptAll?.value).toBe(true);
    expect((fields.emails?.value as EmailRecord[])[0]?.verification).toEqual({
      date: "2025-10-01",
      status: "accept_all",
    });
  });

  it("leaves out what the upstream did not find, so the next provider may", async () => {
    const fields = await enrich({ domain: "quiet-holdings.example" });
    expect(Object.keys(fields).sort()).toEqual(["acceptAll", "disposable", "domain", "webmail"]);
  });

  it("tolerates odd optional details but clamps confidence to 0–100", async () => {
    fake.enqueue({
      body: {
        data: {
          domain: "odd.example",
          organization: 42,
          emails: [
            {
              value: "a@odd.example",
              type: "personal",
              confidence: 140.4,
              sources: [
                { uri: "https://odd.example/a" },
                null,
                { uri: "https://odd.example/b", extracted_on: "2025-01-01" },
              ],
              first_name: ["A"],
              verification: { date: "2025-01-01", status: "risky" },
            },
          ],
        },
      },
    });
    const fields = await enrich({ domain: "odd.example", wanted: 1 });
    expect(fields.organization).toBeUndefined();
    expect(fields.emails).toEqual({
      value: [
        {
          value: "a@odd.example",
          type: "personal",
          confidence: 100,
          firstName: null,
          lastName: null,
          position: null,
          seniority: null,
          department: null,
          linkedin: null,
          twitter: null,
          phoneNumber: null,
          sources: [{ uri: "https://odd.example/b", extractedOn: "2025-01-01" }],
          verification: { date: "2025-01-01", status: null },
        },
      ],
      confidence: 1,
    });
  });
});

describe("hunter adapter: request", () => {
  it("sends the key in X-API-KEY only, never in the URL, with the outbound client's user agent", async () => {
    await enrich({ domain: "acme-robotics.example" });
    const request = lastRequest();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v2/domain-search");
    expect(request.headers["x-api-key"]).toBe(fake.apiKey);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["user-agent"]).toBe(http.userAgent);
    expect(request.url).not.toContain(fake.apiKey);
    expect(request.query).not.toHaveProperty("api_key");
  });

  it("passes the caller's filters and asks for what the call needs", async () => {
    const fields = await enrich({
      domain: "acme-robotics.example",
      wanted: 3,
      type: "personal",
      seniority: "senior",
      department: "it,sales",
    });
    expect(lastRequest().query).toEqual({
      domain: "acme-robotics.example",
      limit: "3",
      offset: "0",
      type: "personal",
      seniority: "senior",
      department: "it,sales",
    });
    expect((fields.emails?.value as EmailRecord[]).map((email) => email.value)).toEqual([
      "tom.okafor@acme-robotics.example",
      "lena.fischer@acme-robotics.example",
    ]);
  });

  it("keeps the limit within 1–100", async () => {
    await enrich({ domain: "acme-robotics.example", wanted: 250 });
    expect(lastRequest().query.limit).toBe("100");
    await enrich({ domain: "acme-robotics.example", wanted: 0 });
    expect(lastRequest().query.limit).toBe("1");
  });

  it("asks by company name when there is no domain, and takes the resolved domain", async () => {
    const fields = await enrich({ company: "acme robotics" });
    expect(lastRequest().query).toEqual({ company: "acme robotics", limit: "10", offset: "0" });
    expect(fields.domain?.value).toBe("acme-robotics.example");
    expect(fields.organization?.value).toBe("Acme Robotics");
  });

  it("prefers the domain when both are given", async () => {
    await enrich({ domain: "globex-logistics.example", company: "Acme Robotics" });
    expect(lastRequest().query).not.toHaveProperty("company");
  });

  it("encodes hostile input as data, never as extra parameters", async () => {
    const company = "Acme & Co?api_key=x&limit=1000#frag";
    await enrich({ company });
    expect(lastRequest().query).toEqual({ company, limit: "10", offset: "0" });
  });

  it("accepts a base URL with a trailing slash", async () => {
    await provider({ baseUrl: `${fake.baseUrl}/` }).enrich(
      { domain: "acme-robotics.example", wanted: 1 },
      { signal: AbortSignal.timeout(5_000) },
    );
    expect(lastRequest().path).toBe("/v2/domain-search");
  });

  it("refuses to be built without a key, or called with neither domain nor company", async () => {
    expect(() => createHunterDomainEmailsProvider({ apiKey: "", http })).toThrow(/API key/);
    await expect(enrich({})).rejects.toThrow(/domain or a company/);
  });
});

describe("hunter adapter: failures", () => {
  it("a wrong key: 401, at once, without echoing either key or the upstream's wording", async () => {
    const wrongKey = "wrong_key_0123456789abcdef";
    let error: VendorError | undefined;
    const sent = await requestsDuring(async () => {
      error = await failure(
        provider({ apiKey: wrongKey }).enrich(
          { domain: "acme-robotics.example", wanted: 1 },
          { signal: AbortSignal.timeout(5_000) },
        ),
        wrongKey,
      );
    });
    expect(sent).toBe(1);
    expect(error).toMatchObject({
      reason: "unauthorized",
      message: "upstream answered 401",
      status: 401,
      retryAfterSeconds: undefined,
    });
    expect(error?.message).not.toContain(fake.apiKey);
  });

  it("a revoked key is not retried either", async () => {
    fake.setMode("unauthorized");
    let error: VendorError | undefined;
    expect(await requestsDuring(async () => (error = await failure(enrich({ domain: "acme-robotics.example" }))))).toBe(
      1,
    );
    expect(error?.reason).toBe("unauthorized");
  });

  it("429 with a short Retry-After: waits, retries once and answers", async () => {
    fake.enqueue({ mode: "rate_limited", retryAfter: "1" });
    let fields: Awaited<ReturnType<typeof enrich>> = {};
    expect(await requestsDuring(async () => (fields = await enrich({ domain: "globex-logistics.example" })))).toBe(2);
    expect(fields.organization?.value).toBe("Globex Logistics");
  });

  it("429 with a long Retry-After: fails at once with the seconds to wait", async () => {
    fake.setMode("rate_limited");
    let error: VendorError | undefined;
    expect(await requestsDuring(async () => (error = await failure(enrich({ domain: "acme-robotics.example" }))))).toBe(
      1,
    );
    expect(error).toMatchObject({
      reason: "rate_limited",
      message: "upstream answered 429",
      status: 429,
      retryAfterSeconds: 42,
    });
  });

  it("reads Retry-After given as an HTTP date", async () => {
    fake.enqueue({ mode: "rate_limited", retryAfter: new Date(Date.now() + 120_000).toUTCString() });
    const error = await failure(enrich({ domain: "acme-robotics.example", wanted: 1 }));
    expect(error.reason).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
  });

  it("403 is the per-second rate limit: retried once after a pause", async () => {
    fake.enqueue("throttled");
    let fields: Awaited<ReturnType<typeof enrich>> = {};
    expect(await requestsDuring(async () => (fields = await enrich({ domain: "globex-logistics.example" })))).toBe(2);
    expect(fields.domain?.value).toBe("globex-logistics.example");

    fake.setMode("throttled");
    let error: VendorError | undefined;
    expect(await requestsDuring(async () => (error = await failure(enrich({ domain: "acme-robotics.example" }))))).toBe(
      2,
    );
    expect(error).toMatchObject({ reason: "rate_limited", message: "upstream answered 403", status: 403 });
  });

  it("429 without Retry-After is the monthly usage limit: quota, not retried", async () => {
    fake.setMode("usage_exhausted");
    let error: VendorError | undefined;
    expect(await requestsDuring(async () => (error = await failure(enrich({ domain: "acme-robotics.example" }))))).toBe(
      1,
    );
    expect(error).toMatchObject({ reason: "quota", message: "upstream answered 429", status: 429 });
  });

  it("a server error is retried once: a blip is survived, an outage fails as unavailable", async () => {
    fake.enqueue("server_error");
    let fields: Awaited<ReturnType<typeof enrich>> = {};
    expect(await requestsDuring(async () => (fields = await enrich({ domain: "globex-logistics.example" })))).toBe(2);
    expect(fields.pattern?.value).toBe("{f}{last}");

    fake.setMode("server_error");
    let error: VendorError | undefined;
    expect(await requestsDuring(async () => (error = await failure(enrich({ domain: "acme-robotics.example" }))))).toBe(
      2,
    );
    expect(error).toMatchObject({ reason: "unavailable", message: "upstream answered 500", status: 500 });
  });

  it("a body that is not JSON", async () => {
    fake.setMode("malformed");
    expect(await failure(enrich({ domain: "acme-robotics.example" }))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with a body that is not JSON",
    });
  });

  it("JSON that is not the documented shape", async () => {
    fake.setMode("unexpected_shape");
    expect(await failure(enrich({ domain: "acme-robotics.example" }))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with an unexpected body",
    });
    fake.setMode("normal");
    fake.enqueue({ body: { data: { domain: "a.example", emails: [{ value: "x@a.example", type: "personal" }] } } });
    expect((await failure(enrich({ domain: "a.example", wanted: 1 }))).reason).toBe("invalid_body");
  });

  it("an oversized body is refused without buffering it", async () => {
    fake.setMode("oversized");
    expect(await failure(enrich({ domain: "acme-robotics.example" }))).toMatchObject({
      reason: "too_large",
      message: "upstream answer is too large",
    });
  });

  it("a slow upstream is cut off by the adapter's time limit, without a retry", async () => {
    fake.setMode("slow");
    let error: VendorError | undefined;
    const adapter = provider({ timeoutMs: 300 });
    const call = () =>
      adapter.enrich({ domain: "acme-robotics.example", wanted: 1 }, { signal: AbortSignal.timeout(10_000) });
    expect(await requestsDuring(async () => (error = await failure(call())))).toBe(1);
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a slow upstream is cut off by the caller's time limit", async () => {
    fake.setMode("slow");
    const error = await failure(enrich({ domain: "acme-robotics.example" }, AbortSignal.timeout(150)));
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a call abandoned by its caller", async () => {
    fake.setMode("slow");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await failure(enrich({ domain: "acme-robotics.example" }, controller.signal))).toMatchObject({
      reason: "aborted",
      message: "upstream request aborted",
    });
  });

  it("a redirect is refused, so the key is never sent elsewhere", async () => {
    fake.setMode("redirect");
    const before = fake.requests.length;
    expect(await failure(enrich({ domain: "acme-robotics.example" }))).toMatchObject({
      reason: "redirected",
      message: "upstream answered 302",
    });
    expect(fake.requests.slice(before).map((request) => request.path)).toEqual(["/v2/domain-search"]);
  });

  it("an unreachable upstream, tried twice", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const adapter = provider({ baseUrl: `http://127.0.0.1:${port}/v2` });
    const error = await failure(
      adapter.enrich({ domain: "acme-robotics.example", wanted: 1 }, { signal: AbortSignal.timeout(5_000) }),
    );
    expect(error).toMatchObject({ reason: "unavailable", message: "upstream request failed", status: undefined });
    // The network error stays available to the server's own logs.
    expect(error.cause).toBeInstanceOf(Error);
  });
});
