import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { ApiClientError, createApiClient } from "@/lib/client/api-client";
import { getWorkspaceContract } from "@/lib/contracts/workspace";
import { startApp, type RunningApp } from "@/test/app-server";

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

async function getWorkspace(authorization?: string) {
  return fetch(`${app.baseUrl}/v1/workspace`, { headers: authorization ? { authorization } : {} });
}

describe("GET /v1/workspace over HTTP", () => {
  it("tells a live key and a test key which workspace they belong to", async () => {
    const workspace = await createWorkspace({ name: "Acme Inc" });
    const live = await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" });
    const test = await createApiKey({ workspaceId: workspace.id, name: "test", mode: "test" });

    const client = createApiClient({ baseUrl: app.baseUrl, apiKey: live.key });
    const answer = await client.call(getWorkspaceContract, {});
    expect(answer).toEqual({
      success: true,
      data: {
        workspace: {
          id: workspace.id,
          name: "Acme Inc",
          createdAt: workspace.createdAt.toISOString(),
          deliveryRetention: null,
        },
        apiKey: { id: live.apiKey.id, mode: "live" },
        balances: {
          subscriptionAllowanceCents: 0,
          subscriptionRemainingCents: 0,
          purchasedBalanceCents: 0,
          periodStartedAt: expect.any(String),
        },
      },
    });
    const testAnswer = await createApiClient({ baseUrl: app.baseUrl, apiKey: test.key }).call(getWorkspaceContract, {});
    expect(testAnswer.data.apiKey).toEqual({ id: test.apiKey.id, mode: "test" });
  });

  it("keeps workspaces apart", async () => {
    const first = await createWorkspace({ name: "First" });
    const second = await createWorkspace({ name: "Second" });
    const secondKey = await createApiKey({ workspaceId: second.id, name: "k", mode: "live" });
    await createApiKey({ workspaceId: first.id, name: "k", mode: "live" });

    const answer = await createApiClient({ baseUrl: app.baseUrl, apiKey: secondKey.key }).call(
      getWorkspaceContract,
      {},
    );
    expect(answer.data.workspace.id).toBe(second.id);
  });

  it.each([
    ["no header", undefined],
    ["an empty bearer", "Bearer "],
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["a malformed key", "Bearer sbx_live_short"],
    ["a wrong prefix", `Bearer sk_live_${"a".repeat(40)}`],
    ["an unknown key", `Bearer sbx_live_${"A".repeat(40)}`],
  ])("answers 401 with the error body for %s", async (_case, authorization) => {
    const response = await getWorkspace(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
    expect(body).toEqual({ success: false, error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("stops accepting a key as soon as it is revoked", async () => {
    const workspace = await createWorkspace({ name: "Revokers" });
    const { key, apiKey } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
    expect((await getWorkspace(`Bearer ${key}`)).status).toBe(200);

    await revokeApiKey({ workspaceId: workspace.id, apiKeyId: apiKey.id });
    const client = createApiClient({ baseUrl: app.baseUrl, apiKey: key });
    const error = await client.call(getWorkspaceContract, {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
  });
});

describe("public routes", () => {
  it("serves the OpenAPI document without a key", async () => {
    const response = await fetch(`${app.baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toMatchObject({ openapi: "3.1.0", info: { version: "1.0.0" } });
  });

  it("reports health", async () => {
    const response = await fetch(`${app.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("renders the API reference", async () => {
    const response = await fetch(`${app.baseUrl}/docs`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("API reference");
    expect(html).toContain("/v1/workspace");
  });

  it("answers unknown /v1 paths with the JSON error body", async () => {
    const response = await fetch(`${app.baseUrl}/v1/no-such-thing`, { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, error: { code: "not_found" } });
  });
});
