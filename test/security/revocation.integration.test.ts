import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import {
  isSessionRevoked,
  pruneRevokedSessions,
  revokeSession,
  SESSION_MAX_AGE_SECONDS,
} from "@/lib/auth/session-revocation";
import { createAccount } from "@/lib/auth/users";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { readResponse } from "@/test/http-api";
import { dashboardHeaders, mergeCookies, SESSION_COOKIE, sessionCookieOf, signIn, signOut } from "./sessions";

/*
 * "Revoked keys and signed-out sessions are refused at once": two app instances on one database (as behind a load
 * balancer), a key revoked or a session signed out on one, the very next request on either refused. Sessions are
 * stateless JWT cookies, so a copy of the cookie taken before signing out is the attacker's view.
 */

let first: RunningApp;
let second: RunningApp;

beforeAll(async () => {
  // Both share this file's database and (through the environment) the secret that encrypts session cookies.
  [first, second] = await Promise.all([startApp({ PUBLIC_BASE_URL: "" }), startApp({ PUBLIC_BASE_URL: "" })]);
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

const PASSWORD = "correct horse battery staple";
let accounts = 0;

async function newUser() {
  accounts += 1;
  const email = `user-${accounts}-${Date.now()}@example.com`;
  const account = await createAccount({ email, password: PASSWORD, workspaceName: `Workspace ${accounts}` });
  return { ...account, email };
}

async function get(app: RunningApp, path: string, headers: Record<string, string>) {
  return readResponse(await fetch(`${app.baseUrl}${path}`, { headers, redirect: "manual" }));
}

async function call(app: RunningApp, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  return readResponse(
    await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function ingest(app: RunningApp, endpointId: string): Promise<string> {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveryId: string }).deliveryId;
}

/** An open event stream: `until(text)` reads until the text arrives; `ended(ms)` tells whether the server closed it. */
async function openEvents(app: RunningApp, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/events`, {
    headers,
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let done = false;
  // A read that lost a race against the clock stays pending and is awaited next time, so no chunk is dropped.
  let pending: Promise<ReadableStreamReadResult<string>> | null = null;
  const readFor = async (ms: number, stop: () => boolean) => {
    const deadline = Date.now() + ms;
    while (!done && !stop() && Date.now() < deadline) {
      pending ??= reader.read();
      const chunk = await Promise.race([
        pending,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))),
      ]);
      if (chunk === null) break;
      pending = null;
      if (chunk.done) done = true;
      else text += chunk.value;
    }
  };
  return {
    text: () => text,
    until: async (wanted: string, ms = 5_000) => {
      await readFor(ms, () => text.includes(wanted));
      return text.includes(wanted);
    },
    ended: async (ms: number) => {
      await readFor(ms, () => false);
      return done;
    },
    close: async () => {
      controller.abort();
      await reader.cancel().catch(() => {});
    },
  };
}

/** Waits until the stream delivers events: ingests until one of them is announced. */
async function waitUntilSubscribed(
  stream: Awaited<ReturnType<typeof openEvents>>,
  app: RunningApp,
  endpointId: string,
) {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    if (await stream.until(await ingest(app, endpointId), 2_000)) return;
  }
  throw new Error(`The event stream never announced a delivery:\n${stream.text()}`);
}

describe("revoked API keys", () => {
  it("are refused by the very next request, on the instance that revoked them and on the other", async () => {
    const user = await newUser();
    const cookies = (await signIn(first.baseUrl, user.email, PASSWORD))!;
    const session = dashboardHeaders(cookies);
    for (let round = 0; round < 3; round += 1) {
      const created = await call(first, "POST", "/v1/api-keys", session, {
        name: `round ${round}`,
        mode: round % 2 ? "test" : "live",
      });
      expect(created.status).toBe(201);
      const { key, apiKey } = (created.json as { data: { key: string; apiKey: { id: string } } }).data;
      // Both instances have just accepted the key (anything they might cache, they have).
      expect((await get(first, "/v1/workspace", bearer(key))).status).toBe(200);
      expect((await get(second, "/v1/workspace", bearer(key))).status).toBe(200);

      const [revoker, other] = round === 1 ? [second, first] : [first, second];
      expect((await call(revoker, "DELETE", `/v1/api-keys/${apiKey.id}`, session)).status).toBe(200);
      const next = await get(other, "/v1/workspace", bearer(key));
      expect(next.status).toBe(401);
      expect(next.json).toMatchObject({ success: false, error: { code: "unauthorized" } });
      expect((await get(revoker, "/v1/workspace", bearer(key))).status).toBe(401);
      expect((await get(other, "/v1/webhook-endpoints", bearer(key))).status).toBe(401);
    }
  });

  it("a key that revokes itself is refused by its next request on another instance", async () => {
    const user = await newUser();
    const { key, apiKey } = await createApiKey({ workspaceId: user.workspaceId, name: "self", mode: "live" });
    expect((await get(second, "/v1/api-keys", bearer(key))).status).toBe(200);
    expect((await call(first, "DELETE", `/v1/api-keys/${apiKey.id}`, bearer(key))).status).toBe(200);
    expect((await get(second, "/v1/api-keys", bearer(key))).status).toBe(401);
    expect((await call(second, "DELETE", `/v1/api-keys/${apiKey.id}`, bearer(key))).status).toBe(401);
  });

  it("end an event stream opened with the key before anything more is sent", async () => {
    const user = await newUser();
    const { key, apiKey } = await createApiKey({ workspaceId: user.workspaceId, name: "stream", mode: "live" });
    const endpoint = await call(first, "POST", "/v1/webhook-endpoints", bearer(key), { name: "hooks" });
    const endpointId = (endpoint.json as { data: { id: string } }).data.id;
    const stream = await openEvents(second, bearer(key));
    try {
      await waitUntilSubscribed(stream, first, endpointId);
      expect((await call(first, "DELETE", `/v1/api-keys/${apiKey.id}`, bearer(key))).status).toBe(200);
      const after = await ingest(first, endpointId);
      expect(await stream.ended(10_000), "the stream was closed").toBe(true);
      expect(stream.text()).not.toContain(after);
    } finally {
      await stream.close();
    }
  });
});

describe("signed-out dashboard sessions", () => {
  it("are refused at once on every instance, through a copied cookie and a refreshed one", async () => {
    const user = await newUser();
    const cookies = (await signIn(first.baseUrl, user.email, PASSWORD))!;
    // Another browser of the same user: signing out in one does not sign out the other.
    const otherBrowser = (await signIn(second.baseUrl, user.email, PASSWORD))!;
    // The attacker's copy, taken while signed in.
    const copied = sessionCookieOf(cookies)!;
    for (const app of [first, second]) {
      expect((await get(app, "/v1/workspace", dashboardHeaders(copied))).status).toBe(200);
      expect((await get(app, "/", { cookie: copied })).status).toBe(200);
    }
    // next-auth re-issues the cookie (a new JWT, a new `jti`) whenever the session is read through its endpoint.
    const refreshedResponse = await fetch(`${second.baseUrl}/api/auth/session`, { headers: { cookie: copied } });
    const refreshed = sessionCookieOf(
      mergeCookies(
        "",
        refreshedResponse.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!),
      ),
    )!;
    expect(refreshed).toMatch(new RegExp(`^${SESSION_COOKIE}=.+`));
    expect(refreshed).not.toBe(copied);

    const signedOut = await signOut(first.baseUrl, cookies);
    expect(signedOut.status).toBe(200);
    expect(sessionCookieOf(signedOut.cookies), "the browser's cookie is cleared").toBeNull();

    for (const app of [first, second]) {
      for (const cookie of [copied, refreshed]) {
        const api = await get(app, "/v1/workspace", dashboardHeaders(cookie));
        expect(api.status, api.text).toBe(401);
        expect(
          (await call(app, "POST", "/v1/api-keys", dashboardHeaders(cookie), { name: "after sign-out", mode: "live" }))
            .status,
        ).toBe(401);
        const page = await get(app, "/", { cookie });
        expect(page.status).toBe(307);
        expect(page.headers.get("location")).toMatch(/\/sign-in/);
        const sessionAnswer = await get(app, "/api/auth/session", { cookie });
        expect(sessionAnswer.json).toEqual({});
        // …and next-auth's endpoint tells the browser to drop the cookie.
        expect(sessionAnswer.headers.getSetCookie().some((set) => set.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
      }
    }
    expect(await db().apiKey.count({ where: { workspaceId: user.workspaceId } })).toBe(0);

    // One sign-out, one revocation, kept for as long as a cookie of the session could live.
    const rows = await db().revokedSession.findMany();
    expect(rows).toHaveLength(1);
    const lifetime = rows[0]!.expiresAt.getTime() - rows[0]!.revokedAt.getTime();
    expect(lifetime).toBeGreaterThanOrEqual(SESSION_MAX_AGE_SECONDS * 1000);
    expect(lifetime).toBeLessThanOrEqual(SESSION_MAX_AGE_SECONDS * 1000 + 5 * 60_000);

    // The other browser's session is still signed in, and signing in again works.
    expect((await get(second, "/v1/workspace", dashboardHeaders(otherBrowser))).status).toBe(200);
    const again = (await signIn(second.baseUrl, user.email, PASSWORD))!;
    expect((await get(first, "/v1/workspace", dashboardHeaders(again))).status).toBe(200);
  });

  it("end an event stream opened with the session", async () => {
    const user = await newUser();
    const { key } = await createApiKey({ workspaceId: user.workspaceId, name: "setup", mode: "live" });
    const endpoint = await call(first, "POST", "/v1/webhook-endpoints", bearer(key), { name: "hooks" });
    const endpointId = (endpoint.json as { data: { id: string } }).data.id;
    const cookies = (await signIn(first.baseUrl, user.email, PASSWORD))!;
    const stream = await openEvents(second, dashboardHeaders(cookies));
    try {
      await waitUntilSubscribed(stream, first, endpointId);
      await signOut(first.baseUrl, cookies);
      const after = await ingest(first, endpointId);
      expect(await stream.ended(10_000), "the stream was closed").toBe(true);
      expect(stream.text()).not.toContain(after);
    } finally {
      await stream.close();
    }
  });

  it("refuse a cookie without a session id (one that could never be signed out)", async () => {
    const user = await newUser();
    const secret = process.env.SIGNALBOX_SECRET!;
    const claims = { email: user.email, userId: user.userId };
    const withoutId = await encode({ token: claims, secret, maxAge: 3600 });
    const withId = await encode({ token: { ...claims, sid: "a-session-id-for-this-test" }, secret, maxAge: 3600 });
    expect((await get(first, "/v1/workspace", dashboardHeaders(`${SESSION_COOKIE}=${withId}`))).status).toBe(200);
    expect((await get(first, "/v1/workspace", dashboardHeaders(`${SESSION_COOKIE}=${withoutId}`))).status).toBe(401);
    expect((await get(first, "/", { cookie: `${SESSION_COOKIE}=${withoutId}` })).status).toBe(307);
  });
});

describe("the revocation list", () => {
  it("answers per session id and prunes revocations that have expired", async () => {
    const longAgo = new Date(Date.now() - (SESSION_MAX_AGE_SECONDS + 3600) * 1000);
    await revokeSession({ sessionId: "expired-one", now: longAgo });
    expect(await isSessionRevoked("expired-one")).toBe(true);
    await revokeSession({ sessionId: "fresh-one" });
    // Revoking prunes: the first one's cookies have all expired, so its row went.
    expect(await isSessionRevoked("expired-one")).toBe(false);
    expect(await isSessionRevoked("fresh-one")).toBe(true);
    expect(await isSessionRevoked("never-revoked")).toBe(false);
    // Revoking twice keeps one row.
    await revokeSession({ sessionId: "fresh-one" });
    expect(await db().revokedSession.count({ where: { sessionId: "fresh-one" } })).toBe(1);
    expect(
      await pruneRevokedSessions(new Date(Date.now() + (SESSION_MAX_AGE_SECONDS + 3600) * 1000)),
    ).toBeGreaterThanOrEqual(1);
    expect(await isSessionRevoked("fresh-one")).toBe(false);
  });
});
