import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  PEOPLE_ENRICH_FIELDS,
  PEOPLE_MOBILE_FIELDS,
  type PersonLookupInput,
  type PhoneNumberRecord,
} from "@/lib/providers/fields/people";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import {
  createPeopleDataLabsPersonEnrichProvider,
  createPeopleDataLabsPersonMobileProvider,
  fetchPeopleDataLabsPerson,
  type PeopleDataLabsPerson,
  type PeopleDataLabsPersonOptions,
} from "./peopledatalabs-person";
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

type Overrides = Partial<Omit<PeopleDataLabsPersonOptions, "http">>;

function enrichProvider(overrides: Overrides = {}) {
  return createPeopleDataLabsPersonEnrichProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http, ...overrides });
}

function mobileProvider(overrides: Overrides = {}) {
  return createPeopleDataLabsPersonMobileProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http, ...overrides });
}

function call(
  adapter: EnrichmentProvider<PersonLookupInput>,
  input: PersonLookupInput,
  signal = AbortSignal.timeout(10_000),
) {
  return adapter.enrich(input, { signal });
}

function lastRequest() {
  const request = fake.requests.at(-1);
  if (!request) throw new Error("the fake received no request");
  return request;
}

function failure(promise: Promise<unknown>, apiKey = fake.apiKey) {
  return vendorFailure(promise, [
    /people ?data ?labs|pdl/i,
    apiKey,
    /too quick|invalid api key|account maximum|internal server|no records/i,
  ]);
}

const MARIA = { email: "maria.gonzalez@acme-robotics.example" };
const HELEN = { linkedinUrl: "https://www.linkedin.example/in/helen-wright" };
// A free plan's record: contact fields only say that a value exists.
const TOM = { linkedinUrl: "https://www.linkedin.example/in/tom-okafor" };
// Likelihood 3, no phone number.
const JONAS = { email: "jonas.berg@acme-robotics.example" };

describe("person data adapter: the shared request and mapping", () => {
  it("maps a full record to the neutral person, title-cased, profiles with a scheme and once each", async () => {
    const person = await fetchPeopleDataLabsPerson({
      apiKey: fake.apiKey,
      baseUrl: fake.baseUrl,
      http,
      query: MARIA,
      signal: AbortSignal.timeout(10_000),
    });
    expect(person).toEqual({
      fullName: "Maria Gonzalez",
      firstName: "Maria",
      lastName: "Gonzalez",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "operations",
      workEmail: "maria.gonzalez@acme-robotics.example",
      company: { name: "Acme Robotics", domain: "acme-robotics.example" },
      location: { locality: "Springfield", region: "Oregon", country: "United States" },
      socialProfiles: [
        { network: "linkedin", url: "https://linkedin.example/in/maria-gonzalez" },
        { network: "twitter", url: "https://twitter.example/mgonzalez_acme" },
      ],
      mobilePhone: "+12025550143",
      phoneNumbers: ["+12025550143", "+1 (202) 555-0177", "202-555-0160"],
      matchConfidence: 0.9,
    } satisfies PeopleDataLabsPerson);
  });

  it("asks by email or by profile URL, the key in X-Api-Key only, for title-cased matches of likelihood 6 or more", async () => {
    await call(enrichProvider(), MARIA);
    const request = lastRequest();
    expect(request).toMatchObject({ method: "GET", path: "/v5/person/enrich" });
    expect(request.query).toEqual({
      email: "maria.gonzalez@acme-robotics.example",
      min_likelihood: "6",
      titlecase: "true",
    });
    expect(request.headers["x-api-key"]).toBe(fake.apiKey);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["user-agent"]).toBe(http.userAgent);
    expect(request.url).not.toContain(fake.apiKey);

    await call(enrichProvider(), HELEN);
    expect(lastRequest().query).toEqual({
      profile: "https://www.linkedin.example/in/helen-wright",
      min_likelihood: "6",
      titlecase: "true",
    });
  });

  it("lets the operator accept weaker matches, within 1–10", async () => {
    expect(await call(enrichProvider(), JONAS)).toEqual({});
    const weak = await call(enrichProvider({ minLikelihood: 2 }), JONAS);
    expect(lastRequest().query.min_likelihood).toBe("2");
    expect(weak.fullName).toEqual({ value: "Jonas Berg", confidence: 0.3 });
    await call(enrichProvider({ minLikelihood: 0 }), MARIA);
    expect(lastRequest().query.min_likelihood).toBe("1");
    await call(enrichProvider({ minLikelihood: 12 }), MARIA);
    expect(lastRequest().query.min_likelihood).toBe("10");
  });

  it("encodes hostile input as data, never as extra parameters", async () => {
    const email = "a@b.example&api_key=x&min_likelihood=1#frag";
    expect(await call(enrichProvider(), { email })).toEqual({});
    expect(lastRequest().query).toEqual({ email, min_likelihood: "6", titlecase: "true" });
  });

  it("no match (404) is an empty answer", async () => {
    expect(await call(enrichProvider(), { email: "nobody@nowhere.example" })).toEqual({});
    expect(await call(mobileProvider(), { linkedinUrl: "https://www.linkedin.example/in/nobody" })).toEqual({});
  });

  it("refuses to be built without a key, or called without an email or a profile URL", async () => {
    expect(() => createPeopleDataLabsPersonEnrichProvider({ apiKey: "", http })).toThrow(/API key/);
    expect(() => createPeopleDataLabsPersonMobileProvider({ apiKey: "", http })).toThrow(/API key/);
    const { result, requests } = await withRequestCount(fake.requests, () =>
      call(enrichProvider(), { email: "  " }).catch((error: unknown) => error),
    );
    expect((result as Error).message).toMatch(/email or a LinkedIn URL/);
    expect(requests).toBe(0);
  });
});

describe("person data adapter: people-enrich provider", () => {
  it("is an internal people-enrich provider costing 28 cents by default, supplying only people-enrich fields", () => {
    const adapter = enrichProvider();
    expect(adapter).toMatchObject({
      id: "peopledatalabs-person",
      operation: "people_enrich",
      costCents: 28,
      timeoutMs: 10_000,
    });
    expect([...adapter.supplies].sort()).toEqual(PEOPLE_ENRICH_FIELDS.map((field) => field.name).sort());
    expect(
      createPeopleDataLabsPersonEnrichProvider({ apiKey: "k", http, costCents: 20, timeoutMs: 4_000 }),
    ).toMatchObject({
      costCents: 20,
      timeoutMs: 4_000,
    });
  });

  it("maps every stated fact, each as sure as the match (capped at 0.9)", async () => {
    const confidence = 0.9;
    expect(await call(enrichProvider(), MARIA)).toEqual({
      fullName: { value: "Maria Gonzalez", confidence },
      firstName: { value: "Maria", confidence },
      lastName: { value: "Gonzalez", confidence },
      position: { value: "Chief Executive Officer", confidence },
      seniority: { value: "executive", confidence },
      department: { value: "operations", confidence },
      email: { value: "maria.gonzalez@acme-robotics.example", confidence },
      company: { value: { name: "Acme Robotics", domain: "acme-robotics.example" }, confidence },
      location: { value: { locality: "Springfield", region: "Oregon", country: "United States" }, confidence },
      socialProfiles: {
        value: [
          { network: "linkedin", url: "https://linkedin.example/in/maria-gonzalez" },
          { network: "twitter", url: "https://twitter.example/mgonzalez_acme" },
        ],
        confidence,
      },
    } satisfies ProviderFields);
  });

  it("maps a record found by profile URL, with a weaker match and other networks", async () => {
    const confidence = 0.7;
    expect(await call(enrichProvider(), HELEN)).toEqual({
      fullName: { value: "Helen Wright", confidence },
      firstName: { value: "Helen", confidence },
      lastName: { value: "Wright", confidence },
      position: { value: "Chief Operating Officer", confidence },
      seniority: { value: "executive", confidence },
      department: { value: "operations", confidence },
      email: { value: "hwright@globex-logistics.example", confidence },
      // The website's "www." is not part of the domain.
      company: { value: { name: "Globex Logistics", domain: "globex-logistics.example" }, confidence },
      location: { value: { locality: "Riverton", region: "Texas", country: "United States" }, confidence },
      socialProfiles: {
        value: [
          { network: "linkedin", url: "https://linkedin.example/in/helen-wright" },
          { network: "github", url: "https://github.example/hwright" },
          { network: "facebook", url: "https://facebook.example/helen.wright" },
        ],
        confidence,
      },
    } satisfies ProviderFields);
  });

  it("leaves out what is unknown, a free plan's placeholders included, so the next provider may find it", async () => {
    const confidence = 0.8;
    expect(await call(enrichProvider(), TOM)).toEqual({
      fullName: { value: "Tom Okafor", confidence },
      firstName: { value: "Tom", confidence },
      lastName: { value: "Okafor", confidence },
      position: { value: "Senior Robotics Engineer", confidence },
      seniority: { value: "senior", confidence },
      // "engineering" in the department vocabulary.
      department: { value: "it", confidence },
      company: { value: { name: "Acme Robotics", domain: "acme-robotics.example" }, confidence },
      location: { value: { locality: null, region: null, country: "United States" }, confidence },
      socialProfiles: { value: [{ network: "linkedin", url: "https://linkedin.example/in/tom-okafor" }], confidence },
    } satisfies ProviderFields);
  });

  it("tolerates odd details, unknown roles and networks, and caps a likelihood out of range", async () => {
    fake.enqueue({
      body: {
        status: 200,
        likelihood: 14,
        data: {
          full_name: "Odd Person",
          first_name: 7,
          job_title: "  ",
          job_title_role: "unemployed",
          job_title_levels: ["Training", 3, null],
          job_company_name: null,
          job_company_website: "not a url",
          location_country: "Chile",
          linkedin_url: "http://linkedin.example/in/odd",
          profiles: [
            null,
            { network: "mastodon", url: "social.example/@odd" },
            { network: "linkedin", url: "LINKEDIN.example/in/odd/" },
          ],
          work_email: "Odd.Person@Odd.Example",
          phone_numbers: "+12025550111",
        },
      },
    });
    expect(await call(enrichProvider(), { email: "odd.person@odd.example" })).toEqual({
      fullName: { value: "Odd Person", confidence: 0.9 },
      seniority: { value: "junior", confidence: 0.9 },
      email: { value: "odd.person@odd.example", confidence: 0.9 },
      location: { value: { locality: null, region: null, country: "Chile" }, confidence: 0.9 },
      socialProfiles: {
        value: [
          { network: "linkedin", url: "http://linkedin.example/in/odd" },
          { network: "other", url: "https://social.example/@odd" },
        ],
        confidence: 0.9,
      },
    });
  });
});

describe("person data adapter: people-mobile provider", () => {
  it("is an internal people-mobile provider costing 28 cents by default, supplying phone numbers", () => {
    const adapter = mobileProvider();
    expect(adapter).toMatchObject({
      id: "peopledatalabs-mobile",
      operation: "people_mobile",
      costCents: 28,
      timeoutMs: 10_000,
    });
    expect([...adapter.supplies]).toEqual(PEOPLE_MOBILE_FIELDS.map((field) => field.name));
    expect(
      createPeopleDataLabsPersonMobileProvider({ apiKey: "k", http, costCents: 9, timeoutMs: 2_000 }),
    ).toMatchObject({ costCents: 9, timeoutMs: 2_000 });
  });

  it("asks for a match only when the record has a phone number", async () => {
    await call(mobileProvider(), MARIA);
    expect(lastRequest().query).toEqual({
      email: "maria.gonzalez@acme-robotics.example",
      min_likelihood: "6",
      titlecase: "true",
      required: "mobile_phone OR phone_numbers",
    });
    // A (weak) match without any number is a free 404 rather than a billed record.
    expect(await call(mobileProvider({ minLikelihood: 2 }), JONAS)).toEqual({});
    expect(await call(enrichProvider({ minLikelihood: 2 }), JONAS)).not.toEqual({});
  });

  it("answers the mobile number as mobile, the others as other, in E.164 and once each", async () => {
    const confidence = 0.9;
    expect(await call(mobileProvider(), MARIA)).toEqual({
      phoneNumbers: {
        value: [
          { number: "+12025550143", type: "mobile", confidence, source: "vendor" },
          // "+1 (202) 555-0177" compacted; "202-555-0160" has no country code and is left out.
          { number: "+12025550177", type: "other", confidence, source: "vendor" },
        ] satisfies PhoneNumberRecord[],
        confidence,
      },
    });
    expect(await call(mobileProvider(), HELEN)).toEqual({
      phoneNumbers: {
        value: [{ number: "+12025550119", type: "other", confidence: 0.7, source: "vendor" }],
        confidence: 0.7,
      },
    });
  });

  it("a free plan's placeholders and numbers without a country code are no numbers", async () => {
    expect(await call(mobileProvider(), TOM)).toEqual({});
    fake.enqueue({
      body: {
        status: 200,
        likelihood: 8,
        data: { mobile_phone: "(202) 555-0101", phone_numbers: ["555-0102", "+0 12", "+12"] },
      },
    });
    expect(await call(mobileProvider(), { email: "odd.person@odd.example" })).toEqual({});
  });
});

describe.each([
  { name: "people-enrich", adapter: enrichProvider },
  { name: "people-mobile", adapter: mobileProvider },
])("person data adapter: failures ($name)", ({ adapter }) => {
  it("a wrong key: 401, at once, without the key or the vendor's wording", async () => {
    const wrongKey = "f".repeat(64);
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(call(adapter({ apiKey: wrongKey }), MARIA), wrongKey),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "unauthorized", message: "upstream answered 401", status: 401 });
  });

  it("out of credits: 402 is quota, not retried", async () => {
    fake.setMode("out_of_credits");
    const { result: error, requests } = await withRequestCount(fake.requests, () => failure(call(adapter(), MARIA)));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "quota", message: "upstream answered 402", status: 402 });
  });

  it("429 whose window ends in a second: waits for it, retries once and answers", async () => {
    fake.enqueue({ mode: "rate_limited", resetInSeconds: 1 });
    const { result, requests } = await withRequestCount(fake.requests, () => call(adapter(), MARIA));
    expect(requests).toBe(2);
    expect(Object.keys(result).length).toBeGreaterThan(0);
  });

  it("429 whose window ends in a minute: fails at once with the seconds to wait", async () => {
    fake.setMode("rate_limited");
    const { result: error, requests } = await withRequestCount(fake.requests, () => failure(call(adapter(), MARIA)));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "rate_limited", message: "upstream answered 429", status: 429 });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("a server error is retried once: a blip is survived, an outage fails as unavailable", async () => {
    fake.enqueue("server_error");
    const recovered = await withRequestCount(fake.requests, () => call(adapter(), MARIA));
    expect(recovered.requests).toBe(2);
    expect(Object.keys(recovered.result).length).toBeGreaterThan(0);

    fake.setMode("server_error");
    const failed = await withRequestCount(fake.requests, () => failure(call(adapter(), MARIA)));
    expect(failed.requests).toBe(2);
    expect(failed.result).toMatchObject({ reason: "unavailable", message: "upstream answered 500", status: 500 });
  });

  it("a slow upstream is cut off by the adapter's time limit, without a retry", async () => {
    fake.setMode("slow");
    const { result: error, requests } = await withRequestCount(fake.requests, () =>
      failure(call(adapter({ timeoutMs: 300 }), MARIA, AbortSignal.timeout(10_000))),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "timeout", message: "upstream request timed out" });
  });

  it("a slow upstream is cut off by the caller's time limit", async () => {
    fake.setMode("slow");
    expect(await failure(call(adapter(), MARIA, AbortSignal.timeout(150)))).toMatchObject({
      reason: "timeout",
      message: "upstream request timed out",
    });
  });

  it("a redirect is not followed", async () => {
    fake.setMode("redirect");
    expect(await failure(call(adapter(), MARIA))).toMatchObject({
      reason: "redirected",
      message: "upstream answered 302",
    });
    expect(lastRequest().path).toBe("/v5/person/enrich");
  });

  it("a body that is not JSON, or not the documented shape", async () => {
    fake.setMode("malformed");
    expect(await failure(call(adapter(), MARIA))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with a body that is not JSON",
    });
    fake.setMode("unexpected_shape");
    expect(await failure(call(adapter(), MARIA))).toMatchObject({
      reason: "invalid_body",
      message: "upstream answered with an unexpected body",
    });
    fake.setMode("normal");
    // A likelihood but no person.
    fake.enqueue({ body: { status: 200, likelihood: 9, data: null } });
    expect((await failure(call(adapter(), MARIA))).reason).toBe("invalid_body");
  });
});
