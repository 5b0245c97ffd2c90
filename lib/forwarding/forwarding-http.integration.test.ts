import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { MAX_DESTINATIONS_PER_ENDPOINT, MAX_DESTINATION_HEADERS } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, detailPaths, errorOf, expectError, postWebhook, requestApi } from "@/test/http-api";

// The forwarding API over HTTP against the real launcher: destinations (create, list, change, delete) with their
// validation, a delivery's attempts, replay of one delivery and by filter, and 404 for another workspace's ids. The
// routes sit beside `deliveries/{id}` and `{id}`: each must reach its own handler.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ PUBLIC_BASE_URL: "", RATE_LIMIT_API_PER_MINUTE: "0" });
});

afterAll(async () => {
  await app?.stop();
});

let tenants = 0;

async function newTenant() {
  const workspace = await createWorkspace({ name: `Forwarding HTTP ${++tenants}` });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  const endpointId = dataOf<{ id: string }>(
    await requestApi(app.baseUrl, key, "POST", "/v1/webhook-endpoints", { name: "e" }),
    201,
  ).id;
  return { workspaceId: workspace.id, key, endpointId };
}

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const destinations = (endpointId: string) => `/v1/webhook-endpoints/${endpointId}/destinations`;

async function createOne(tenant: Tenant, body: object = { url: "https://a.example/in" }) {
  return dataOf<{ id: string; signingSecret: string; enabled: boolean }>(
    await requestApi(app.baseUrl, tenant.key, "POST", destinations(tenant.endpointId), body),
    201,
  );
}

async function forwarding(endpointId: string): Promise<boolean> {
  return (await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpointId } })).forwarding;
}

describe("destinations over HTTP", () => {
  it("creates (201, secret once), lists, changes and deletes, keeping the endpoint's forwarding flag", async () => {
    const tenant = await newTenant();
    const created = await createOne(tenant, {
      url: "https://a.example/in",
      headers: { Authorization: "Bearer t" },
      retry: { maxAttempts: 3, maxAgeSeconds: 600 },
      autoAcknowledge: true,
    });
    expect(created.id).toMatch(/^dst_/);
    expect(created.signingSecret).toMatch(/^whsec_/);
    expect(await forwarding(tenant.endpointId)).toBe(true);

    const listed = await requestApi(app.baseUrl, tenant.key, "GET", destinations(tenant.endpointId));
    expect(dataOf<{ destinations: unknown[] }>(listed).destinations).toEqual([
      expect.objectContaining({
        id: created.id,
        endpointId: tenant.endpointId,
        headers: { authorization: "Bearer t" },
        retry: { maxAttempts: 3, maxAgeSeconds: 600 },
        autoAcknowledge: true,
        health: expect.objectContaining({ failing: false }),
      }),
    ]);
    expect(listed.text).not.toContain(created.signingSecret);

    const path = `${destinations(tenant.endpointId)}/${created.id}`;
    const changed = await requestApi(app.baseUrl, tenant.key, "PATCH", path, { enabled: false, timeoutMs: 2_000 });
    expect(dataOf(changed)).toMatchObject({ id: created.id, enabled: false, timeoutMs: 2_000 });
    expect(changed.text).not.toContain(created.signingSecret);
    expect(await forwarding(tenant.endpointId)).toBe(false);
    await requestApi(app.baseUrl, tenant.key, "PATCH", path, { enabled: true });
    expect(await forwarding(tenant.endpointId)).toBe(true);

    expect(dataOf(await requestApi(app.baseUrl, tenant.key, "DELETE", path))).toEqual({
      id: created.id,
      deleted: true,
    });
    expect(await forwarding(tenant.endpointId)).toBe(false);
    expectError(await requestApi(app.baseUrl, tenant.key, "DELETE", path), 404, "not_found");
    expectError(await requestApi(app.baseUrl, tenant.key, "PATCH", path, { enabled: true }), 404, "not_found");
  });

  it.each<[string, object, string[]]>([
    ["no url", {}, ["url"]],
    ["a URL that is not http(s)", { url: "ftp://a.example/in" }, ["url"]],
    ["a URL with credentials", { url: "https://user:pw@a.example/in" }, ["url"]],
    ["a URL with a fragment", { url: "https://a.example/in#x" }, ["url"]],
    ["no URL at all", { url: "not a url" }, ["url"]],
    ["a URL over 2048 characters", { url: `https://a.example/${"a".repeat(2_048)}` }, ["url"]],
    ["a reserved header", { url: "https://a.example", headers: { Host: "b.example" } }, ["headers.Host"]],
    [
      "the signature header",
      { url: "https://a.example", headers: { "Webhook-Signature": "v1,x" } },
      ["headers.Webhook-Signature"],
    ],
    ["a repeated header", { url: "https://a.example", headers: { "x-a": "1", "X-A": "2" } }, ["headers.X-A"]],
    ["a header name that is no token", { url: "https://a.example", headers: { "a b": "1" } }, ["headers.a b"]],
    ["a header value with a newline", { url: "https://a.example", headers: { "x-a": "1\r\nx-b: 2" } }, ["headers.x-a"]],
    ["a header value beyond Latin-1", { url: "https://a.example", headers: { "x-a": "\u{1F600}" } }, ["headers.x-a"]],
    ["a header value with a control", { url: "https://a.example", headers: { "x-a": "a\u0001b" } }, ["headers.x-a"]],
    [
      "a proxy header",
      { url: "https://a.example", headers: { "Proxy-Authorization": "Basic x" } },
      ["headers.Proxy-Authorization"],
    ],
    ["expect", { url: "https://a.example", headers: { expect: "100-continue" } }, ["headers.expect"]],
    [
      `more than ${MAX_DESTINATION_HEADERS} headers`,
      {
        url: "https://a.example",
        headers: Object.fromEntries(Array.from({ length: MAX_DESTINATION_HEADERS + 1 }, (_, n) => [`x-${n}`, "v"])),
      },
      ["headers"],
    ],
    ["a timeout under 1 s", { url: "https://a.example", timeoutMs: 999 }, ["timeoutMs"]],
    ["a timeout over 30 s", { url: "https://a.example", timeoutMs: 30_001 }, ["timeoutMs"]],
    ["no attempt at all", { url: "https://a.example", retry: { maxAttempts: 0 } }, ["retry.maxAttempts"]],
    ["more than 20 attempts", { url: "https://a.example", retry: { maxAttempts: 21 } }, ["retry.maxAttempts"]],
    ["a max age over 7 days", { url: "https://a.example", retry: { maxAgeSeconds: 604_801 } }, ["retry.maxAgeSeconds"]],
    ["an unknown retry field", { url: "https://a.example", retry: { backoff: "fast" } }, ["retry.backoff"]],
    ["a rate of 0 per second", { url: "https://a.example", rateLimitPerSecond: 0 }, ["rateLimitPerSecond"]],
    ["an unknown field", { url: "https://a.example", secret: "mine" }, ["secret"]],
    ["a string for a boolean", { url: "https://a.example", enabled: "yes" }, ["enabled"]],
  ])("refuses %s with 400 and the field in details", async (_case, body, paths) => {
    const tenant = await newTenant();
    const answer = await requestApi(app.baseUrl, tenant.key, "POST", destinations(tenant.endpointId), body);
    expectError(answer, 400, "validation_error");
    expect(detailPaths(answer.json)).toEqual(paths);
    expect(await db().webhookDestination.count({ where: { workspaceId: tenant.workspaceId } })).toBe(0);
  });

  it("refuses an empty change, unknown fields and bad values in a change", async () => {
    const tenant = await newTenant();
    const { id } = await createOne(tenant);
    const path = `${destinations(tenant.endpointId)}/${id}`;
    for (const [body, paths] of [
      [{}, [""]],
      [{ url: "javascript:alert(1)" }, ["url"]],
      [{ signingSecret: "whsec_x" }, ["signingSecret"]],
      [{ headers: { "content-length": "1" } }, ["headers.content-length"]],
    ] as const) {
      const answer = await requestApi(app.baseUrl, tenant.key, "PATCH", path, body);
      expectError(answer, 400, "validation_error");
      expect(detailPaths(answer.json), JSON.stringify(body)).toEqual(paths);
    }
  });

  it(`refuses destination ${MAX_DESTINATIONS_PER_ENDPOINT + 1} of an endpoint with 400`, async () => {
    const tenant = await newTenant();
    for (let index = 0; index < MAX_DESTINATIONS_PER_ENDPOINT; index += 1) await createOne(tenant);
    const answer = await requestApi(app.baseUrl, tenant.key, "POST", destinations(tenant.endpointId), {
      url: "https://a.example/in",
    });
    expectError(answer, 400, "validation_error");
    expect(errorOf(answer.json).message).toContain(String(MAX_DESTINATIONS_PER_ENDPOINT));
  });

  it("answers 404 for another workspace's endpoint and destination, as for unknown ones", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const { id } = await createOne(a);
    const own = await createOne(b);
    for (const [method, path, body] of [
      ["GET", destinations(a.endpointId)],
      ["POST", destinations(a.endpointId), { url: "https://b.example" }],
      ["PATCH", `${destinations(a.endpointId)}/${id}`, { url: "https://b.example" }],
      ["PATCH", `${destinations(b.endpointId)}/${id}`, { url: "https://b.example" }],
      ["DELETE", `${destinations(a.endpointId)}/${id}`],
      ["DELETE", `${destinations(b.endpointId)}/${id}`],
      ["GET", destinations("we_unknown")],
      ["PATCH", `${destinations(b.endpointId)}/dst_unknown`, { enabled: true }],
    ] as const) {
      expectError(await requestApi(app.baseUrl, b.key, method, path, body), 404, "not_found");
    }
    // B's own destination is not reached through A's endpoint either.
    expectError(
      await requestApi(app.baseUrl, a.key, "DELETE", `${destinations(a.endpointId)}/${own.id}`),
      404,
      "not_found",
    );
    expect((await db().webhookDestination.findFirstOrThrow({ where: { id } })).url).toBe("https://a.example/in");
  });
});

describe("attempts and replay over HTTP", () => {
  it("forwards what arrives, lists a delivery's forwards, and replays it to all or one destination", async () => {
    const tenant = await newTenant();
    const first = await createOne(tenant);
    const second = await createOne(tenant);
    const deliveryId = await postWebhook(app.baseUrl, tenant.endpointId, '{"n":1}', {
      "content-type": "application/json",
    });
    // The delivery route still answers beside the new ones.
    const delivery = await requestApi(app.baseUrl, tenant.key, "GET", `/v1/webhook-endpoints/deliveries/${deliveryId}`);
    expect(dataOf<{ id: string }>(delivery).id).toBe(deliveryId);

    const attemptsPath = `/v1/webhook-endpoints/deliveries/${deliveryId}/attempts`;
    const ingested = dataOf<{ forwards: { destinationId: string; reason: string }[]; attempts: unknown[] }>(
      await requestApi(app.baseUrl, tenant.key, "GET", attemptsPath),
    );
    expect(ingested.forwards.map((forward) => [forward.destinationId, forward.reason]).sort()).toEqual(
      [
        [first.id, "ingest"],
        [second.id, "ingest"],
      ].sort(),
    );

    const replayPath = `/v1/webhook-endpoints/deliveries/${deliveryId}/replay`;
    // No body at all: every enabled destination.
    const all = dataOf<{ forwards: { destinationId: string; reason: string }[] }>(
      await requestApi(app.baseUrl, tenant.key, "POST", replayPath),
    );
    expect(all.forwards.map((forward) => forward.destinationId)).toEqual([first.id, second.id]);
    const one = dataOf<{ forwards: { destinationId: string; reason: string; status: string }[] }>(
      await requestApi(app.baseUrl, tenant.key, "POST", replayPath, { destinationId: second.id }),
    );
    expect(one.forwards).toEqual([
      expect.objectContaining({ destinationId: second.id, reason: "replay", status: "pending" }),
    ]);
    const listed = dataOf<{ forwards: { reason: string }[] }>(
      await requestApi(app.baseUrl, tenant.key, "GET", attemptsPath),
    );
    expect(listed.forwards.map((forward) => forward.reason)).toEqual([
      "replay",
      "replay",
      "replay",
      "ingest",
      "ingest",
    ]);

    await requestApi(app.baseUrl, tenant.key, "PATCH", `${destinations(tenant.endpointId)}/${second.id}`, {
      enabled: false,
    });
    const disabled = await requestApi(app.baseUrl, tenant.key, "POST", replayPath, { destinationId: second.id });
    expectError(disabled, 400, "validation_error");
    expect(detailPaths(disabled.json)).toEqual(["destinationId"]);
    expect(detailPaths((await requestApi(app.baseUrl, tenant.key, "POST", replayPath, { to: "all" })).json)).toEqual([
      "to",
    ]);
  });

  it("replays by filter, and refuses a bad filter, cursor or destination", async () => {
    const tenant = await newTenant();
    const { id } = await createOne(tenant);
    for (let n = 0; n < 3; n += 1)
      await postWebhook(app.baseUrl, tenant.endpointId, `{"n":${n}}`, { "content-type": "application/json" });
    const path = "/v1/webhook-endpoints/deliveries/replay";
    const answer = dataOf<{ replayedCount: number; hasMore: boolean; nextCursor: string | null }>(
      await requestApi(app.baseUrl, tenant.key, "POST", path, {
        filter: { endpointId: tenant.endpointId, unacknowledged: "true" },
        destinationId: id,
      }),
    );
    expect(answer).toEqual({ replayedCount: 3, hasMore: false, nextCursor: null });
    expect(await db().deliveryForward.count({ where: { workspaceId: tenant.workspaceId, reason: "replay" } })).toBe(3);

    for (const [body, paths] of [
      [{}, ["filter"]],
      [{ filter: { endpoint: tenant.endpointId } }, ["filter.endpoint"]],
      [{ filter: {}, cursor: "abc" }, ["cursor"]],
      [{ filter: {}, destinationId: "" }, ["destinationId"]],
    ] as const) {
      const refused = await requestApi(app.baseUrl, tenant.key, "POST", path, body);
      expectError(refused, 400, "validation_error");
      expect(detailPaths(refused.json), JSON.stringify(body)).toEqual(paths);
    }
  });

  it("answers 404 for another workspace's delivery on attempts and replay", async () => {
    const a = await newTenant();
    const b = await newTenant();
    await createOne(a);
    const { id } = await createOne(b);
    const deliveryId = await postWebhook(app.baseUrl, a.endpointId, "{}", { "content-type": "application/json" });
    for (const [method, path, body] of [
      ["GET", `/v1/webhook-endpoints/deliveries/${deliveryId}/attempts`],
      ["POST", `/v1/webhook-endpoints/deliveries/${deliveryId}/replay`],
      ["POST", `/v1/webhook-endpoints/deliveries/${deliveryId}/replay`, { destinationId: id }],
      ["GET", "/v1/webhook-endpoints/deliveries/00000000-0000-4000-8000-000000000000/attempts"],
    ] as const) {
      expectError(await requestApi(app.baseUrl, b.key, method, path, body), 404, "not_found");
    }
    expect(await db().deliveryForward.count({ where: { workspaceId: b.workspaceId } })).toBe(0);
  });
});
