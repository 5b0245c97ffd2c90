import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccount } from "@/lib/auth/users";
import { createWorkspace } from "@/lib/auth/workspaces";
import { recordUsage } from "@/lib/billing/balances";
import { startApp, type RunningApp } from "@/test/app-server";

// The dashboard's way in: a next-auth session (signed in through its real credentials flow) instead of an API key,
// accepted by `auth: "workspace"` routes only with the dashboard header, and only for the user's own workspaces.

let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
});

/** Signs in like the sign-in form does and returns the cookies to send, or null when refused. */
async function signIn(email: string, password: string): Promise<string | null> {
  const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
  const response = await fetch(`${app.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith("next-auth.session-token="));
  return session ? `${csrfCookie}; ${session.split(";")[0]}` : null;
}

function asDashboard(cookies: string, workspaceId?: string): Record<string, string> {
  return {
    cookie: cookies,
    "x-signalbox-dashboard": "1",
    ...(workspaceId ? { "x-signalbox-workspace": workspaceId } : {}),
  };
}

async function getJson(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const response = await fetch(`${app.baseUrl}${path}`, {
    ...init,
    headers: { ...headers, ...(init.body ? { "content-type": "application/json" } : {}) },
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as Record<string, unknown> & { data?: never },
  };
}

describe("dashboard sessions", () => {
  it("signs in with email and password and acts in the user's workspace", async () => {
    const account = await createAccount({
      email: "Ada@Example.com",
      password: "correct horse battery",
      name: "Ada",
      workspaceName: "Ada's inbox",
    });
    expect(await signIn("ada@example.com", "wrong password!!")).toBeNull();
    const cookies = await signIn("ada@example.com", "correct horse battery");
    expect(cookies).not.toBeNull();

    const answer = await getJson("/v1/workspace", asDashboard(cookies!));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      data: { workspace: { id: account.workspaceId, name: "Ada's inbox" }, apiKey: null },
    });
  });

  it("needs the dashboard header, so another site cannot ride on the cookie", async () => {
    await createAccount({ email: "csrf@example.com", password: "correct horse battery", workspaceName: "W" });
    const cookies = await signIn("csrf@example.com", "correct horse battery");
    expect((await getJson("/v1/workspace", { cookie: cookies! })).status).toBe(401);
    expect(
      (
        await getJson(
          "/v1/api-keys",
          { cookie: cookies! },
          { method: "POST", body: JSON.stringify({ name: "x", mode: "live" }) },
        )
      ).status,
    ).toBe(401);
  });

  it("switches between the user's workspaces and treats others as unknown", async () => {
    const account = await createAccount({
      email: "multi@example.com",
      password: "correct horse battery",
      workspaceName: "First",
    });
    const stranger = await createWorkspace({ name: "Stranger" });
    const cookies = await signIn("multi@example.com", "correct horse battery");

    const listed = await getJson("/v1/workspaces", asDashboard(cookies!));
    expect(listed.body).toMatchObject({
      data: { workspaces: [{ id: account.workspaceId, name: "First", role: "owner" }] },
    });
    expect((await getJson("/v1/workspace", asDashboard(cookies!, stranger.id))).status).toBe(404);
    expect((await getJson("/v1/webhook-endpoints", asDashboard(cookies!, stranger.id))).status).toBe(404);
  });

  it("does not open priced endpoints to a session", async () => {
    await createAccount({ email: "priced@example.com", password: "correct horse battery", workspaceName: "P" });
    const cookies = await signIn("priced@example.com", "correct horse battery");
    const answer = await getJson("/v1/data/svc/companies/intelligence", asDashboard(cookies!), {
      method: "POST",
      body: JSON.stringify({ domain: "example.com", signal: "funding" }),
    });
    expect(answer.status).toBe(401);
  });
});

describe("API keys over /v1/api-keys", () => {
  it("creates a key shown once, lists it without secrets, and revokes it at once", async () => {
    const account = await createAccount({
      email: "keys@example.com",
      password: "correct horse battery",
      workspaceName: "Keys",
    });
    const cookies = await signIn("keys@example.com", "correct horse battery");
    const headers = asDashboard(cookies!);

    const created = await getJson("/v1/api-keys", headers, {
      method: "POST",
      body: JSON.stringify({ name: "CI", mode: "test" }),
    });
    expect(created.status).toBe(201);
    const { key, apiKey } = (
      created.body as unknown as { data: { key: string; apiKey: { id: string; start: string; mode: string } } }
    ).data;
    expect(key).toMatch(/^sbx_test_/);
    expect(apiKey).toMatchObject({ mode: "test", start: key.slice(0, 13) });

    const withKey = await getJson("/v1/workspace", { authorization: `Bearer ${key}` });
    expect(withKey.body).toMatchObject({
      data: { workspace: { id: account.workspaceId }, apiKey: { id: apiKey.id, mode: "test" } },
    });

    const listed = await getJson("/v1/api-keys", headers);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    expect(listed.body).toMatchObject({ data: { apiKeys: [{ id: apiKey.id, name: "CI", revokedAt: null }] } });

    const revoked = await getJson(`/v1/api-keys/${apiKey.id}`, headers, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ data: { id: apiKey.id, revokedAt: expect.any(String) } });
    expect((await getJson("/v1/workspace", { authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it("cannot see or revoke another workspace's key", async () => {
    const mine = await createWorkspace({ name: "Mine" });
    const theirs = await createWorkspace({ name: "Theirs" });
    const { key } = await createApiKey({ workspaceId: mine.id, name: "mine", mode: "live" });
    const target = await createApiKey({ workspaceId: theirs.id, name: "theirs", mode: "live" });
    const auth = { authorization: `Bearer ${key}` };

    expect((await getJson(`/v1/api-keys/${target.apiKey.id}`, auth, { method: "DELETE" })).status).toBe(404);
    const listed = await getJson("/v1/api-keys", auth);
    expect(JSON.stringify(listed.body)).not.toContain(target.apiKey.id);
    expect((await getJson("/v1/workspace", { authorization: `Bearer ${target.key}` })).status).toBe(200);
  });
});

describe("GET /v1/usage", () => {
  it("sums spend per day and per operation from the ledger", async () => {
    const workspace = await createWorkspace({ name: "Spender" });
    const { key, apiKey } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
    const base = {
      workspaceId: workspace.id,
      apiKeyId: apiKey.id,
      inputHash: "h",
      latencyMs: 3,
      providersAttempted: 1,
      records: null,
    } as const;
    await recordUsage({
      ...base,
      keyMode: "test",
      operation: "companies_intelligence",
      costCents: 10,
      debit: false,
      cached: false,
    });
    await recordUsage({
      ...base,
      keyMode: "live",
      operation: "companies_domain_emails",
      costCents: 0,
      debit: true,
      cached: true,
    });

    const answer = await getJson("/v1/usage?days=7", { authorization: `Bearer ${key}` });
    expect(answer.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(answer.body).toMatchObject({
      data: {
        balances: { subscriptionAllowanceCents: 0, subscriptionRemainingCents: 0, purchasedBalanceCents: 0 },
        spendPerDay: [{ day: today, costCents: 0, calls: 2 }],
        operations: [
          { operation: "companies_domain_emails", calls: 1, costCents: 0, cachedCalls: 1, testCalls: 0 },
          { operation: "companies_intelligence", calls: 1, costCents: 0, cachedCalls: 0, testCalls: 1 },
        ],
      },
    });
    expect((await getJson("/v1/usage?days=0", { authorization: `Bearer ${key}` })).status).toBe(400);
  });
});
