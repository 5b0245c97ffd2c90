import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createInvitation, hashInvitationToken } from "@/lib/auth/invitations";
import { createAccount } from "@/lib/auth/users";
import type { Contract } from "@/lib/contracts/contract";
import { WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";
import { contracts } from "@/lib/contracts/index";
import { db } from "@/lib/db/client";
import { eventually } from "@/test/forward-receiver";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { errorOf, readResponse } from "@/test/http-api";
import { dashboardHeaders, signIn } from "./sessions";

/*
 * Tenant isolation, route by route: workspace A holds data in every resource a /v1 route reads (webhook endpoints,
 * deliveries, API keys, ledger rows from test-key enrichment, cursors); workspace B then calls EVERY operation of
 * lib/contracts with A's ids and cursors, as each of B's principals: its live key, its test key, its user's dashboard
 * session in its own workspace, and that session naming A's workspace. Each answer must be 404, an empty list, 400 for
 * a foreign cursor, or B's own data, and no answer may contain anything of A's: ids, names, secrets, payload markers.
 * A new contract without an entry in MATRIX fails the run, so no route can be forgotten.
 */

let app: RunningApp;

const PASSWORD = "correct horse battery staple";
const tag = randomBytes(4).toString("hex");

beforeAll(async () => {
  // Video details of a test key go to YouTube: a closed loopback port answers 502 at once, offline.
  app = await startApp({ PUBLIC_BASE_URL: "", YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

// ---------------------------------------------------------------------------------------------------------------
// HTTP

interface Answer {
  status: number;
  json: unknown;
  text: string;
  headers: Headers;
}

async function send(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    redirect: "manual",
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return readResponse(response);
}

const withKey = (key: string) => ({ authorization: `Bearer ${key}` });

async function okJson<T>(answer: Promise<Answer>, status = 200): Promise<T> {
  const { status: actual, text, json } = await answer;
  expect(actual, text).toBe(status);
  return json as T;
}

async function ingest(endpointId: string, payload: unknown, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });
  const json = (await response.json()) as { deliveryId: string };
  expect(response.status).toBe(200);
  return json.deliveryId;
}

// ---------------------------------------------------------------------------------------------------------------
// The two workspaces

interface WorkspaceA {
  workspaceId: string;
  liveKey: { id: string; key: string };
  testKey: { id: string; key: string };
  revokedKey: { id: string; key: string };
  endpointIds: string[];
  disabledEndpointId: string;
  deliveryIds: string[];
  acknowledgedDeliveryId: string;
  /** Destinations of A's first endpoint (the deliveries on it were forwarded to them). */
  destinationIds: string[];
  /** A's owner and a member of A. */
  userIds: string[];
  invitationId: string;
  cursors: Record<
    "endpoints" | "deliveries" | "rejections" | "companySearch" | "companyDiscover" | "peopleSearch",
    string
  >;
  /** Everything of A's that must never reach B. */
  markers: Set<string>;
}

interface WorkspaceB {
  workspaceId: string;
  userId: string;
  liveKey: string;
  testKey: string;
  endpointId: string;
  deliveryId: string;
  cookies: string;
}

let a: WorkspaceA;
let b: WorkspaceB;

const PAYLOAD_MARKER = `a-payload-${tag}`;
const HEADER_MARKER = `a-header-${tag}`;
const EVENT_TYPE_MARKER = `a-event-type-${tag}`;
const SIGNING_SECRET = `a-signing-secret-${randomBytes(12).toString("hex")}`;
const DESTINATION_URL = `https://a-destination-${tag}.example/in`;
const DESTINATION_HEADER_MARKER = `a-destination-header-${tag}`;
const ATTEMPT_MARKER = `a-attempt-${tag}`;
const REJECTION_MARKER = `a-rejection-${tag}`;

function secretPart(key: string): string {
  return key.replace(/^sbx_(live|test)_/, "");
}

async function buildWorkspaceA(): Promise<WorkspaceA> {
  const email = `alice-${tag}@example.com`;
  const account = await createAccount({
    email,
    password: PASSWORD,
    name: `Alice ${tag}`,
    workspaceName: `Alpha ${tag}`,
  });
  const live = await createApiKey({
    workspaceId: account.workspaceId,
    name: `a-live-${tag}`,
    mode: "live",
    createdByUserId: account.userId,
  });
  const test = await createApiKey({ workspaceId: account.workspaceId, name: `a-test-${tag}`, mode: "test" });
  const revoked = await createApiKey({ workspaceId: account.workspaceId, name: `a-revoked-${tag}`, mode: "live" });
  await revokeApiKey({ workspaceId: account.workspaceId, apiKeyId: revoked.apiKey.id });
  const auth = withKey(live.key);

  type Endpoint = { data: { id: string } };
  const first = await okJson<Endpoint>(
    send("POST", "/v1/webhook-endpoints", auth, {
      name: `a-endpoint-1-${tag}`,
      description: `a-description-${tag}`,
      signing: { scheme: "github", secret: SIGNING_SECRET },
    }),
    201,
  );
  const second = await okJson<Endpoint>(
    send("POST", "/v1/webhook-endpoints", auth, { name: `a-endpoint-2-${tag}` }),
    201,
  );
  const disabled = await okJson<Endpoint>(
    send("POST", "/v1/webhook-endpoints", auth, { name: `a-endpoint-off-${tag}` }),
    201,
  );
  await okJson(send("PATCH", `/v1/webhook-endpoints/${disabled.data.id}`, auth, { enabled: false }));

  // Destinations on the first endpoint, before its deliveries arrive: each delivery gets a forward to each.
  type Destination = { data: { id: string; signingSecret: string } };
  const destinations = [
    await okJson<Destination>(
      send("POST", `/v1/webhook-endpoints/${first.data.id}/destinations`, auth, {
        url: DESTINATION_URL,
        headers: { authorization: DESTINATION_HEADER_MARKER },
      }),
      201,
    ),
    await okJson<Destination>(
      send("POST", `/v1/webhook-endpoints/${first.data.id}/destinations`, auth, { url: `${DESTINATION_URL}/2` }),
      201,
    ),
  ];

  const deliveryIds: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    deliveryIds.push(
      await ingest(
        first.data.id,
        { marker: PAYLOAD_MARKER, index },
        { "x-a-marker": HEADER_MARKER, "x-shopify-topic": EVENT_TYPE_MARKER },
      ),
    );
  }
  deliveryIds.push(await ingest(second.data.id, { marker: PAYLOAD_MARKER, index: 3 }));
  const acknowledgedDeliveryId = deliveryIds[0]!;
  await okJson(send("POST", `/v1/webhook-endpoints/deliveries/${acknowledgedDeliveryId}/ack`, auth));
  // An attempt of a forward, with a response body and an error that must stay A's.
  const forward = await db().deliveryForward.findFirstOrThrow({
    where: { workspaceId: account.workspaceId, deliveryId: deliveryIds[1]! },
  });
  const attempt = await db().deliveryAttempt.create({
    data: {
      workspaceId: account.workspaceId,
      forwardId: forward.id,
      deliveryId: forward.deliveryId,
      destinationId: forward.destinationId,
      attemptNumber: 1,
      startedAt: new Date(),
      durationMs: 3,
      responseStatus: 500,
      responseBody: new Uint8Array(Buffer.from(`${ATTEMPT_MARKER}-body`)),
      error: `${ATTEMPT_MARKER}-error`,
    },
  });

  // Ledger rows and cursors from the sandbox (test key): no money moves, every priced route leaves a row.
  const testAuth = withKey(test.key);
  type Paged = { data: { nextCursor: string | null } };
  await okJson(send("POST", "/v1/data/svc/companies/domain-emails", testAuth, { domain: "alpha.example" }));
  await okJson(
    send("POST", "/v1/data/svc/companies/intelligence", testAuth, { domain: "alpha.example", signal: "funding" }),
  );
  await okJson(send("POST", "/v1/data/svc/companies/enrich", testAuth, { domain: "alpha.example" }));
  await okJson(
    send("POST", "/v1/data/svc/people/email", testAuth, { fullName: "Ada Lovelace", domain: "alpha.example" }),
  );
  const companySearch = await okJson<Paged>(
    send("POST", "/v1/data/svc/companies/search", testAuth, { query: "Acme Analytics", limit: 1 }),
  );
  const companyDiscover = await okJson<Paged>(
    send("POST", "/v1/data/svc/companies/discover", testAuth, { domain: "stripe.com", limit: 1 }),
  );
  const peopleSearch = await okJson<Paged>(
    send("POST", "/v1/data/svc/people/search", testAuth, { domain: "alpha.example", limit: 1 }),
  );
  // Requests A's endpoints refused, recorded in the background: two GETs (405) on the first, a POST to the disabled one.
  for (const [id, method, status] of [
    [first.data.id, "GET", 405],
    [first.data.id, "GET", 405],
    [disabled.data.id, "POST", 404],
  ] as const) {
    const refused = await fetch(`${app.baseUrl}/webhooks/ingest/${id}?marker=${REJECTION_MARKER}`, {
      method,
      headers: { "x-a-marker": REJECTION_MARKER },
    });
    expect(refused.status).toBe(status);
  }
  const rejections = await eventually(async () => {
    const rows = await db().webhookRejection.findMany({
      where: { workspaceId: account.workspaceId },
      select: { id: true },
    });
    return rows.length === 3 && rows;
  });
  const rejectionsPage = await okJson<Paged>(
    send("GET", `/v1/webhook-endpoints/${first.data.id}/rejections?limit=1`, auth),
  );
  const endpointsPage = await okJson<Paged>(send("GET", "/v1/webhook-endpoints?limit=1", auth));
  const deliveriesPage = await okJson<Paged>(send("GET", "/v1/webhook-endpoints/deliveries?limit=1", auth));
  const cursors = {
    endpoints: endpointsPage.data.nextCursor!,
    deliveries: deliveriesPage.data.nextCursor!,
    rejections: rejectionsPage.data.nextCursor!,
    companySearch: companySearch.data.nextCursor!,
    companyDiscover: companyDiscover.data.nextCursor!,
    peopleSearch: peopleSearch.data.nextCursor!,
  };
  for (const [name, cursor] of Object.entries(cursors))
    expect(cursor, `A's ${name} cursor`).toEqual(expect.any(String));

  const ledger = await db().ledgerEntry.findMany({ where: { workspaceId: account.workspaceId }, select: { id: true } });
  expect(ledger.length).toBeGreaterThanOrEqual(7);
  const keyRows = await db().apiKey.findMany({
    where: { workspaceId: account.workspaceId },
    select: { hashedKey: true },
  });

  // People: a member of A, and a pending invitation into A.
  const teammateEmail = `a-teammate-${tag}@example.com`;
  const teammate = await createAccount({ email: teammateEmail, password: PASSWORD, workspaceName: `a-own-${tag}` });
  await db().workspaceMember.create({
    data: { workspaceId: account.workspaceId, userId: teammate.userId, role: "member" },
  });
  const inviteeEmail = `a-invitee-${tag}@example.com`;
  const invited = await createInvitation({
    workspaceId: account.workspaceId,
    email: inviteeEmail,
    role: "member",
    invitedByUserId: account.userId,
  });

  const markers = new Set<string>([
    account.workspaceId,
    `Alpha ${tag}`,
    account.userId,
    email,
    `Alice ${tag}`,
    ...[live, test, revoked].flatMap(({ key, apiKey }) => [key, secretPart(key), apiKey.id, apiKey.name, apiKey.start]),
    ...keyRows.map((row) => row.hashedKey),
    first.data.id,
    second.data.id,
    disabled.data.id,
    `a-endpoint-1-${tag}`,
    `a-endpoint-2-${tag}`,
    `a-endpoint-off-${tag}`,
    `a-description-${tag}`,
    SIGNING_SECRET,
    ...deliveryIds,
    ...destinations.flatMap(({ data }) => [data.id, data.signingSecret]),
    DESTINATION_URL,
    DESTINATION_HEADER_MARKER,
    ATTEMPT_MARKER,
    REJECTION_MARKER,
    ...rejections.map((row) => row.id),
    forward.id,
    attempt.id,
    PAYLOAD_MARKER,
    HEADER_MARKER,
    EVENT_TYPE_MARKER,
    ...ledger.map((row) => row.id),
    ...Object.values(cursors),
    teammate.userId,
    teammateEmail,
    invited.invitation.id,
    inviteeEmail,
    invited.token,
    hashInvitationToken(invited.token),
  ]);
  return {
    workspaceId: account.workspaceId,
    liveKey: { id: live.apiKey.id, key: live.key },
    testKey: { id: test.apiKey.id, key: test.key },
    revokedKey: { id: revoked.apiKey.id, key: revoked.key },
    endpointIds: [first.data.id, second.data.id, disabled.data.id],
    disabledEndpointId: disabled.data.id,
    deliveryIds,
    acknowledgedDeliveryId,
    destinationIds: destinations.map(({ data }) => data.id),
    userIds: [account.userId, teammate.userId],
    invitationId: invited.invitation.id,
    cursors,
    markers,
  };
}

async function buildWorkspaceB(): Promise<WorkspaceB> {
  const email = `bob-${tag}@example.com`;
  const account = await createAccount({ email, password: PASSWORD, name: "Bob", workspaceName: "Bravo" });
  // No money: B's live key is refused priced work (402) before any upstream call, so nothing leaves this machine.
  const live = await createApiKey({ workspaceId: account.workspaceId, name: "b-live", mode: "live" });
  const test = await createApiKey({ workspaceId: account.workspaceId, name: "b-test", mode: "test" });
  const endpoint = await okJson<{ data: { id: string } }>(
    send("POST", "/v1/webhook-endpoints", withKey(live.key), { name: "b-endpoint" }),
    201,
  );
  const deliveryId = await ingest(endpoint.data.id, { mine: "b" });
  const cookies = await signIn(app.baseUrl, email, PASSWORD);
  expect(cookies, "B signs in").not.toBeNull();
  return {
    workspaceId: account.workspaceId,
    userId: account.userId,
    liveKey: live.key,
    testKey: test.key,
    endpointId: endpoint.data.id,
    deliveryId,
    cookies: cookies!,
  };
}

/** A's rows as they stand, to prove that nothing B did changed them. */
async function snapshotA() {
  const workspaceId = a.workspaceId;
  return {
    endpoints: await db().webhookEndpoint.findMany({
      where: { workspaceId },
      orderBy: { id: "asc" },
      select: { id: true, name: true, description: true, enabled: true, retention: true, updatedAt: true },
    }),
    workspace: await db().workspace.findUniqueOrThrow({
      where: { id: workspaceId },
      select: { name: true, deliveryRetention: true },
    }),
    // The deliveries A had before (the event-stream probe adds some of A's own while B listens).
    deliveries: await db().webhookDelivery.findMany({
      where: { workspaceId, id: { in: a.deliveryIds } },
      orderBy: { id: "asc" },
      select: { id: true, acknowledgedAt: true },
    }),
    destinations: await db().webhookDestination.findMany({
      where: { workspaceId },
      orderBy: { id: "asc" },
      select: { id: true, webhookEndpointId: true, url: true, headers: true, enabled: true, signingSecret: true },
    }),
    // A's own forwards are written by ingest (and the event-stream probe); none may come from B's replays.
    replays: await db().deliveryForward.count({ where: { workspaceId, reason: "replay" } }),
    apiKeys: await db().apiKey.findMany({
      where: { workspaceId },
      orderBy: { id: "asc" },
      select: { id: true, revokedAt: true },
    }),
    members: await db().workspaceMember.findMany({
      where: { workspaceId },
      orderBy: { userId: "asc" },
      select: { userId: true, role: true },
    }),
    invitations: await db().invitation.findMany({
      where: { workspaceId },
      orderBy: { id: "asc" },
      select: { id: true, revokedAt: true, acceptedAt: true },
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The matrix

type PrincipalName = "B live key" | "B test key" | "B session" | "B session naming A's workspace";
const PRINCIPALS: readonly PrincipalName[] = [
  "B live key",
  "B test key",
  "B session",
  "B session naming A's workspace",
];

function principalHeaders(principal: PrincipalName): Record<string, string> {
  switch (principal) {
    case "B live key":
      return withKey(b.liveKey);
    case "B test key":
      return withKey(b.testKey);
    case "B session":
      return dashboardHeaders(b.cookies, b.workspaceId);
    case "B session naming A's workspace":
      return dashboardHeaders(b.cookies, a.workspaceId);
  }
}

interface Probe {
  /** What B tries, for failure messages. */
  what: string;
  method: string;
  path: string;
  body?: unknown;
  /** For a principal the route lets in (the runner checks sessions on key-only routes and A's workspace header). */
  expect: (answer: Answer, principal: PrincipalName) => void | Promise<void>;
  /** Adjusts the principal's headers for this probe. */
  headers?: (headers: Record<string, string>) => Record<string, string>;
  /** An event stream: read it while `during` makes events happen, until `until` is in the text. */
  stream?: { during: () => Promise<{ sentinel: string; aIds: string[] }> };
}

interface MatrixEntry {
  /** Why an operation has no workspace data to protect (public routes); its probes still must not leak. */
  public?: string;
  probes: () => Probe[];
}

function expectNotFound(answer: Answer): void {
  expect(answer.status, answer.text).toBe(404);
}

function expectValidationOf(path: string) {
  return (answer: Answer) => {
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json).toMatchObject({
      success: false,
      error: { code: "validation_error", details: [expect.objectContaining({ path })] },
    });
  };
}

/** Live key of B (no balance) → 402 before any work; test key → 200 from the sandbox. */
function expectPricedAnswer(answer: Answer, principal: PrincipalName): void {
  if (principal === "B live key") expect(answer.status, answer.text).toBe(402);
  else expect(answer.status, answer.text).toBe(200);
}

function dataOf<T>(answer: Answer): T {
  expect(answer.status, answer.text).toBeLessThan(300);
  return (answer.json as { data: T }).data;
}

/** People-only operations (Contract.access): API keys get 403; B's own session gets `then`. */
function forKeys403(then: (answer: Answer) => void | Promise<void>) {
  return async (answer: Answer, principal: PrincipalName) => {
    if (principal.endsWith("key")) expect(answer.status, answer.text).toBe(403);
    else await then(answer);
  };
}

/** Operator-only operations: B is no operator, so everyone here gets 403. */
function expectForbidden(answer: Answer): void {
  expect(answer.status, answer.text).toBe(403);
}

/** Key management: a test key lacks `keys:admin` (403 before anything is looked up); others get `otherwise`. */
function notForTestKeys(otherwise: Probe["expect"]): Probe["expect"] {
  return async (answer, principal) => {
    if (principal === "B test key") return expect(answer.status, answer.text).toBe(403);
    return otherwise(answer, principal);
  };
}

const createdByB = { endpoints: [] as string[], apiKeys: [] as string[], invitations: [] as string[] };

const MATRIX: Record<string, MatrixEntry> = {
  getWorkspace: {
    probes: () => [
      {
        what: "read the workspace",
        method: "GET",
        path: "/v1/workspace",
        expect: (answer) => expect(dataOf<{ workspace: { id: string } }>(answer).workspace.id).toBe(b.workspaceId),
      },
    ],
  },
  updateWorkspace: {
    probes: () => [
      {
        what: "set the workspace's default retention",
        method: "PATCH",
        path: "/v1/workspace",
        body: { deliveryRetention: { acknowledgedDays: 1, allDays: 2 } },
        expect: (answer) =>
          expect(dataOf<{ workspace: { id: string; deliveryRetention: unknown } }>(answer).workspace).toMatchObject({
            id: b.workspaceId,
            deliveryRetention: { acknowledgedDays: 1, allDays: 2 },
          }),
      },
    ],
  },
  listWorkspaces: {
    probes: () => [
      {
        what: "list workspaces",
        method: "GET",
        path: "/v1/workspaces",
        expect: (answer) =>
          expect(dataOf<{ workspaces: { id: string }[] }>(answer).workspaces.map((workspace) => workspace.id)).toEqual([
            b.workspaceId,
          ]),
      },
    ],
  },
  listApiKeys: {
    probes: () => [
      {
        what: "list API keys",
        method: "GET",
        path: "/v1/api-keys",
        expect: notForTestKeys(async (answer) => {
          const ids = dataOf<{ apiKeys: { id: string }[] }>(answer).apiKeys.map((key) => key.id);
          const owners = await db().apiKey.findMany({ where: { id: { in: ids } }, select: { workspaceId: true } });
          expect(owners.length).toBe(ids.length);
          expect(new Set(owners.map((owner) => owner.workspaceId))).toEqual(new Set([b.workspaceId]));
        }),
      },
    ],
  },
  createApiKey: {
    probes: () => [
      {
        what: "create an API key",
        method: "POST",
        path: "/v1/api-keys",
        body: { name: "made-by-b", mode: "test" },
        expect: notForTestKeys(async (answer) => {
          const { apiKey } = dataOf<{ apiKey: { id: string } }>(answer);
          createdByB.apiKeys.push(apiKey.id);
          expect((await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).workspaceId).toBe(b.workspaceId);
        }),
      },
    ],
  },
  revokeApiKey: {
    probes: () =>
      [a.liveKey.id, a.testKey.id, a.revokedKey.id].map((id) => ({
        what: `revoke A's key ${id}`,
        method: "DELETE",
        path: `/v1/api-keys/${id}`,
        expect: notForTestKeys(expectNotFound),
      })),
  },
  getUsage: {
    probes: () => [
      {
        what: "read usage",
        method: "GET",
        path: "/v1/usage?days=365",
        expect: async (answer) => {
          const { recent } = dataOf<{ recent: { id: string }[] }>(answer);
          const owners = await db().ledgerEntry.findMany({
            where: { id: { in: recent.map((entry) => entry.id) } },
            select: { workspaceId: true },
          });
          for (const owner of owners) expect(owner.workspaceId).toBe(b.workspaceId);
        },
      },
    ],
  },
  companies_domain_emails: {
    probes: () => [
      {
        what: "domain emails",
        method: "POST",
        path: "/v1/data/svc/companies/domain-emails",
        body: { domain: "alpha.example" },
        expect: expectPricedAnswer,
      },
    ],
  },
  companies_intelligence: {
    probes: () => [
      {
        what: "intelligence",
        method: "POST",
        path: "/v1/data/svc/companies/intelligence",
        body: { domain: "alpha.example", signal: "funding" },
        expect: expectPricedAnswer,
      },
    ],
  },
  companies_enrich: {
    probes: () => [
      {
        what: "company enrich",
        method: "POST",
        path: "/v1/data/svc/companies/enrich",
        body: { domain: "alpha.example" },
        expect: expectPricedAnswer,
      },
    ],
  },
  companies_search: {
    probes: () => [
      {
        what: "company search",
        method: "POST",
        path: "/v1/data/svc/companies/search",
        body: { query: "Acme Analytics", limit: 1 },
        expect: expectPricedAnswer,
      },
      {
        what: "company search with A's cursor",
        method: "POST",
        path: "/v1/data/svc/companies/search",
        body: { query: "Acme Analytics", limit: 1, cursor: a.cursors.companySearch },
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  companies_discover: {
    probes: () => [
      {
        what: "company discover",
        method: "POST",
        path: "/v1/data/svc/companies/discover",
        body: { domain: "stripe.com", limit: 1 },
        expect: expectPricedAnswer,
      },
      {
        what: "company discover with A's cursor",
        method: "POST",
        path: "/v1/data/svc/companies/discover",
        body: { domain: "stripe.com", limit: 1, cursor: a.cursors.companyDiscover },
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  people_email: {
    probes: () => [
      {
        what: "person email",
        method: "POST",
        path: "/v1/data/svc/people/email",
        body: { fullName: "Ada Lovelace", domain: "alpha.example" },
        expect: expectPricedAnswer,
      },
    ],
  },
  people_enrich: {
    probes: () => [
      {
        what: "person enrich",
        method: "POST",
        path: "/v1/data/svc/people/enrich",
        body: { email: "ada@alpha.example" },
        expect: expectPricedAnswer,
      },
    ],
  },
  people_mobile: {
    probes: () => [
      {
        what: "person mobile",
        method: "POST",
        path: "/v1/data/svc/people/mobile",
        body: { email: "ada@alpha.example" },
        expect: expectPricedAnswer,
      },
    ],
  },
  people_search: {
    probes: () => [
      {
        what: "people search",
        method: "POST",
        path: "/v1/data/svc/people/search",
        body: { domain: "alpha.example", limit: 1 },
        expect: expectPricedAnswer,
      },
      {
        what: "people search with A's cursor",
        method: "POST",
        path: "/v1/data/svc/people/search",
        body: { domain: "alpha.example", limit: 1, cursor: a.cursors.peopleSearch },
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  media_video_details: {
    probes: () => [
      {
        what: "video details",
        method: "GET",
        path: "/v1/data/media/video/details?video_id=dQw4w9WgXcQ",
        // The live key has no money (402 before YouTube); the test key reaches the (closed) YouTube port: 502.
        expect: (answer, principal) => expect(answer.status, answer.text).toBe(principal === "B live key" ? 402 : 502),
      },
    ],
  },
  createWebhookEndpoint: {
    probes: () => [
      {
        what: "create an endpoint",
        method: "POST",
        path: "/v1/webhook-endpoints",
        body: { name: "made-by-b" },
        expect: (answer) => {
          const endpoint = dataOf<{ id: string; workspaceId: string }>(answer);
          createdByB.endpoints.push(endpoint.id);
          expect(endpoint.workspaceId).toBe(b.workspaceId);
        },
      },
    ],
  },
  listWebhookEndpoints: {
    probes: () => [
      {
        what: "list endpoints",
        method: "GET",
        path: "/v1/webhook-endpoints?limit=100",
        expect: (answer) => {
          const { endpoints } = dataOf<{ endpoints: { workspaceId: string }[] }>(answer);
          expect(endpoints.length).toBeGreaterThan(0);
          for (const endpoint of endpoints) expect(endpoint.workspaceId).toBe(b.workspaceId);
        },
      },
      {
        what: "list endpoints with A's cursor",
        method: "GET",
        path: `/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(a.cursors.endpoints)}`,
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  getWebhookEndpoint: {
    probes: () =>
      a.endpointIds.map((id) => ({
        what: `get A's endpoint ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/${id}`,
        expect: expectNotFound,
      })),
  },
  updateWebhookEndpoint: {
    probes: () =>
      a.endpointIds.map((id) => ({
        what: `update A's endpoint ${id}`,
        method: "PATCH",
        path: `/v1/webhook-endpoints/${id}`,
        body: { name: "taken over", enabled: true, signing: null, retention: { allDays: 1 } },
        expect: expectNotFound,
      })),
  },
  deleteWebhookEndpoint: {
    probes: () =>
      a.endpointIds.map((id) => ({
        what: `delete A's endpoint ${id}`,
        method: "DELETE",
        path: `/v1/webhook-endpoints/${id}`,
        expect: expectNotFound,
      })),
  },
  ingestDelivery: {
    public: "Senders hold no key: the endpoint id in the URL is the secret, and credentials sent along change nothing.",
    probes: () => [
      {
        what: "ingest into A's disabled endpoint",
        method: "POST",
        path: `/webhooks/ingest/${a.disabledEndpointId}`,
        body: { from: "b" },
        expect: expectNotFound,
      },
      {
        what: "ingest into B's endpoint",
        method: "POST",
        path: `/webhooks/ingest/${b.endpointId}`,
        body: { from: "b" },
        // A delivery keeps the headers it came with: A's workspace id sent by B would come back in B's own listing.
        headers: ({ [WORKSPACE_HEADER]: _dropped, ...rest }) => rest,
        expect: (answer) => {
          expect(answer.status, answer.text).toBe(200);
          expect(Object.keys(answer.json as object).sort()).toEqual(["deliveryId", "received"]);
        },
      },
    ],
  },
  listDeliveries: {
    probes: () => [
      {
        what: "list deliveries",
        method: "GET",
        path: "/v1/webhook-endpoints/deliveries?limit=100",
        expect: (answer) => {
          const { deliveries } = dataOf<{ deliveries: { workspaceId: string }[] }>(answer);
          expect(deliveries.length).toBeGreaterThan(0);
          for (const delivery of deliveries) expect(delivery.workspaceId).toBe(b.workspaceId);
        },
      },
      ...a.endpointIds.flatMap((id) =>
        ["", "&unacknowledged=true", "&unacknowledged=false&order=asc"].map((filters) => ({
          what: `list deliveries of A's endpoint ${id}${filters}`,
          method: "GET",
          path: `/v1/webhook-endpoints/deliveries?endpointId=${id}${filters}`,
          expect: (answer: Answer) => expect(dataOf(answer)).toEqual({ deliveries: [], nextCursor: null }),
        })),
      ),
      {
        what: "list deliveries of A's event type",
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries?eventType=${EVENT_TYPE_MARKER}`,
        expect: (answer: Answer) => expect(dataOf(answer)).toEqual({ deliveries: [], nextCursor: null }),
      },
      {
        what: "list deliveries with A's cursor",
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries?limit=1&cursor=${encodeURIComponent(a.cursors.deliveries)}`,
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  listDeliveryEventTypes: {
    probes: () => [
      {
        what: "list the event types received",
        method: "GET",
        path: "/v1/webhook-endpoints/deliveries/event-types",
        expect: (answer) => expect(dataOf(answer)).toEqual({ eventTypes: [], truncated: false }),
      },
      ...a.endpointIds.map((id) => ({
        what: `list the event types of A's endpoint ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries/event-types?endpointId=${id}`,
        expect: (answer: Answer) => expect(dataOf(answer)).toEqual({ eventTypes: [], truncated: false }),
      })),
    ],
  },
  getDelivery: {
    probes: () =>
      a.deliveryIds.map((id) => ({
        what: `get A's delivery ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries/${id}`,
        expect: expectNotFound,
      })),
  },
  getDeliveryRawBody: {
    probes: () =>
      a.deliveryIds.map((id) => ({
        what: `raw body of A's delivery ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries/${id}/raw`,
        expect: expectNotFound,
      })),
  },
  acknowledgeDelivery: {
    probes: () =>
      a.deliveryIds.map((id) => ({
        what: `acknowledge A's delivery ${id}`,
        method: "POST",
        path: `/v1/webhook-endpoints/deliveries/${id}/ack`,
        expect: expectNotFound,
      })),
  },
  acknowledgeDeliveries: {
    probes: () => [
      {
        what: "acknowledge A's deliveries in bulk",
        method: "POST",
        path: "/v1/webhook-endpoints/deliveries/ack",
        body: { ids: a.deliveryIds },
        // Even the one A acknowledged is just unknown: "already acknowledged" would tell B it exists.
        expect: (answer) =>
          expect(dataOf(answer)).toEqual({ acknowledged: [], alreadyAcknowledged: [], notFound: a.deliveryIds }),
      },
      ...a.endpointIds.map((id) => ({
        what: `acknowledge everything pending on A's endpoint ${id}`,
        method: "POST",
        path: "/v1/webhook-endpoints/deliveries/ack",
        body: { filter: { endpointId: id } },
        expect: (answer: Answer) =>
          expect(dataOf(answer)).toEqual({ acknowledgedCount: 0, hasMore: false, nextCursor: null }),
      })),
      {
        what: "acknowledge everything pending that holds A's payload marker",
        method: "POST",
        path: "/v1/webhook-endpoints/deliveries/ack",
        body: { filter: { q: PAYLOAD_MARKER } },
        expect: (answer: Answer) =>
          expect(dataOf(answer)).toEqual({ acknowledgedCount: 0, hasMore: false, nextCursor: null }),
      },
    ],
  },
  createWebhookDestination: {
    probes: () =>
      a.endpointIds.map((id) => ({
        what: `add a destination to A's endpoint ${id}`,
        method: "POST",
        path: `/v1/webhook-endpoints/${id}/destinations`,
        body: { url: "https://b.example/steal" },
        expect: expectNotFound,
      })),
  },
  listWebhookDestinations: {
    probes: () =>
      a.endpointIds.map((id) => ({
        what: `list the destinations of A's endpoint ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/${id}/destinations`,
        expect: expectNotFound,
      })),
  },
  updateWebhookDestination: {
    probes: () =>
      a.destinationIds.flatMap((id) =>
        [a.endpointIds[0]!, b.endpointId].map((endpointId) => ({
          what: `change A's destination ${id} through endpoint ${endpointId}`,
          method: "PATCH",
          path: `/v1/webhook-endpoints/${endpointId}/destinations/${id}`,
          body: { url: "https://b.example/steal", enabled: false },
          expect: expectNotFound,
        })),
      ),
  },
  deleteWebhookDestination: {
    probes: () =>
      a.destinationIds.flatMap((id) =>
        [a.endpointIds[0]!, b.endpointId].map((endpointId) => ({
          what: `delete A's destination ${id} through endpoint ${endpointId}`,
          method: "DELETE",
          path: `/v1/webhook-endpoints/${endpointId}/destinations/${id}`,
          expect: expectNotFound,
        })),
      ),
  },
  listWebhookRejections: {
    probes: () => [
      ...a.endpointIds.map((id) => ({
        what: `refused requests of A's endpoint ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/${id}/rejections`,
        expect: expectNotFound,
      })),
      {
        what: "B's own endpoint's refused requests with A's cursor",
        method: "GET",
        path: `/v1/webhook-endpoints/${b.endpointId}/rejections?limit=1&cursor=${encodeURIComponent(a.cursors.rejections)}`,
        expect: expectValidationOf("cursor"),
      },
    ],
  },
  listDeliveryAttempts: {
    probes: () => [
      ...a.deliveryIds.map((id) => ({
        what: `attempts of A's delivery ${id}`,
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries/${id}/attempts`,
        expect: expectNotFound,
      })),
      {
        what: "attempts of B's own delivery",
        method: "GET",
        path: `/v1/webhook-endpoints/deliveries/${b.deliveryId}/attempts`,
        expect: (answer: Answer) => expect(dataOf(answer)).toEqual({ forwards: [], attempts: [] }),
      },
    ],
  },
  replayDelivery: {
    probes: () => [
      ...a.deliveryIds.flatMap((id) => [
        {
          what: `replay A's delivery ${id}`,
          method: "POST",
          path: `/v1/webhook-endpoints/deliveries/${id}/replay`,
          expect: expectNotFound,
        },
        {
          what: `replay A's delivery ${id} to A's destination`,
          method: "POST",
          path: `/v1/webhook-endpoints/deliveries/${id}/replay`,
          body: { destinationId: a.destinationIds[0] },
          expect: expectNotFound,
        },
      ]),
      {
        what: "replay B's own delivery to A's destination",
        method: "POST",
        path: `/v1/webhook-endpoints/deliveries/${b.deliveryId}/replay`,
        body: { destinationId: a.destinationIds[0] },
        expect: expectNotFound,
      },
    ],
  },
  replayDeliveries: {
    probes: () => {
      // What B gets for an endpoint of its own without destinations: A's endpoints must answer the same.
      const noDestination = (answer: Answer) => {
        expect(answer.status, answer.text).toBe(400);
        expect(errorOf(answer.json).message).toBe("The endpoint has no enabled destination to replay to.");
      };
      return [
        ...a.endpointIds.map((id) => ({
          what: `replay everything on A's endpoint ${id}`,
          method: "POST",
          path: "/v1/webhook-endpoints/deliveries/replay",
          body: { filter: { endpointId: id } },
          expect: noDestination,
        })),
        {
          what: "replay everything of B's endpoint",
          method: "POST",
          path: "/v1/webhook-endpoints/deliveries/replay",
          body: { filter: { endpointId: b.endpointId } },
          expect: noDestination,
        },
        ...a.destinationIds.map((id) => ({
          what: `replay everything holding A's payload marker to A's destination ${id}`,
          method: "POST",
          path: "/v1/webhook-endpoints/deliveries/replay",
          body: { filter: { q: PAYLOAD_MARKER }, destinationId: id },
          expect: expectNotFound,
        })),
      ];
    },
  },
  exportDeliveries: {
    probes: () => {
      const lines = (answer: Answer) =>
        answer.text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { type?: string; count?: number; workspaceId?: string });
      const exportsNothing = (answer: Answer) => {
        expect(answer.status).toBe(200);
        expect(lines(answer)).toEqual([{ type: "end", count: 0 }]);
      };
      return [
        {
          what: "export the workspace's deliveries",
          method: "GET",
          path: "/v1/webhook-endpoints/deliveries/export?body=base64",
          expect: (answer: Answer) => {
            expect(answer.status).toBe(200);
            const exported = lines(answer);
            expect(exported.at(-1)).toEqual({ type: "end", count: exported.length - 1 });
            expect(exported.length).toBeGreaterThan(1);
            for (const line of exported.slice(0, -1)) expect(line.workspaceId).toBe(b.workspaceId);
          },
        },
        ...a.endpointIds.map((id) => ({
          what: `export the deliveries of A's endpoint ${id}`,
          method: "GET",
          path: `/v1/webhook-endpoints/deliveries/export?endpointId=${id}`,
          expect: exportsNothing,
        })),
        {
          what: "export the deliveries holding A's payload marker",
          method: "GET",
          path: `/v1/webhook-endpoints/deliveries/export?q=${PAYLOAD_MARKER}`,
          expect: exportsNothing,
        },
        {
          what: "export the deliveries of A's event type",
          method: "GET",
          path: `/v1/webhook-endpoints/deliveries/export?eventType=${EVENT_TYPE_MARKER}`,
          expect: exportsNothing,
        },
      ];
    },
  },
  streamDeliveryEvents: {
    probes: () => [
      {
        what: "follow delivery events while A's deliveries arrive and are acknowledged",
        method: "GET",
        path: "/v1/webhook-endpoints/deliveries/events",
        stream: {
          during: async () => {
            const aIds = [await ingest(a.endpointIds[1]!, { marker: PAYLOAD_MARKER })];
            for (const id of aIds) a.markers.add(id);
            await okJson(send("POST", `/v1/webhook-endpoints/deliveries/${aIds[0]}/ack`, withKey(a.liveKey.key)));
            // B's own delivery comes last: once its event is in, A's would have been too.
            return { aIds, sentinel: await ingest(b.endpointId, { sentinel: true }) };
          },
        },
        expect: (answer) => expect(answer.status, answer.text).toBe(200),
      },
    ],
  },
  getOpenApiDocument: {
    public: "The API description: the same for everyone.",
    probes: () => [
      {
        what: "read the OpenAPI document",
        method: "GET",
        path: "/v1/openapi.json",
        expect: (answer) => expect(answer.status).toBe(200),
      },
    ],
  },
  getHealth: {
    public: "Liveness of the service and its database: no workspace data.",
    probes: () => [
      { what: "health check", method: "GET", path: "/healthz", expect: (answer) => expect(answer.status).toBe(200) },
    ],
  },
  getCurrentUser: {
    probes: () => [
      {
        what: "read the signed-in user",
        method: "GET",
        path: "/v1/me",
        expect: forKeys403((answer) => expect(dataOf<{ user: { id: string } }>(answer).user.id).toBe(b.userId)),
      },
    ],
  },
  listMembers: {
    probes: () => [
      {
        what: "list members",
        method: "GET",
        path: "/v1/workspace/members",
        expect: forKeys403((answer) =>
          expect(dataOf<{ members: { userId: string }[] }>(answer).members.map((member) => member.userId)).toEqual([
            b.userId,
          ]),
        ),
      },
    ],
  },
  updateMember: {
    probes: () =>
      a.userIds.map((userId) => ({
        what: `change the role of A's ${userId}`,
        method: "PATCH",
        path: `/v1/workspace/members/${userId}`,
        body: { role: "member" },
        expect: forKeys403(expectNotFound),
      })),
  },
  removeMember: {
    probes: () =>
      a.userIds.map((userId) => ({
        what: `remove A's ${userId}`,
        method: "DELETE",
        path: `/v1/workspace/members/${userId}`,
        expect: forKeys403(expectNotFound),
      })),
  },
  listInvitations: {
    probes: () => [
      {
        what: "list invitations",
        method: "GET",
        path: "/v1/workspace/invitations",
        expect: forKeys403(async (answer) => {
          const ids = dataOf<{ invitations: { id: string }[] }>(answer).invitations.map((invitation) => invitation.id);
          expect(await db().invitation.count({ where: { id: { in: ids }, workspaceId: b.workspaceId } })).toBe(
            ids.length,
          );
        }),
      },
    ],
  },
  createInvitation: {
    probes: () => [
      {
        what: "invite someone",
        method: "POST",
        path: "/v1/workspace/invitations",
        body: { email: `b-invitee-${tag}@example.com` },
        expect: forKeys403(async (answer) => {
          const { invitation } = dataOf<{ invitation: { id: string } }>(answer);
          createdByB.invitations.push(invitation.id);
          expect((await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } })).workspaceId).toBe(
            b.workspaceId,
          );
        }),
      },
    ],
  },
  revokeInvitation: {
    probes: () => [
      {
        what: "revoke A's invitation",
        method: "DELETE",
        path: `/v1/workspace/invitations/${a.invitationId}`,
        expect: forKeys403(expectNotFound),
      },
    ],
  },
  getUnknownEndpointRequests: {
    probes: () => [
      {
        what: "the count of unknown endpoint ids",
        method: "GET",
        path: "/v1/operator/unknown-endpoint-requests",
        expect: expectForbidden,
      },
    ],
  },
  listOperatorWorkspaces: {
    probes: () => [
      { what: "list every workspace", method: "GET", path: "/v1/operator/workspaces", expect: expectForbidden },
      {
        what: "search for A",
        method: "GET",
        path: `/v1/operator/workspaces?q=${a.workspaceId}`,
        expect: expectForbidden,
      },
    ],
  },
  creditWorkspace: {
    probes: () =>
      [a.workspaceId, b.workspaceId].map((workspaceId) => ({
        what: `credit ${workspaceId}`,
        method: "POST",
        path: `/v1/operator/workspaces/${workspaceId}/credits`,
        body: { amountCents: 1000 },
        expect: expectForbidden,
      })),
  },
  listSignUpInvitations: {
    probes: () => [
      { what: "list sign-up invitations", method: "GET", path: "/v1/operator/invitations", expect: expectForbidden },
    ],
  },
  createSignUpInvitation: {
    probes: () => [
      {
        what: "issue a sign-up invitation",
        method: "POST",
        path: "/v1/operator/invitations",
        body: { email: `b-signup-${tag}@example.com` },
        expect: expectForbidden,
      },
    ],
  },
  revokeSignUpInvitation: {
    probes: () => [
      {
        what: "revoke A's invitation as a sign-up invitation",
        method: "DELETE",
        path: `/v1/operator/invitations/${a.invitationId}`,
        expect: expectForbidden,
      },
    ],
  },
};

/** Every marker of A in the answer (body and headers) that B did not send itself. */
function leakedMarkers(answer: Answer, sent: string, extra: string[] = []): string[] {
  const seen = `${answer.text}\n${[...answer.headers].map(([name, value]) => `${name}: ${value}`).join("\n")}`;
  return [...a.markers, ...extra].filter((marker) => !sent.includes(marker) && seen.includes(marker));
}

/** Opens an event stream, makes events happen, and reads until B's sentinel event arrives (retrying the events). */
async function readStream(probe: Probe, headers: Record<string, string>): Promise<{ answer: Answer; aIds: string[] }> {
  const controller = new AbortController();
  const response = await fetch(`${app.baseUrl}${probe.path}`, {
    headers: { ...headers, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body) return { answer: await readResponse(response), aIds: [] };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const aIds: string[] = [];
  // A read that lost a race against the clock stays pending and is awaited next time, so no chunk is dropped.
  let pending: Promise<ReadableStreamReadResult<string>> | null = null;
  try {
    const readUntil = async (wanted: string, ms: number) => {
      const deadline = Date.now() + ms;
      while (!text.includes(wanted) && Date.now() < deadline) {
        pending ??= reader.read();
        const chunk = await Promise.race([
          pending,
          new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
        ]);
        if (chunk === null) break;
        pending = null;
        if (chunk.done) throw new Error(`The stream ended early:\n${text}`);
        text += chunk.value;
      }
      return text.includes(wanted);
    };
    expect(await readUntil(": connected", 10_000)).toBe(true);
    // The stream subscribes right after it says "connected": events made at once may come too early, so try again.
    let received = false;
    for (let attempt = 0; attempt < 5 && !received; attempt += 1) {
      const events = await probe.stream!.during();
      aIds.push(...events.aIds);
      received = await readUntil(events.sentinel, 3_000);
    }
    expect(received, `B's own event never arrived:\n${text}`).toBe(true);
  } finally {
    controller.abort();
    await reader.cancel().catch(() => {});
  }
  return { answer: { status: response.status, json: undefined, text, headers: response.headers }, aIds };
}

let cases = 0;

describe("tenant isolation: workspace B against workspace A's data, on every operation", () => {
  beforeAll(async () => {
    a = await buildWorkspaceA();
    b = await buildWorkspaceB();
  }, 120_000);

  it("has a matrix entry for every contract, and none for operations that do not exist", () => {
    const operations = contracts.map((contract) => contract.operationId);
    expect(
      operations.filter((operation) => !(operation in MATRIX)),
      "contracts without a tenant-isolation entry",
    ).toEqual([]);
    expect(
      Object.keys(MATRIX).filter((operation) => !operations.includes(operation)),
      "entries for unknown operations",
    ).toEqual([]);
    for (const contract of contracts) {
      // A public route must say why it has nothing to protect; a protected one must not claim to be public.
      expect(MATRIX[contract.operationId]!.public !== undefined, contract.operationId).toBe(contract.auth === "none");
    }
  });

  it("gives B's keys and sessions 404, empty lists, 400 for A's cursors, or B's own data, and never anything of A's", async () => {
    const before = await snapshotA();
    const failures: string[] = [];
    for (const contract of contracts as readonly Contract[]) {
      for (const probe of MATRIX[contract.operationId]!.probes()) {
        for (const principal of PRINCIPALS) {
          const label = `${contract.operationId} · ${probe.what} · as ${principal}`;
          const headers = probe.headers ? probe.headers(principalHeaders(principal)) : principalHeaders(principal);
          const sent = `${probe.path}\n${JSON.stringify(probe.body ?? null)}`;
          let answer: Answer;
          let extraMarkers: string[] = [];
          if (probe.stream) {
            ({ answer, aIds: extraMarkers } = await readStream(probe, headers));
          } else {
            answer = await send(probe.method, probe.path, headers, probe.body);
          }
          cases += 1;
          try {
            const isSession = principal.startsWith("B session");
            if (contract.auth === "apiKey" && isSession) {
              // Priced routes need a key; a session is no key.
              expect(answer.status, answer.text).toBe(401);
            } else if (contract.auth === "workspace" && principal === "B session naming A's workspace") {
              expect(answer.status, answer.text).toBe(404);
            } else {
              await probe.expect(answer, principal);
            }
            expect(leakedMarkers(answer, sent, extraMarkers), "A's data in B's answer").toEqual([]);
          } catch (error) {
            failures.push(`${label}: ${(error as Error).message.split("\n").slice(0, 6).join(" ")}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Every operation × its probes × 4 principals; a floor so a silently shrinking matrix is noticed.
    expect(cases).toBeGreaterThanOrEqual(240);

    // Nothing B tried changed anything of A's, and A's keys still work.
    expect(await snapshotA()).toEqual(before);
    expect((await send("GET", "/v1/workspace", withKey(a.liveKey.key))).status).toBe(200);
    expect((await send("GET", "/v1/workspace", withKey(a.testKey.key))).status).toBe(200);
    // What B created is B's.
    expect(
      await db().webhookEndpoint.count({ where: { id: { in: createdByB.endpoints }, workspaceId: b.workspaceId } }),
    ).toBe(createdByB.endpoints.length);
    expect(await db().apiKey.count({ where: { id: { in: createdByB.apiKeys }, workspaceId: b.workspaceId } })).toBe(
      createdByB.apiKeys.length,
    );
    expect(
      await db().invitation.count({ where: { id: { in: createdByB.invitations }, workspaceId: b.workspaceId } }),
    ).toBe(createdByB.invitations.length);
    // Nobody here is an operator: no money moved and no sign-up invitation was issued.
    expect(await db().ledgerEntry.count({ where: { kind: "credit" } })).toBe(0);
    expect(await db().invitation.count({ where: { workspaceId: null } })).toBe(0);
    console.info(
      `tenant isolation matrix: ${cases} cases over ${contracts.length} operations × ${PRINCIPALS.length} principals`,
    );
  }, 300_000);

  it("shows B's dashboard pages and next-auth's endpoints without anything of A's", async () => {
    for (const path of ["/", "/endpoints", "/api-keys", "/usage", "/docs"]) {
      const answer = await send("GET", path, { cookie: b.cookies });
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(200);
      expect(leakedMarkers(answer, path), path).toEqual([]);
    }
    const session = await send("GET", "/api/auth/session", { cookie: b.cookies });
    expect(session.json).toMatchObject({ user: { email: `bob-${tag}@example.com` } });
    expect(leakedMarkers(session, "")).toEqual([]);
    for (const path of ["/api/auth/csrf", "/api/auth/providers"]) {
      const answer = await send("GET", path, { cookie: b.cookies });
      expect(answer.status).toBe(200);
      expect(leakedMarkers(answer, path)).toEqual([]);
    }
  });

  it("refuses A's revoked key, and lets A's own live key see its data (the markers are real)", async () => {
    expect((await send("GET", "/v1/workspace", withKey(a.revokedKey.key))).status).toBe(401);
    const own = await send("GET", `/v1/webhook-endpoints/deliveries/${a.deliveryIds[1]}`, withKey(a.liveKey.key));
    expect(own.status).toBe(200);
    expect(own.text).toContain(PAYLOAD_MARKER);
    expect(own.text).toContain(HEADER_MARKER);
    const endpoint = await send("GET", `/v1/webhook-endpoints/${a.endpointIds[0]}`, withKey(a.liveKey.key));
    expect(endpoint.text).toContain(`a-description-${tag}`);
    // The signing secret is never served back, even to its owner (only a hint of its last characters).
    expect(endpoint.text).not.toContain(SIGNING_SECRET);
  });
});
