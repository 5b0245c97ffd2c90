import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { IntelligenceSignal, Technology } from "@/lib/providers/fields/intelligence";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { startFakeBuiltWith, type FakeBuiltWith } from "@/test/fakes/builtwith-server";
import { createBuiltWithTechnographicsProvider } from "./builtwith";
import { vendorFailure, withRequestCount } from "@/test/vendor-failures";

// Real HTTP on loopback against the local fake, through the real outbound client; nothing here can reach the vendor.
const http = createOutboundClient({ allowLoopback: true });
/** The clock the staleness of a sighting is judged against. */
const NOW = Date.parse("2025-12-01T00:00:00Z");
const EVIDENCE = ["reported by a technographics source"];
let fake: FakeBuiltWith;

beforeAll(async () => {
  fake = await startFakeBuiltWith({ retryAfterSeconds: 45, slowMs: 5_000 });
});

afterEach(() => {
  fake.setMode("normal");
});

afterAll(async () => {
  await fake.close();
});

function provider(overrides: { apiKey?: string; baseUrl?: string; timeoutMs?: number } = {}) {
  return createBuiltWithTechnographicsProvider({
    apiKey: fake.apiKey,
    baseUrl: fake.baseUrl,
    http,
    now: () => NOW,
    ...overrides,
  });
}

function enrich(domain: string, signal: IntelligenceSignal = "technographics", abort = AbortSignal.timeout(10_000)) {
  return provider().enrich({ domain, signal }, { signal: abort });
}

function failure(call: Promise<unknown>, apiKey = fake.apiKey) {
  return vendorFailure(call, [
    /built ?with/i,
    apiKey,
    /invalid or missing|too many requests|temporarily unavailable|lookup must be/i,
  ]);
}

describe("technographics adapter: mapping", () => {
  it("is an internal technographics provider costing 5 cents by default", () => {
    expect(provider()).toMatchObject({
      id: "builtwith",
      operation: "companies_intelligence",
      supplies: ["technographics"],
      costCents: 5,
      timeoutMs: 10_000,
    });
    expect(createBuiltWithTechnographicsProvider({ apiKey: "k", http, costCents: 2, timeoutMs: 5_000 })).toMatchObject({
      costCents: 2,
      timeoutMs: 5_000,
    });
    expect(() => createBuiltWithTechnographicsProvider({ apiKey: "", http })).toThrow(/API key/);
  });

  it("maps every path's technologies once per name, judged by how recently they were seen", async () => {
    expect(await enrich("acme-robotics.example")).toEqual({
      technographics: {
        value: [
          // Last seen nine months ago: probably, not surely, still there.
          {
            name: "Drift",
            category: "Live Chat",
            confidence: 0.6,
            firstDetected: "2020-01-15",
            lastDetected: "2025-03-10",
            evidence: EVIDENCE,
          },
          {
            name: "Google Analytics",
            category: "Audience Measurement",
            confidence: 0.9,
            firstDetected: "2019-02-10",
            lastDetected: "2025-11-20",
            evidence: EVIDENCE,
          },
          // On the site and on the shop subdomain (spelt differently there): the earliest and the latest sightings.
          {
            name: "jQuery",
            category: "javascript",
            confidence: 0.9,
            firstDetected: "2017-09-01",
            lastDetected: "2025-11-25",
            evidence: EVIDENCE,
          },
          // Not seen for over two years.
          {
            name: "Marketo",
            category: "Marketing Automation",
            confidence: 0.3,
            firstDetected: "2017-06-01",
            lastDetected: "2023-08-01",
            evidence: EVIDENCE,
          },
          {
            name: "Stripe",
            category: "Payments Processor",
            confidence: 0.9,
            firstDetected: "2021-04-01",
            lastDetected: "2025-11-28",
            evidence: EVIDENCE,
          },
        ] satisfies Technology[],
        confidence: 0.9,
      },
    });
  });

  it("uses the first category, the tag when there is none", async () => {
    const fields = await enrich("globex-logistics.example");
    expect((fields.technographics?.value as Technology[]).map(({ name, category }) => ({ name, category }))).toEqual([
      { name: "Cloudflare", category: "cdn" },
      { name: "WordPress", category: "Open Source" },
    ]);
  });

  it("a domain with nothing indexed, or unknown, leaves the field missing", async () => {
    expect(await enrich("quiet-holdings.example")).toEqual({});
    expect(await enrich("nobody-here.example")).toEqual({});
  });

  it("asks nothing for another signal", async () => {
    const { result, requests } = await withRequestCount(fake.requests, () =>
      enrich("acme-robotics.example", "funding"),
    );
    expect(result).toEqual({});
    expect(requests).toBe(0);
  });
});

describe("technographics adapter: request", () => {
  it("sends the key where the API documents it, KEY, and switches off what it does not need", async () => {
    await enrich("acme-robotics.example");
    const request = fake.requests.at(-1);
    expect(request).toMatchObject({ method: "GET", path: "/v22/api.json" });
    expect(request?.query).toEqual({
      KEY: fake.apiKey,
      LOOKUP: "acme-robotics.example",
      NOMETA: "yes",
      NOPII: "yes",
      NOATTR: "yes",
      HIDEDL: "yes",
    });
    expect(request?.headers.accept).toBe("application/json");
    expect(request?.headers["user-agent"]).toBe(http.userAgent);
  });

  it("encodes hostile input as data, never as extra parameters", async () => {
    await failure(enrich("a.example&KEY=stolen&LOOKUP=b.example"));
    expect(fake.requests.at(-1)?.query).toMatchObject({
      KEY: fake.apiKey,
      LOOKUP: "a.example&KEY=stolen&LOOKUP=b.example",
    });
  });
});

describe("technographics adapter: failures", () => {
  it("a wrong key: 401, at once, without the key or the vendor's wording", async () => {
    const wrongKey = "00000000-0000-4000-8000-00000000dead";
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(
        provider({ apiKey: wrongKey }).enrich(
          { domain: "acme-robotics.example", signal: "technographics" },
          { signal: AbortSignal.timeout(5_000) },
        ),
        wrongKey,
      ),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "unauthorized", message: "upstream answered 401", status: 401 });
  });

  it("an error reported in a 200 is a failure, not an empty answer", async () => {
    expect(await failure(enrich("not a domain"))).toMatchObject({
      reason: "rejected",
      message: "upstream reported an error for the lookup",
      status: 200,
    });
  });

  it("429 with a short Retry-After: waits, retries once and answers", async () => {
    fake.enqueue({ mode: "rate_limited", retryAfter: "1" });
    const { result, requests } = await withRequestCount(fake.requests, () => enrich("globex-logistics.example"));
    expect(requests).toBe(2);
    expect((result.technographics?.value as Technology[]).map((technology) => technology.name)).toEqual([
      "Cloudflare",
      "WordPress",
    ]);
  });

  it("429 with a long Retry-After: fails at once with the seconds to wait", async () => {
    fake.setMode("rate_limited");
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(enrich("acme-robotics.example")),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({
      reason: "rate_limited",
      message: "upstream answered 429",
      status: 429,
      retryAfterSeconds: 45,
    });
  });

  it("a server error is retried once", async () => {
    fake.enqueue("server_error");
    const recovered = await withRequestCount(fake.requests, () => enrich("globex-logistics.example"));
    expect(recovered.requests).toBe(2);
    expect(recovered.result.technographics?.confidence).toBe(0.9);

    fake.setMode("server_error");
    const failed = await withRequestCount(fake.requests, () => failure(enrich("acme-robotics.example")));
    expect(failed.requests).toBe(2);
    expect(failed.result).toMatchObject({ reason: "unavailable", message: "upstream answered 503", status: 503 });
  });

  it("a slow upstream is cut off by the adapter's time limit, without a retry", async () => {
    fake.setMode("slow");
    const adapter = provider({ timeoutMs: 300 });
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(
        adapter.enrich(
          { domain: "acme-robotics.example", signal: "technographics" },
          { signal: AbortSignal.timeout(10_000) },
        ),
      ),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a redirect is not followed, so the key in the URL goes nowhere else", async () => {
    fake.setMode("redirect");
    const before = fake.requests.length;
    expect(await failure(enrich("acme-robotics.example"))).toMatchObject({
      reason: "redirected",
      message: "upstream answered 302",
    });
    expect(fake.requests.slice(before).map((request) => request.path)).toEqual(["/v22/api.json"]);
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

  it("an unreachable upstream: nothing in the error or its causes carries the key", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const adapter = provider({ baseUrl: `http://127.0.0.1:${port}/v22` });
    const error = await failure(
      adapter.enrich(
        { domain: "acme-robotics.example", signal: "technographics" },
        { signal: AbortSignal.timeout(5_000) },
      ),
    );
    expect(error).toMatchObject({ reason: "unavailable", message: "upstream request failed" });
    let cause: unknown = error.cause;
    expect(cause).toBeInstanceOf(Error);
    while (cause instanceof Error) {
      expect(`${cause.message} ${cause.stack ?? ""}`).not.toContain(fake.apiKey);
      cause = cause.cause;
    }
  });
});
