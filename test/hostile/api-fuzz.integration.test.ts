import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace, setSubscriptionAllowance } from "@/lib/billing/balances";
import type { Contract } from "@/lib/contracts/contract";
import { DASHBOARD_HEADER, WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";
import {
  ERROR_STATUS,
  errorBodySchema,
  fastApiErrorSchema,
  fastApiValidationErrorSchema,
} from "@/lib/contracts/errors";
import { contracts } from "@/lib/contracts/index";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { FAKE_VIDEOS, startFakeYouTube, type FakeYouTube } from "@/test/fakes/youtube-server";
import { fuzzReport } from "./fuzz-report";
import {
  hostileBytes,
  hostileIdSegment,
  hostileJson,
  hostileJsonText,
  hostileNumber,
  hostileString,
  percentEncode,
} from "./hostile-input";
import { rawRequest, type RawAnswer } from "./raw-http";

/*
 * Every operation of lib/contracts/index.ts, over real HTTP against the launched app, with hostile requests built by
 * fast-check: random JSON and raw bytes as bodies, each declared field swapped for a wrong type or an edge value,
 * hostile strings (NUL, lone surrogates, bidi controls, emoji, 50k characters), huge and negative numbers, deep
 * nesting, malformed and forged cursors, ids made for path traversal, odd and oversized headers, and every kind of
 * caller (live key, test key, revoked key, garbage key, no key, a forged dashboard session).
 *
 * Whatever arrives: never a 5xx, every 4xx is the operation's documented error body with the status its code
 * names, nothing is stored when a request is refused, the app stays up and logs no unhandled error, and the money
 * of the funded workspace still adds up when the run ends. Webhook ingest has its own file (ingest-fuzz).
 */

// Cases per operation. 28 operations × RUNS_PER_OPERATION requests, each with a database fingerprint on either side.
const RUNS_PER_OPERATION = 100;
const ALL_PROVIDERS = [
  "website",
  "website-profile",
  "fingerprints",
  "company-store",
  "people-store",
  "public-filings",
  "hunter",
  "hunter-email-finder",
  "peopledatalabs",
  "peopledatalabs-company",
  "peopledatalabs-person",
  "peopledatalabs-mobile",
  "builtwith",
];

let app: RunningApp;
let youtube: FakeYouTube;
const report = fuzzReport("api-fuzz");

interface Fixtures {
  workspaceId: string;
  liveKey: string;
  testKey: string;
  revokedKey: string;
  /** A key of this workspace that DELETE /v1/api-keys/:id may revoke (never the ones the fuzz calls with). */
  sacrificialKeyId: string;
  endpointId: string;
  /** A destination of that endpoint. */
  destinationId: string;
  deliveryIds: string[];
  cursor: string;
  otherWorkspaceId: string;
  before: { subscription: number; purchased: number };
}
let fx: Fixtures;

// ---------------------------------------------------------------------------------------------------------------
// What a request is made of.

type Caller =
  | { kind: "live" | "test" | "revoked" | "none" }
  | { kind: "garbage"; authorization: string }
  | { kind: "session"; cookie: string; workspace: string };

const caller: fc.Arbitrary<Caller> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: "live" as const }) },
  { weight: 3, arbitrary: fc.constant({ kind: "test" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "revoked" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          "Bearer",
          "Bearer ",
          "Basic dXNlcjpwYXNz",
          "bearer\tsbx_live_",
          "Bearer sbx_live_" + "A".repeat(40) + " extra",
          "Bearer sbx_test_\u00ff\u00fe",
          "Bearer \u00e9",
          "Token x",
        ),
        fc.string({ unit: "binary-ascii", maxLength: 200 }).map((text) => `Bearer ${text.replace(/[\r\n\0]/g, "")}`),
        fc.stringMatching(/^[0-9A-Za-z]{0,80}$/).map((tail) => `Bearer sbx_live_${tail}`),
      )
      .map((authorization) => ({ kind: "garbage" as const, authorization })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        cookie: fc.stringMatching(/^[A-Za-z0-9._-]{0,400}$/),
        workspace: fc.oneof(fc.constant(""), fc.stringMatching(/^[ -~]{0,60}$/)),
      })
      .map(({ cookie, workspace }) => ({ kind: "session" as const, cookie, workspace })),
  },
);

/** Values of a query parameter as written on the wire: encoded hostile text, raw bad escapes, numbers, repeats. */
const queryValue: fc.Arbitrary<string> = fc.oneof(
  hostileString.filter((text) => text.length < 3_000).map(percentEncode),
  hostileNumber.map((number) => percentEncode(String(number))),
  fc.constantFrom(
    "",
    "%",
    "%zz",
    "%E0%A4",
    "%ED%A0%80",
    "%00",
    "+",
    "true",
    "false",
    "TRUE",
    "1",
    "0",
    "-1",
    "101",
    "50.5",
    "1e2",
    "0x10",
    "NaN",
    "Infinity",
    "desc",
    "asc",
    "%20%31",
  ),
);

function cursorValues(): fc.Arbitrary<string> {
  const real = fx.cursor;
  const [payload = "", signature = ""] = real.split(".");
  return fc.oneof(
    fc.constantFrom(
      real,
      `${payload}.${signature.slice(0, -1)}A`,
      `${payload}A.${signature}`,
      `${payload}.${signature}.extra`,
      `.${signature}`,
      `${payload}.`,
      ".",
      "..",
      Buffer.from(JSON.stringify({ v: 1, t: "2020-01-01T00:00:00.000Z", i: "x", s: "[]" })).toString("base64url") +
        ".AAAAAAAAAAAAAAAAAAAAAA",
      "eyJ2IjoxfQ",
    ),
    fc.base64String({ maxLength: 300 }),
    fc.stringMatching(/^[A-Za-z0-9_-]{0,200}\.[A-Za-z0-9_-]{0,40}$/),
  );
}

/** A query string for the operation: its own parameters with hostile values, unknown ones, repeats. */
function queryFor(contract: Contract): fc.Arbitrary<string> {
  const declared = contract.query ? Object.keys(contract.query.shape) : [];
  const name = fc.oneof(
    ...(declared.length ? [{ weight: 4, arbitrary: fc.constantFrom(...declared) }] : []),
    {
      weight: 1,
      arbitrary: fc.constantFrom("__proto__", "constructor", "limit[]", "cursor[0]", "", "%00", "a%ED%A0%80"),
    },
    { weight: 1, arbitrary: hostileString.filter((text) => text.length < 100).map(percentEncode) },
  );
  const pair = fc
    .tuple(
      name,
      fc.oneof(
        { weight: 3, arbitrary: queryValue },
        { weight: declared.includes("cursor") ? 2 : 0, arbitrary: cursorValues().map(percentEncode) },
      ),
    )
    .map(([key, value]) => `${key}=${value}`);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant("") },
    { weight: 6, arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((pairs) => `?${pairs.join("&")}`) },
    { weight: 1, arbitrary: fc.constantFrom("?", "?&&&", "?=", "?==&=", "?%", "?a=%", "?%ZZ=%ZZ") },
  );
}

/** A valid body for each operation with one, which the fuzz then breaks one field at a time. */
function validBody(contract: Contract): Record<string, unknown> {
  const domain = "acme-robotics.example";
  const bodies: Record<string, Record<string, unknown>> = {
    createApiKey: { name: "fuzz key", mode: "test" },
    updateMember: { role: "member" },
    createInvitation: { email: "fuzz-invitee@example.com", role: "member" },
    creditWorkspace: { amountCents: 100, note: "fuzz" },
    createSignUpInvitation: { email: "fuzz-signup@example.com" },
    createWebhookEndpoint: {
      name: "fuzz endpoint",
      description: "made by a fuzz case",
      signing: { scheme: "stripe", secret: "whsec_fuzz", rejectInvalid: false },
      retention: { acknowledgedDays: 1, allDays: 3650 },
    },
    updateWebhookEndpoint: {
      name: "renamed",
      description: null,
      enabled: true,
      signing: null,
      retention: { acknowledgedDays: 7, allDays: 30 },
    },
    updateWorkspace: { deliveryRetention: { acknowledgedDays: 7, allDays: 30 } },
    acknowledgeDeliveries: { ids: fx.deliveryIds.slice(0, 2) },
    createWebhookDestination: {
      url: "https://fuzz-destination.example/in",
      headers: { authorization: "Bearer fuzz" },
      timeoutMs: 5_000,
      retry: { maxAttempts: 3, maxAgeSeconds: 600 },
      rateLimitPerSecond: 10,
      autoAcknowledge: false,
      ordered: false,
      enabled: true,
    },
    updateWebhookDestination: {
      url: "https://fuzz-destination.example/changed",
      enabled: true,
      rateLimitPerSecond: null,
    },
    replayDelivery: { destinationId: fx.destinationId },
    replayDeliveries: { filter: { endpointId: fx.endpointId }, destinationId: fx.destinationId },
    companies_domain_emails: {
      domain,
      limit: 10,
      offset: 0,
      type: "personal",
      seniority: "senior",
      department: "sales",
    },
    companies_intelligence: { domain, signal: "technographics" },
    companies_enrich: { domain },
    companies_search: { query: "acme robotics", limit: 10 },
    companies_discover: {
      domain,
      filters: {
        industry: ["robotics"],
        keywords: ["robots"],
        technologies: ["WordPress"],
        country: "US",
        locality: "Berlin",
        sizeRange: "11-50",
      },
      limit: 10,
    },
    people_email: { firstName: "Jordan", lastName: "Ellis", domain },
    people_enrich: { email: `jordan.ellis@${domain}` },
    people_mobile: { linkedinUrl: "https://www.linkedin.com/in/jane-doe" },
    people_search: { domain, titles: ["ceo"], seniority: ["executive"], department: ["sales"], limit: 10 },
  };
  const body = bodies[contract.operationId];
  if (!body) throw new Error(`No valid body for ${contract.operationId}: add one above`);
  return body;
}

/** Values of the wrong type, or of the right type at the edges. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileJson },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      [],
      {},
      "1",
      1,
      true,
      false,
      null,
      [null],
      [""],
      { $gt: "" },
      { __proto__: { admin: true } },
      "10",
      10.5,
      -1,
      0,
      101,
    ),
  },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 30 }) },
);

/** The body bytes and their content type. */
function bodyFor(contract: Contract): fc.Arbitrary<{ bytes: Uint8Array; contentType: string | null } | null> {
  const json = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant("application/json") },
    {
      weight: 2,
      arbitrary: fc.constantFrom<string | null>(
        null,
        "",
        "application/json; charset=utf-16",
        "APPLICATION/JSON",
        "application/merge-patch+json",
        "application/vnd.signalbox.v1+json; x=\u00ff",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "json",
        "*/*",
      ),
    },
  );
  const shapeKeys = contract.body instanceof z.ZodObject ? Object.keys(contract.body.shape) : [];
  const withBody = (bytes: fc.Arbitrary<Uint8Array>) => fc.record({ bytes, contentType });
  // Body cursors (search, discover, people search) also get forged and foreign ones: this real one is a listing's.
  const valueFor = (key: string) => (key === "cursor" ? fc.oneof(wrongValue, cursorValues()) : wrongValue);
  const mutated = fc
    .constantFrom(...shapeKeys, "unknownField", "__proto__")
    .chain((key) => fc.tuple(fc.constant(key), valueFor(key), fc.boolean()))
    .map(([key, value, drop]) => {
      const body: Record<string, unknown> = { ...validBody(contract) };
      if (drop) delete body[key];
      else Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
      return json(JSON.stringify(body));
    });
  const wholeBody = fc.oneof(
    { weight: 2, arbitrary: hostileJsonText.map(json) },
    { weight: 1, arbitrary: hostileBytes },
    { weight: 1, arbitrary: fc.constant(json(JSON.stringify(contract.body ? validBody(contract) : {}))) },
  );
  if (!contract.body)
    return fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: withBody(wholeBody) });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 5, arbitrary: withBody(mutated) },
    { weight: 3, arbitrary: withBody(wholeBody) },
  );
}

/** Extra headers: the operation's own (X-Budget-Cents, Cache-Control) with odd values, noise, one huge, many. */
const extraHeaders: fc.Arbitrary<[string, string][]> = fc
  .array(
    fc.oneof(
      fc.tuple(
        fc.constant("X-Budget-Cents"),
        fc.constantFrom(
          "",
          "0",
          "-1",
          "1e3",
          "99999999",
          "999999999",
          "9007199254740993",
          "0x10",
          " 5",
          "5 ",
          "٣",
          "5,5",
          "+5",
          "1.5",
          "NaN",
          "00000000005",
        ),
      ),
      fc.tuple(
        fc.constant("Cache-Control"),
        fc.constantFrom("no-cache", "NO-CACHE", "no-store, no-cache", "max-age=-1", "\u00ff", ""),
      ),
      fc.tuple(
        fc.constantFrom(
          "Accept",
          "Accept-Encoding",
          "X-Forwarded-For",
          "X-Forwarded-Host",
          "Origin",
          "Referer",
          "Range",
          "If-None-Match",
          "X-HTTP-Method-Override",
        ),
        fc.stringMatching(/^[ -~]{0,120}$/),
      ),
      fc.tuple(
        fc.stringMatching(/^x-[a-z0-9-]{1,30}$/),
        fc.oneof(fc.stringMatching(/^[ -~]{0,60}$/), fc.constantFrom("\u00e9\u00ff\u0080", "\t", "a\tb")),
      ),
      fc.tuple(
        fc.constant("X-Huge"),
        fc.integer({ min: 1_000, max: 12_000 }).map((length) => "h".repeat(length)),
      ),
    ),
    { maxLength: 6 },
  )
  .chain((headers) =>
    fc.oneof(
      { weight: 9, arbitrary: fc.constant(headers) },
      // Many headers: under Node's 16 KiB and 2,000-header limits, which Node itself enforces.
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: 100, max: 1_500 })
          .map((many) => [
            ...headers,
            ...Array.from({ length: many }, (_, index): [string, string] => [`x-h${index}`, "v"]),
          ]),
      },
    ),
  );

/** Methods besides the operation's own: the route's neighbours, what Next.js answers itself, and rarer ones. */
const OTHER_METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "SEARCH",
  "PURGE",
  "LINK",
  "MKCOL",
];

interface Planned {
  method: string;
  caller: Caller;
  target: string;
  headers: [string, string][];
  body: { bytes: Uint8Array; contentType: string | null } | null;
}

/** Ids a path parameter may take: hostile segments, and sometimes a real id of the fuzz workspace. */
function idFor(contract: Contract, parameter: string): fc.Arbitrary<string> {
  const real: string[] = [];
  if (parameter === "destinationId") real.push(fx.destinationId);
  else if (contract.path.startsWith("/v1/webhook-endpoints/{id}") && contract.method !== "DELETE")
    real.push(fx.endpointId);
  if (contract.path.startsWith("/v1/webhook-endpoints/deliveries/{id}"))
    real.push(...fx.deliveryIds, fx.deliveryIds[0]!.toUpperCase());
  if (contract.path === "/v1/api-keys/{id}") real.push(fx.sacrificialKeyId);
  return real.length
    ? fc.oneof({ weight: 4, arbitrary: hostileIdSegment }, { weight: 1, arbitrary: fc.constantFrom(...real) })
    : hostileIdSegment;
}

function plan(contract: Contract): fc.Arbitrary<Planned> {
  // Outside /v1 (the health check) a variant of the path is a page path, Next.js's to answer: only the path itself.
  const parameters = [...contract.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const path = parameters.length
    ? fc
        .tuple(...parameters.map((parameter) => idFor(contract, parameter)))
        .map((ids) => ids.reduce((filled, id) => filled.replace(/\{[^}]+\}/, id), contract.path))
    : !contract.path.startsWith("/v1/")
      ? fc.constant(contract.path)
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant(contract.path) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              `${contract.path}/`,
              `${contract.path}/.`,
              contract.path.replace(/^\/v1\//, "/v1//"),
              contract.path.replace(/^\/v1\//, "/v1/%2e%2e/v1/"),
              `${contract.path}%2f..`,
            ),
          },
        );
  return fc.record({
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(contract.method) },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    ),
    caller,
    target: fc.tuple(path, queryFor(contract)).map(([base, query]) => `${base}${query}`),
    headers: extraHeaders,
    body: bodyFor(contract),
  });
}

function headersOf(planned: Planned): [string, string][] {
  const headers: [string, string][] = [];
  const who = planned.caller;
  if (who.kind === "live") headers.push(["Authorization", `Bearer ${fx.liveKey}`]);
  if (who.kind === "test") headers.push(["Authorization", `Bearer ${fx.testKey}`]);
  if (who.kind === "revoked") headers.push(["Authorization", `Bearer ${fx.revokedKey}`]);
  if (who.kind === "garbage") headers.push(["Authorization", who.authorization]);
  if (who.kind === "session") {
    headers.push(
      [DASHBOARD_HEADER, "1"],
      ["Cookie", `next-auth.session-token=${who.cookie}; __Secure-next-auth.session-token=${who.cookie}`],
    );
    if (who.workspace) headers.push([WORKSPACE_HEADER, who.workspace]);
  }
  if (planned.body?.contentType) headers.push(["Content-Type", planned.body.contentType]);
  return [...headers, ...planned.headers];
}

// ---------------------------------------------------------------------------------------------------------------
// What must hold for every answer.

/** Everything a request could have stored, changed or spent, across the whole database of this file. */
async function fingerprint(): Promise<string> {
  const [row] = await db().$queryRaw<Record<string, unknown>[]>`
    SELECT
      (SELECT count(*) FROM workspaces)::int AS workspaces,
      (SELECT coalesce(sum(subscription_remaining_cents), 0)::int FROM workspaces) AS subscription,
      (SELECT coalesce(sum(purchased_balance_cents), 0)::int FROM workspaces) AS purchased,
      (SELECT count(*) FROM api_keys)::int AS keys,
      (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL)::int AS revoked,
      (SELECT count(*) FROM webhook_endpoints)::int AS endpoints,
      (SELECT coalesce(max(updated_at)::text, '') FROM webhook_endpoints) AS endpoints_changed,
      (SELECT count(*) FROM webhook_deliveries)::int AS deliveries,
      (SELECT count(*) FROM webhook_deliveries WHERE acknowledged_at IS NOT NULL)::int AS acknowledged,
      (SELECT md5(coalesce(string_agg(concat_ws('|', id, url, headers::text, timeout_ms, max_attempts, max_age_seconds,
                                                rate_limit_per_second, auto_acknowledge, ordered, enabled), ','
                                      ORDER BY id), '')) FROM webhook_destinations) AS destinations,
      (SELECT count(*) FROM delivery_forwards)::int AS forwards,
      (SELECT count(*) FROM ledger_entries)::int AS ledger,
      (SELECT count(*) FROM enrichment_cache)::int AS cache,
      (SELECT count(*) FROM users)::int AS users,
      (SELECT count(*) FROM workspace_members)::int AS members`;
  return JSON.stringify(row);
}

/** A 4xx (or 5xx) body is the operation's documented error shape, with the status its code names. */
function expectDocumentedError(contract: Contract, method: string, target: string, answer: RawAnswer, what: string) {
  // Node's own HTTP parser refuses some requests before any application code runs (headers over 16 KiB: 431); the
  // launcher answers those with the error body too (lib/api/client-error.ts), checked below like any other.
  // HEAD answers carry no body; their status is all there is to check.
  if (method === "HEAD") return;
  expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
  const json: unknown = JSON.parse(answer.body.toString("utf8"));
  // The video endpoint's own path answers in FastAPI's shape; a variant of it (`…/details/.`) is no route of its own.
  // What the HTTP server refuses before routing (headers over 16 KiB: 431) has the standard body on every path.
  const refusedByServer = answer.status === 431 || answer.status === 408;
  if (contract.errorFormat === "fastapi" && target.split("?", 1)[0] === contract.path && !refusedByServer) {
    if (answer.status === 422) expect(fastApiValidationErrorSchema.safeParse(json).success, what).toBe(true);
    else expect(fastApiErrorSchema.safeParse(json).success, what).toBe(true);
    return;
  }
  const parsed = errorBodySchema.safeParse(json);
  expect(parsed.success, what).toBe(true);
  if (parsed.success) expect(ERROR_STATUS[parsed.data.error.code], what).toBe(answer.status);
}

function describeRequest(planned: Planned, answer: RawAnswer): string {
  const body = planned.body ? Buffer.from(planned.body.bytes).toString("utf8").slice(0, 300) : "(none)";
  return `${planned.caller.kind} ${planned.method} ${planned.target.slice(0, 300)} body=${JSON.stringify(body)} → ${answer.status} ${answer.body.toString("utf8").slice(0, 300)}`;
}

async function expectAlive() {
  expect(app.process.exitCode).toBeNull();
  const health = await fetch(`${app.baseUrl}/healthz`);
  expect(health.status).toBe(200);
}

// ---------------------------------------------------------------------------------------------------------------

beforeAll(async () => {
  youtube = await startFakeYouTube();
  app = await startApp({
    // Live keys of the fuzz workspace have money, so hostile input reaches the priced path; no provider may reach out.
    ENRICHMENT_PROVIDERS_DISABLED: ALL_PROVIDERS.join(","),
    DNS_SERVERS: `127.0.0.1:${await closedPort()}`,
    YOUTUBE_BASE_URL: youtube.baseUrl,
    OUTBOUND_ALLOW_LOOPBACK: "true",
    SEC_EDGAR_ENABLED: "false",
    // Thousands of requests from one key in a minute: the rate limit would answer most of them 429, unexamined.
    RATE_LIMIT_API_PER_MINUTE: "0",
  });

  const workspace = await createWorkspace({ name: "Hostile input" });
  await setSubscriptionAllowance({ workspaceId: workspace.id, allowanceCents: 5_000, note: "fuzz plan" });
  await creditWorkspace({ workspaceId: workspace.id, cents: 50_000, note: "fuzz top-up" });
  const live = await createApiKey({ workspaceId: workspace.id, name: "fuzz live", mode: "live" });
  const test = await createApiKey({ workspaceId: workspace.id, name: "fuzz test", mode: "test" });
  const revoked = await createApiKey({ workspaceId: workspace.id, name: "fuzz revoked", mode: "live" });
  await revokeApiKey({ workspaceId: workspace.id, apiKeyId: revoked.apiKey.id });
  const sacrificial = await createApiKey({ workspaceId: workspace.id, name: "may be revoked", mode: "test" });
  const other = await createWorkspace({ name: "Neighbour" });

  const auth = { authorization: `Bearer ${live.key}`, "content-type": "application/json" };
  const endpoint = (await (
    await fetch(`${app.baseUrl}/v1/webhook-endpoints`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "fuzz target" }),
    })
  ).json()) as { data: { id: string } };
  const destination = (await (
    await fetch(`${app.baseUrl}/v1/webhook-endpoints/${endpoint.data.id}/destinations`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ url: "https://fuzz-destination.example/in" }),
    })
  ).json()) as { data: { id: string } };
  const deliveryIds: string[] = [];
  for (const body of ['{"n":1}', "plain text", '{"n":"\\u0000"}']) {
    const answer = await fetch(`${app.baseUrl}/webhooks/ingest/${endpoint.data.id}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    deliveryIds.push(((await answer.json()) as { deliveryId: string }).deliveryId);
  }
  const page = (await (
    await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries?limit=1`, { headers: auth })
  ).json()) as { data: { nextCursor: string } };
  const balances = await db().workspace.findUniqueOrThrow({ where: { id: workspace.id } });

  fx = {
    workspaceId: workspace.id,
    liveKey: live.key,
    testKey: test.key,
    revokedKey: revoked.key,
    sacrificialKeyId: sacrificial.apiKey.id,
    endpointId: endpoint.data.id,
    destinationId: destination.data.id,
    deliveryIds,
    cursor: page.data.nextCursor,
    otherWorkspaceId: other.id,
    before: { subscription: balances.subscriptionRemainingCents, purchased: balances.purchasedBalanceCents },
  };
  expect(fx.cursor).toEqual(expect.any(String));
}, 120_000);

afterAll(async () => {
  report.print();
  await app?.stop();
  await youtube?.close();
});

describe("every /v1 operation under hostile requests", () => {
  const fuzzed = contracts.filter((contract) => contract.servedBy !== "launcher");

  it.each(fuzzed.map((contract) => [`${contract.method} ${contract.path}`, contract] as const))(
    "%s: never a 5xx, documented 4xx bodies, nothing stored when refused",
    async (name, contract) => {
      await report.check(name, RUNS_PER_OPERATION, plan(contract), async (planned, record) => {
        const before = await fingerprint();
        const answer = await rawRequest(app.baseUrl, {
          method: planned.method,
          target: planned.target,
          headers: headersOf(planned),
          body: planned.body?.bytes,
        });
        report.count(record, answer.status);
        const what = describeRequest(planned, answer);
        expect(answer.noAnswer, what).toBeFalsy();
        expect(answer.status, what).toBeLessThan(500);
        if (answer.status >= 400) {
          expectDocumentedError(contract, planned.method, planned.target, answer, what);
          expect(await fingerprint(), `stored something on refusal: ${what}`).toBe(before);
        }
      });
      await expectAlive();
    },
    180_000,
  );

  it("answers a forged dashboard session with a Host or X-Forwarded-Host no URL can hold with 401, not 500", async () => {
    // Regression: next-auth builds its URL from these headers and threw "Invalid URL" (lib/api/authenticate.ts).
    for (const headers of [
      [["X-Forwarded-Host", "j OA)e"]],
      [["X-Forwarded-Host", ""]],
      [["X-Forwarded-Host", "a, b"]],
      [["Host", "bad host"]],
      [["Host", "[::1"]],
    ] as [string, string][][]) {
      const answer = await rawRequest(app.baseUrl, {
        method: "GET",
        target: "/v1/webhook-endpoints",
        headers: [[DASHBOARD_HEADER, "1"], ["Cookie", "next-auth.session-token=forged"], ...headers],
      });
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(errorBodySchema.parse(JSON.parse(answer.body.toString("utf8"))).error.code).toBe("unauthorized");
    }
  });

  it("answers the video endpoint's own cases in its own shape", async () => {
    // The property above rarely hits a valid id; these are the ones that reach the fake upstream.
    for (const [id, status] of [
      [FAKE_VIDEOS.unknown, 404],
      [`https://youtu.be/${FAKE_VIDEOS.private}`, 404],
      [FAKE_VIDEOS.ageRestricted, 403],
    ] as const) {
      const answer = await rawRequest(app.baseUrl, {
        method: "GET",
        target: `/v1/data/media/video/details?video_id=${percentEncode(id)}`,
        headers: [["Authorization", `Bearer ${fx.testKey}`]],
      });
      expect(answer.status).toBe(status);
      expect(fastApiErrorSchema.safeParse(JSON.parse(answer.body.toString("utf8"))).success).toBe(true);
    }
  });
});

describe("accepted text comes back exactly", () => {
  it("stores any well-formed name or description as sent (trimmed), and refuses NUL and lone surrogates storing nothing", async () => {
    const text = hostileString.filter((value) => value.length <= 600);
    const property = fc.record({
      operation: fc.constantFrom("create endpoint", "update endpoint", "create key"),
      name: text,
      description: text,
    });
    // Its own endpoint: the storm above may have deleted the shared one (a DELETE sent to a real id).
    const own = await rawRequest(app.baseUrl, {
      method: "POST",
      target: "/v1/webhook-endpoints",
      headers: [
        ["Authorization", `Bearer ${fx.liveKey}`],
        ["Content-Type", "application/json"],
      ],
      body: Buffer.from('{"name":"renamed by the fuzz"}'),
    });
    const ownId = (JSON.parse(own.body.toString("utf8")) as { data: { id: string } }).data.id;
    await report.check("text round trip (endpoints, keys)", 100, property, async (input, record) => {
      const name = input.name.trim();
      const description = input.description.trim();
      const storable = (value: string) => value.isWellFormed() && !value.includes("\u0000");
      const isKey = input.operation === "create key";
      const valid =
        name.length >= 1 &&
        name.length <= 100 &&
        storable(name) &&
        (isKey || (description.length <= 500 && storable(description)));
      const [method, path, body] =
        input.operation === "create endpoint"
          ? ["POST", "/v1/webhook-endpoints", { name: input.name, description: input.description }]
          : input.operation === "update endpoint"
            ? ["PATCH", `/v1/webhook-endpoints/${ownId}`, { name: input.name, description: input.description }]
            : ["POST", "/v1/api-keys", { name: input.name, mode: "test" }];
      const before = await fingerprint();
      const answer = await rawRequest(app.baseUrl, {
        method,
        target: path,
        headers: [
          ["Authorization", `Bearer ${fx.liveKey}`],
          ["Content-Type", "application/json"],
        ],
        body: Buffer.from(JSON.stringify(body)),
      });
      report.count(record, answer.status);
      const json = JSON.parse(answer.body.toString("utf8")) as {
        data: { id?: string; name: string; description?: string | null; apiKey?: { id: string; name: string } };
      };
      const context = `${input.operation} ${JSON.stringify(body).slice(0, 300)} → ${answer.status} ${answer.body.toString("utf8").slice(0, 300)}`;
      if (!valid) {
        expect(answer.status, context).toBe(400);
        expect(errorBodySchema.parse(json).error.code, context).toBe("validation_error");
        expect(await fingerprint(), context).toBe(before);
        return;
      }
      expect(answer.status, context).toBe(method === "PATCH" ? 200 : 201);
      if (isKey) {
        expect(json.data.apiKey?.name, context).toBe(name);
        const keys = await db().apiKey.findUniqueOrThrow({ where: { id: json.data.apiKey!.id } });
        expect(keys.name, context).toBe(name);
        return;
      }
      expect(json.data.name, context).toBe(name);
      expect(json.data.description, context).toBe(description);
      const read = await rawRequest(app.baseUrl, {
        method: "GET",
        target: `/v1/webhook-endpoints/${json.data.id}`,
        headers: [["Authorization", `Bearer ${fx.liveKey}`]],
      });
      expect(JSON.parse(read.body.toString("utf8")), context).toMatchObject({ data: { name, description } });
    });
  }, 120_000);
});

describe("after the storm", () => {
  it("is still up, logged no unhandled error, and the money adds up", async () => {
    await expectAlive();
    expect(app.output()).not.toMatch(/Unhandled error|uncaughtException|unhandledRejection/);

    const workspace = await db().workspace.findUniqueOrThrow({ where: { id: fx.workspaceId } });
    expect(workspace.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
    expect(workspace.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
    const entries = await db().ledgerEntry.findMany({ where: { workspaceId: fx.workspaceId, kind: "usage" } });
    const moved = entries.reduce((sum, entry) => sum + entry.subscriptionDeltaCents + entry.purchasedDeltaCents, 0);
    expect(moved).toBe(
      workspace.subscriptionRemainingCents +
        workspace.purchasedBalanceCents -
        fx.before.subscription -
        fx.before.purchased,
    );
    // What moved is what live calls cost (a sum, not a negation: a storm that charged nothing moved -0).
    const charged = entries
      .filter((entry) => entry.keyMode === "live")
      .reduce((sum, entry) => sum + entry.costCents, 0);
    expect(moved + charged).toBe(0);
    for (const entry of entries) {
      expect(entry.subscriptionRemainingCents).toBeGreaterThanOrEqual(0);
      expect(entry.purchasedBalanceCents).toBeGreaterThanOrEqual(0);
      if (entry.keyMode === "test") expect(entry.subscriptionDeltaCents + entry.purchasedDeltaCents).toBe(0);
    }
    // The neighbour was never touched.
    expect(await db().ledgerEntry.count({ where: { workspaceId: fx.otherWorkspaceId } })).toBe(0);
  });
});
