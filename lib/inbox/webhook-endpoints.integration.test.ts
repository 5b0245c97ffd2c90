import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { ApiClientError, createApiClient, type ApiClient } from "@/lib/client/api-client";
import {
  acknowledgeDeliveryContract,
  createWebhookEndpointContract,
  deleteWebhookEndpointContract,
  getWebhookEndpointContract,
  listWebhookEndpointsContract,
  updateWebhookEndpointContract,
  type SIGNATURE_SCHEME_NAMES,
} from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { detailPaths, errorOf, ISO_MS, requestApi } from "@/test/http-api";

// The webhook endpoint management API over HTTP against the real launcher (DESIGN §4): create, list, get, patch,
// delete, counts, unguessable ids, and tenant isolation.

let app: RunningApp;

beforeAll(async () => {
  // ingestUrl comes from the request's Host unless PUBLIC_BASE_URL is set; pin it unset so the URL is predictable.
  app = await startApp({ PUBLIC_BASE_URL: "" });
});

afterAll(async () => {
  await app?.stop();
});

interface Tenant {
  workspaceId: string;
  key: string;
  client: ApiClient;
}

let tenantCounter = 0;

async function newTenant(name = `Tenant ${++tenantCounter}`): Promise<Tenant> {
  const workspace = await createWorkspace({ name });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  return { workspaceId: workspace.id, key, client: createApiClient({ baseUrl: app.baseUrl, apiKey: key }) };
}

const call = (key: string | null, method: string, path: string, body?: unknown) =>
  requestApi(app.baseUrl, key, method, path, body);

async function createEndpoint(
  tenant: Tenant,
  body: {
    name: string;
    description?: string;
    signing?: { scheme: (typeof SIGNATURE_SCHEME_NAMES)[number]; secret: string; rejectInvalid?: boolean };
  },
) {
  return (await tenant.client.call(createWebhookEndpointContract, { body })).data;
}

async function ingest(
  endpointId: string,
  payload: unknown = { hello: "world" },
): Promise<{ status: number; deliveryId?: string }> {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  });
  const json = (await response.json().catch(() => undefined)) as { deliveryId?: string } | undefined;
  return { status: response.status, deliveryId: json?.deliveryId };
}

async function endpointCount(workspaceId: string): Promise<number> {
  return db().webhookEndpoint.count({ where: { workspaceId } });
}

const ENDPOINT_ID = /^we_[0-9A-Za-z]{22,}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const standardWebhooksSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const VALID_SECRETS: Record<(typeof SIGNATURE_SCHEME_NAMES)[number], () => string> = {
  "standard-webhooks": standardWebhooksSecret,
  stripe: () => `whsec_${randomBytes(18).toString("hex")}`,
  github: () => `gh-${randomBytes(18).toString("hex")}`,
  shopify: () => `shpss_${randomBytes(18).toString("hex")}`,
  slack: () => randomBytes(16).toString("hex"),
};

describe("POST /v1/webhook-endpoints", () => {
  it("creates an endpoint without signing: 201, trimmed fields, an ingest URL that works, zero counts", async () => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "POST", "/v1/webhook-endpoints", {
      name: "  Orders  ",
      description: "  Shop orders  ",
    });
    expect(response.status).toBe(201);
    const parsed = createWebhookEndpointContract.response.parse(response.json);
    const endpoint = parsed.data;
    expect(endpoint).toEqual({
      id: expect.stringMatching(ENDPOINT_ID),
      workspaceId: tenant.workspaceId,
      name: "Orders",
      description: "Shop orders",
      ingestUrl: `${app.baseUrl}/webhooks/ingest/${endpoint.id}`,
      enabled: true,
      signing: null,
      eventTypeSource: null,
      retention: null,
      effectiveRetention: { acknowledgedDays: null, allDays: null, source: "none" },
      pendingCount: 0,
      totalCount: 0,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });

    const row = await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } });
    expect(row).toMatchObject({
      workspaceId: tenant.workspaceId,
      name: "Orders",
      description: "Shop orders",
      enabled: true,
      signingScheme: null,
      signingSecret: null,
    });
    expect(row.createdAt.toISOString()).toBe(endpoint.createdAt);

    // The ingest URL is usable as given.
    const delivered = await fetch(endpoint.ingestUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(delivered.status).toBe(200);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpoint.id } })).toBe(1);
  });

  it("stores a null description when none is given and accepts the boundary lengths", async () => {
    const tenant = await newTenant();
    const plain = await createEndpoint(tenant, { name: "n" });
    expect(plain.description).toBeNull();
    const longest = await createEndpoint(tenant, { name: "N".repeat(100), description: "d".repeat(500) });
    expect(longest.name).toHaveLength(100);
    expect(longest.description).toHaveLength(500);
  });

  it.each(Object.entries(VALID_SECRETS))(
    "creates an endpoint checking %s signatures and never returns the secret",
    async (scheme, makeSecret) => {
      const tenant = await newTenant();
      const secret = makeSecret();
      const created = await call(tenant.key, "POST", "/v1/webhook-endpoints", {
        name: "Signed",
        signing: { scheme, secret, rejectInvalid: true },
      });
      expect(created.status).toBe(201);
      const endpoint = createWebhookEndpointContract.response.parse(created.json).data;
      expect(endpoint.signing).toEqual({ scheme, rejectInvalid: true, secretHint: `…${secret.slice(-4)}` });

      // Stored server-side…
      const row = await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } });
      expect(row.signingSecret).toBe(secret);
      expect(row.rejectInvalidSignatures).toBe(true);

      // …but never in any answer: create, get, list, patch.
      const answers = [
        created.text,
        (await call(tenant.key, "GET", `/v1/webhook-endpoints/${endpoint.id}`)).text,
        (await call(tenant.key, "GET", "/v1/webhook-endpoints")).text,
        (await call(tenant.key, "PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { name: "Renamed" })).text,
      ];
      for (const text of answers) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice(0, -4));
        expect(text).toContain(`…${secret.slice(-4)}`);
      }
    },
  );

  it("defaults rejectInvalid to false", async () => {
    const tenant = await newTenant();
    const endpoint = await createEndpoint(tenant, {
      name: "Signed",
      signing: { scheme: "github", secret: "topsecret-value" },
    });
    // 15 characters: the hint shows 3, never more than a quarter of a secret.
    expect(endpoint.signing).toEqual({ scheme: "github", rejectInvalid: false, secretHint: "…lue" });
  });

  it.each([
    ["a Stripe secret that is not whsec_", "stripe", "sk_live_51Habcdefghijklmnop"],
    ["a Standard Webhooks secret that is not base64", "standard-webhooks", "whsec_not base64!!"],
    ["a secret with surrounding whitespace", "github", "  padded-secret  "],
  ])("refuses %s with 400 naming signing.secret and stores nothing", async (_case, scheme, secret) => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "POST", "/v1/webhook-endpoints", {
      name: "Bad secret",
      signing: { scheme, secret },
    });
    expect(response.status).toBe(400);
    expect(errorOf(response.json).code).toBe("validation_error");
    expect(detailPaths(response.json)).toEqual(["signing.secret"]);
    expect(response.text).not.toContain(secret.trim());
    expect(await endpointCount(tenant.workspaceId)).toBe(0);
  });

  it.each<[string, unknown, string[]]>([
    ["a missing name", {}, ["name"]],
    ["an empty name", { name: "" }, ["name"]],
    ["a blank name", { name: "   " }, ["name"]],
    ["a name over 100 characters", { name: "x".repeat(101) }, ["name"]],
    ["a numeric name", { name: 42 }, ["name"]],
    ["a null name", { name: null }, ["name"]],
    ["a description over 500 characters", { name: "ok", description: "d".repeat(501) }, ["description"]],
    ["a numeric description", { name: "ok", description: 7 }, ["description"]],
    ["an unknown key", { name: "ok", color: "red" }, ["color"]],
    [
      "an unknown signature scheme",
      { name: "ok", signing: { scheme: "paypal", secret: "s3cret" } },
      ["signing.scheme"],
    ],
    ["a signing config without a secret", { name: "ok", signing: { scheme: "github" } }, ["signing.secret"]],
    ["an empty secret", { name: "ok", signing: { scheme: "github", secret: "" } }, ["signing.secret"]],
    [
      "a non-boolean rejectInvalid",
      { name: "ok", signing: { scheme: "github", secret: "s3cret", rejectInvalid: "yes" } },
      ["signing.rejectInvalid"],
    ],
    [
      "an unknown key inside signing",
      { name: "ok", signing: { scheme: "github", secret: "s3cret", algo: "sha1" } },
      ["signing.algo"],
    ],
    ["signing as a string", { name: "ok", signing: "github" }, ["signing"]],
    [
      "several bad fields at once",
      { name: "", description: 5, signing: { scheme: "nope", secret: 1 }, extra: true },
      ["description", "extra", "name", "signing.scheme", "signing.secret"],
    ],
  ])("refuses %s with 400 naming each bad field", async (_case, body, paths) => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "POST", "/v1/webhook-endpoints", body);
    expect(response.status).toBe(400);
    expect(errorOf(response.json).code).toBe("validation_error");
    expect(detailPaths(response.json)).toEqual(paths);
    expect(await endpointCount(tenant.workspaceId)).toBe(0);
  });

  it.each<[string, unknown]>([
    ["a JSON array", []],
    ["a JSON string", '"Orders"'],
    ["malformed JSON", '{"name": '],
    ["no body", undefined],
  ])("refuses %s with 400", async (_case, body) => {
    const tenant = await newTenant();
    const response = await call(tenant.key, "POST", "/v1/webhook-endpoints", body ?? "");
    expect(response.status).toBe(400);
    expect(errorOf(response.json).code).toBe("validation_error");
    expect(await endpointCount(tenant.workspaceId)).toBe(0);
  });

  it("answers 401 without a valid key and creates nothing", async () => {
    const before = await db().webhookEndpoint.count();
    for (const key of [null, `sbx_live_${"A".repeat(40)}`]) {
      const response = await call(key, "POST", "/v1/webhook-endpoints", { name: "x" });
      expect(response.status).toBe(401);
      expect(errorOf(response.json).code).toBe("unauthorized");
      expect((await call(key, "GET", "/v1/webhook-endpoints")).status).toBe(401);
    }
    expect(await db().webhookEndpoint.count()).toBe(before);
  });
});

describe("ids", () => {
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const decodeBase62 = (text: string) =>
    [...text].reduce((value, character) => value * 62n + BigInt(BASE62.indexOf(character)), 0n);

  it("are we_ plus at least 22 base62 characters, distinct, with 128 bits that all vary", async () => {
    const tenant = await newTenant();
    const ids: string[] = [];
    // Created back to back, many within the same millisecond.
    for (let batch = 0; batch < 5; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 8 }, (_, index) => createEndpoint(tenant, { name: `e${index}` })),
      );
      ids.push(...created.map((endpoint) => endpoint.id));
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(ENDPOINT_ID); // 62^22 ≈ 2^131
    // ≥128 random bits (DESIGN §4): read as a number, the id's low 128 bits must each take both values across 40
    // ids (a constant bit among random ones has odds 2^-39). A counter, a clock, or fewer random bytes fail this.
    const values = ids.map((id) => decodeBase62(id.slice("we_".length)));
    const constantBits: number[] = [];
    for (let bit = 0n; bit < 128n; bit += 1n) {
      const seen = new Set(values.map((value) => (value >> bit) & 1n));
      if (seen.size < 2) constantBits.push(Number(bit));
    }
    expect(constantBits, ids.join(", ")).toEqual([]);
  });
});

describe("GET /v1/webhook-endpoints and /:id", () => {
  it("gets one endpoint as created", async () => {
    const tenant = await newTenant();
    const created = await createEndpoint(tenant, { name: "One", description: "first" });
    const fetched = await tenant.client.call(getWebhookEndpointContract, { params: { id: created.id } });
    expect(fetched).toEqual({ success: true, data: created });
  });

  it("lists newest first and a cursor walk at limit 3 visits each of 7 endpoints exactly once", async () => {
    const tenant = await newTenant();
    const created: string[] = [];
    for (let index = 0; index < 7; index += 1) {
      created.push((await createEndpoint(tenant, { name: `Endpoint ${index}` })).id);
      await sleep(3); // distinct createdAt milliseconds, so "newest first" is the reverse creation order
    }
    const other = await newTenant();
    await createEndpoint(other, { name: "Not mine" });

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = (await tenant.client.call(listWebhookEndpointsContract, { query: { limit: 3, cursor } })).data;
      for (const endpoint of page.endpoints) expect(endpoint.workspaceId).toBe(tenant.workspaceId);
      pages.push(page.endpoints.map((endpoint) => endpoint.id));
      cursor = page.nextCursor ?? undefined;
      expect(pages.length).toBeLessThanOrEqual(3);
    } while (cursor);

    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual([...created].reverse());

    // Without a limit: all seven on one page, no cursor.
    const all = (await tenant.client.call(listWebhookEndpointsContract, { query: {} })).data;
    expect(all.endpoints.map((endpoint) => endpoint.id)).toEqual([...created].reverse());
    expect(all.nextCursor).toBeNull();
  });

  it("pages without skips or repeats when endpoints share a createdAt", async () => {
    const tenant = await newTenant();
    const ids: string[] = [];
    for (let index = 0; index < 7; index += 1) ids.push((await createEndpoint(tenant, { name: `Tied ${index}` })).id);
    await db()
      .$executeRaw`UPDATE webhook_endpoints SET created_at = '2030-01-01T00:00:00.000Z' WHERE workspace_id = ${tenant.workspaceId}`;

    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 5; pages += 1) {
      const page = (await tenant.client.call(listWebhookEndpointsContract, { query: { limit: 2, cursor } })).data;
      seen.push(...page.endpoints.map((endpoint) => endpoint.id));
      cursor = page.nextCursor ?? undefined;
      if (!cursor) break;
    }
    expect(cursor).toBeUndefined();
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(new Set(ids));
    const expectedOrder = (
      await db().$queryRaw<{ id: string }[]>`
      SELECT id FROM webhook_endpoints WHERE workspace_id = ${tenant.workspaceId} ORDER BY created_at DESC, id DESC`
    ).map((row) => row.id);
    expect(seen).toEqual(expectedOrder);
  });

  it("refuses a bad limit or an altered or foreign cursor with 400", async () => {
    const tenant = await newTenant();
    for (let index = 0; index < 3; index += 1) await createEndpoint(tenant, { name: `e${index}` });
    const { nextCursor } = (await tenant.client.call(listWebhookEndpointsContract, { query: { limit: 1 } })).data;
    expect(nextCursor).toEqual(expect.any(String));
    const cursor = nextCursor!;

    for (const limit of ["0", "101", "1.5", "abc"]) {
      const response = await call(tenant.key, "GET", `/v1/webhook-endpoints?limit=${limit}`);
      expect(response.status, `limit=${limit}`).toBe(400);
      expect(detailPaths(response.json)).toEqual(["limit"]);
    }
    const flipped = `${cursor[0] === "A" ? "B" : "A"}${cursor.slice(1)}`;
    const other = await newTenant();
    for (const [key, bad] of [
      [tenant.key, flipped],
      [tenant.key, `${cursor}x`],
      [tenant.key, "not-a-cursor"],
      [other.key, cursor],
    ] as const) {
      const response = await call(key, "GET", `/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(bad)}`);
      expect(response.status).toBe(400);
      expect(detailPaths(response.json)).toEqual(["cursor"]);
    }
    // The untouched cursor still works.
    expect(
      (await call(tenant.key, "GET", `/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(cursor)}`)).status,
    ).toBe(200);
  });

  it("answers 404 for unknown ids", async () => {
    const tenant = await newTenant();
    for (const id of ["we_0000000000000000000000000000", "we_doesNotExist", "nothing"]) {
      for (const method of ["GET", "DELETE"]) {
        const response = await call(tenant.key, method, `/v1/webhook-endpoints/${id}`);
        expect(response.status, `${method} ${id}`).toBe(404);
        expect(errorOf(response.json).code).toBe("not_found");
      }
      const patched = await call(tenant.key, "PATCH", `/v1/webhook-endpoints/${id}`, { name: "x" });
      expect(patched.status).toBe(404);
      expect(errorOf(patched.json).code).toBe("not_found");
    }
  });
});

describe("PATCH /v1/webhook-endpoints/:id", () => {
  it("changes each field on its own and leaves the others alone", async () => {
    const tenant = await newTenant();
    const original = await createEndpoint(tenant, { name: "Original", description: "desc" });
    const patch = (body: z.input<typeof updateWebhookEndpointContract.body>) =>
      tenant.client
        .call(updateWebhookEndpointContract, { params: { id: original.id }, body })
        .then((answer) => answer.data);

    await sleep(5);
    const renamed = await patch({ name: "  Renamed  " });
    expect(renamed).toEqual({ ...original, name: "Renamed", updatedAt: expect.stringMatching(ISO_MS) });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(original.updatedAt));

    const described = await patch({ description: "  new description " });
    expect(described).toMatchObject({ name: "Renamed", description: "new description", enabled: true, signing: null });

    const cleared = await patch({ description: null });
    expect(cleared).toMatchObject({ name: "Renamed", description: null });
    expect((await db().webhookEndpoint.findFirstOrThrow({ where: { id: original.id } })).description).toBeNull();

    const disabled = await patch({ enabled: false });
    expect(disabled).toMatchObject({ name: "Renamed", description: null, enabled: false });
    // A disabled endpoint answers 404 to senders and stores nothing; it is still listed for its owner.
    expect((await ingest(original.id)).status).toBe(404);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: original.id } })).toBe(0);
    expect((await tenant.client.call(getWebhookEndpointContract, { params: { id: original.id } })).data.enabled).toBe(
      false,
    );

    const enabled = await patch({ enabled: true });
    expect(enabled.enabled).toBe(true);
    expect((await ingest(original.id)).status).toBe(200);

    const secret = "first-secret-abcd";
    const signed = await patch({ signing: { scheme: "github", secret } });
    expect(signed).toMatchObject({
      name: "Renamed",
      enabled: true,
      signing: { scheme: "github", rejectInvalid: false, secretHint: "…abcd" },
    });
    let row = await db().webhookEndpoint.findFirstOrThrow({ where: { id: original.id } });
    expect(row).toMatchObject({ signingScheme: "github", signingSecret: secret, rejectInvalidSignatures: false });

    const stripe = await patch({ signing: { scheme: "stripe", secret: "whsec_second9876", rejectInvalid: true } });
    expect(stripe.signing).toEqual({ scheme: "stripe", rejectInvalid: true, secretHint: "…9876" });

    const unsigned = await patch({ signing: null });
    expect(unsigned).toMatchObject({ name: "Renamed", description: null, enabled: true, signing: null });
    row = await db().webhookEndpoint.findFirstOrThrow({ where: { id: original.id } });
    expect(row).toMatchObject({ signingScheme: null, signingSecret: null, rejectInvalidSignatures: false });

    // Several at once.
    const both = await patch({ name: "Both", description: "again", enabled: false });
    expect(both).toMatchObject({
      id: original.id,
      workspaceId: tenant.workspaceId,
      name: "Both",
      description: "again",
      enabled: false,
      signing: null,
      createdAt: original.createdAt,
    });
  });

  it.each<[string, unknown, string[]]>([
    ["an empty body", {}, [""]],
    ["an empty name", { name: "" }, ["name"]],
    ["a blank name", { name: "  " }, ["name"]],
    ["a name over 100 characters", { name: "x".repeat(101) }, ["name"]],
    ["a null name", { name: null }, ["name"]],
    ["a description over 500 characters", { description: "d".repeat(501) }, ["description"]],
    ["a string enabled", { enabled: "false" }, ["enabled"]],
    ["an unknown key beside a valid one", { name: "ok", color: "red" }, ["color"]],
    // Nothing known is left to change either, so the whole body ("") is named too.
    ["only an unknown key", { color: "red" }, ["", "color"]],
    ["an unknown scheme", { signing: { scheme: "paypal", secret: "abc" } }, ["signing.scheme"]],
    ["an invalid secret for the scheme", { signing: { scheme: "stripe", secret: "sk_test_abc" } }, ["signing.secret"]],
  ])("refuses %s with 400 and changes nothing", async (_case, body, paths) => {
    const tenant = await newTenant();
    const endpoint = await createEndpoint(tenant, {
      name: "Stable",
      description: "kept",
      signing: { scheme: "github", secret: "kept-secret" },
    });
    const before = await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } });
    const response = await call(tenant.key, "PATCH", `/v1/webhook-endpoints/${endpoint.id}`, body);
    expect(response.status).toBe(400);
    expect(errorOf(response.json).code).toBe("validation_error");
    expect(detailPaths(response.json)).toEqual(paths);
    expect(await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } })).toEqual(before);
  });
});

describe("counts", () => {
  it("shows pendingCount and totalCount after ingesting 3 and acknowledging 1", async () => {
    const tenant = await newTenant();
    const endpoint = await createEndpoint(tenant, { name: "Counted" });
    const quiet = await createEndpoint(tenant, { name: "Quiet" });
    const deliveryIds: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const answer = await ingest(endpoint.id, { index });
      expect(answer.status).toBe(200);
      deliveryIds.push(answer.deliveryId!);
    }
    await tenant.client.call(acknowledgeDeliveryContract, { params: { id: deliveryIds[1]! } });

    const fetched = (await tenant.client.call(getWebhookEndpointContract, { params: { id: endpoint.id } })).data;
    expect(fetched).toMatchObject({ pendingCount: 2, totalCount: 3 });
    const listed = (await tenant.client.call(listWebhookEndpointsContract, { query: {} })).data.endpoints;
    expect(listed.find((item) => item.id === endpoint.id)).toMatchObject({ pendingCount: 2, totalCount: 3 });
    expect(listed.find((item) => item.id === quiet.id)).toMatchObject({ pendingCount: 0, totalCount: 0 });
    const patched = (
      await tenant.client.call(updateWebhookEndpointContract, {
        params: { id: endpoint.id },
        body: { name: "Still counted" },
      })
    ).data;
    expect(patched).toMatchObject({ pendingCount: 2, totalCount: 3 });
  });
});

describe("DELETE /v1/webhook-endpoints/:id", () => {
  it("deletes the endpoint with its deliveries, and the ingest address stops answering", async () => {
    const tenant = await newTenant();
    const doomed = await createEndpoint(tenant, { name: "Doomed" });
    const survivor = await createEndpoint(tenant, { name: "Survivor" });
    for (let index = 0; index < 3; index += 1) expect((await ingest(doomed.id, { index })).status).toBe(200);
    expect((await ingest(survivor.id)).status).toBe(200);

    const answer = await tenant.client.call(deleteWebhookEndpointContract, { params: { id: doomed.id } });
    expect(answer).toEqual({ success: true, data: { id: doomed.id, deleted: true, deletedDeliveries: 3 } });

    expect(await db().webhookEndpoint.findFirst({ where: { id: doomed.id } })).toBeNull();
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: doomed.id } })).toBe(0);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: survivor.id } })).toBe(1);

    expect((await ingest(doomed.id)).status).toBe(404);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: doomed.id } })).toBe(0);
    expect((await call(tenant.key, "GET", `/v1/webhook-endpoints/${doomed.id}`)).status).toBe(404);
    expect((await call(tenant.key, "DELETE", `/v1/webhook-endpoints/${doomed.id}`)).status).toBe(404);
    const listed = (await tenant.client.call(listWebhookEndpointsContract, { query: {} })).data.endpoints;
    expect(listed.map((endpoint) => endpoint.id)).toEqual([survivor.id]);
  });

  it("reports zero deleted deliveries for an endpoint that received none", async () => {
    const tenant = await newTenant();
    const endpoint = await createEndpoint(tenant, { name: "Empty" });
    const answer = await tenant.client.call(deleteWebhookEndpointContract, { params: { id: endpoint.id } });
    expect(answer.data).toEqual({ id: endpoint.id, deleted: true, deletedDeliveries: 0 });
  });
});

describe("tenant isolation", () => {
  it("gives another workspace's key 404 on GET/PATCH/DELETE and an empty list, and leaves the endpoint intact", async () => {
    const owner = await newTenant("Owner");
    const intruder = await newTenant("Intruder");
    const endpoint = await createEndpoint(owner, {
      name: "Private",
      description: "mine",
      signing: { scheme: "github", secret: "owner-secret-1234" },
    });
    expect((await ingest(endpoint.id)).status).toBe(200);
    const before = await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } });

    const get = await call(intruder.key, "GET", `/v1/webhook-endpoints/${endpoint.id}`);
    const patch = await call(intruder.key, "PATCH", `/v1/webhook-endpoints/${endpoint.id}`, {
      name: "Stolen",
      enabled: false,
      signing: null,
    });
    const remove = await call(intruder.key, "DELETE", `/v1/webhook-endpoints/${endpoint.id}`);
    for (const response of [get, patch, remove]) {
      expect(response.status).toBe(404);
      expect(errorOf(response.json).code).toBe("not_found");
      expect(response.text).not.toContain("Private");
      expect(response.text).not.toContain(owner.workspaceId);
    }
    const intruderList = await intruder.client.call(listWebhookEndpointsContract, { query: {} });
    expect(intruderList.data).toEqual({ endpoints: [], nextCursor: null });

    expect(await db().webhookEndpoint.findFirstOrThrow({ where: { id: endpoint.id } })).toEqual(before);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpoint.id } })).toBe(1);
    const ownerView = (await owner.client.call(getWebhookEndpointContract, { params: { id: endpoint.id } })).data;
    expect(ownerView).toMatchObject({
      name: "Private",
      description: "mine",
      enabled: true,
      totalCount: 1,
      pendingCount: 1,
      signing: { scheme: "github" },
    });
    expect((await ingest(endpoint.id)).status).toBe(200);

    // The typed client surfaces the same 404.
    const error = await intruder.client
      .call(getWebhookEndpointContract, { params: { id: endpoint.id } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
  });
});
