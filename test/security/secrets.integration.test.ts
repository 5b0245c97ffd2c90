import type * as Crypto from "node:crypto";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey, revokeApiKey, verifyApiKey } from "@/lib/auth/api-keys";
import { createAccount } from "@/lib/auth/users";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { readResponse } from "@/test/http-api";
import { dashboardHeaders, sessionCookieOf, signIn, signOut } from "./sessions";

/*
 * API keys at rest and in logs: the database holds only a SHA-256 hash and a short display prefix of each key, no
 * table anywhere holds a key, the app never prints one (valid, unknown, revoked, in error paths), and the key lookup
 * ends in a constant-time comparison.
 */

// Watches crypto.timingSafeEqual (the real one answers) to see verifyApiKey use it.
const spy = vi.hoisted(() => ({ calls: [] as [number, number][] }));
vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  const timingSafeEqual: typeof actual.timingSafeEqual = (a, b) => {
    spy.calls.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ PUBLIC_BASE_URL: "", YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

const PASSWORD = "correct horse battery staple";

async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  contentType = "application/json",
) {
  return readResponse(
    await fetch(`${app.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": contentType }) },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const secretPart = (key: string) => key.replace(/^sbx_(live|test)_/, "");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Every key this file makes, with where it came from. */
const keys: { key: string; id: string; how: string }[] = [];
let workspaceId: string;
let cookies: string;

describe("API keys", () => {
  beforeAll(async () => {
    const email = `keys-${randomBytes(3).toString("hex")}@example.com`;
    const account = await createAccount({ email, password: PASSWORD, workspaceName: "Keys" });
    workspaceId = account.workspaceId;
    for (const mode of ["live", "test"] as const) {
      const created = await createApiKey({ workspaceId, name: `${mode} key`, mode });
      keys.push({ key: created.key, id: created.apiKey.id, how: `created in-process (${mode})` });
    }
    const revoked = await createApiKey({ workspaceId, name: "revoked", mode: "live" });
    await revokeApiKey({ workspaceId, apiKeyId: revoked.apiKey.id });
    keys.push({ key: revoked.key, id: revoked.apiKey.id, how: "revoked" });
    cookies = (await signIn(app.baseUrl, email, PASSWORD))!;
    expect(cookies).not.toBeNull();
    const viaApi = await call("POST", "/v1/api-keys", dashboardHeaders(cookies), {
      name: "from the dashboard",
      mode: "live",
    });
    expect(viaApi.status).toBe(201);
    const { key, apiKey } = (viaApi.json as { data: { key: string; apiKey: { id: string } } }).data;
    keys.push({ key, id: apiKey.id, how: "created over the API" });
  });

  it("are stored as a SHA-256 hash and a short display prefix, and nowhere else in any table", async () => {
    const rows = await db().$queryRawUnsafe<Record<string, unknown>[]>(
      `SELECT * FROM api_keys WHERE workspace_id = $1`,
      workspaceId,
    );
    expect(rows).toHaveLength(keys.length);
    for (const { key, id, how } of keys) {
      const row = rows.find((candidate) => candidate.id === id)!;
      expect(row, how).toBeDefined();
      expect(row.hashed_key, how).toBe(sha256(key));
      // The prefix: the mode and 4 of the 40 secret characters, enough to tell keys apart, useless to guess one.
      expect(row.start, how).toBe(key.slice(0, key.indexOf("_", 4) + 5));
      expect((row.start as string).length).toBeLessThanOrEqual(13);
      for (const [column, value] of Object.entries(row)) {
        const text = value instanceof Date ? value.toISOString() : String(value);
        expect(text, `${how}: column ${column}`).not.toContain(secretPart(key));
      }
    }

    // No table, whatever it is for, holds a key or the secret part of one (ledger, settings, deliveries, sessions…).
    const tables = await db().$queryRawUnsafe<{ table_name: string }[]>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    for (const { table_name: table } of tables) {
      const dump = await db().$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${table}" t`);
      const text = dump.map((entry) => entry.row).join("\n");
      for (const { key, how } of keys) expect(text, `${how} in table ${table}`).not.toContain(secretPart(key));
    }
  });

  it("are never answered back after creation: lists show the prefix, never the key or its hash", async () => {
    for (const headers of [dashboardHeaders(cookies), bearer(keys[0]!.key)]) {
      const listed = await call("GET", "/v1/api-keys", headers);
      expect(listed.status).toBe(200);
      for (const { key } of keys) {
        expect(listed.text).not.toContain(secretPart(key));
        expect(listed.text).not.toContain(sha256(key));
      }
    }
  });

  it("are verified by a lookup by hash that ends in a constant-time comparison", async () => {
    const [live] = keys;
    spy.calls.length = 0;
    expect(await verifyApiKey(live!.key)).toMatchObject({ apiKeyId: live!.id, workspace: { id: workspaceId } });
    expect(spy.calls).toEqual([[64, 64]]);
    // Unknown, revoked and malformed keys are refused (the first two by the hash lookup finding nothing usable).
    expect(await verifyApiKey(`sbx_live_${"A".repeat(40)}`)).toBeNull();
    expect(await verifyApiKey(keys[2]!.key)).toBeNull();
    expect(await verifyApiKey("sbx_live_short")).toBeNull();
  });

  it("never reach the app's output: valid, unknown, revoked, in errors, ingest and sign-in", async () => {
    const [live, test, revoked, fromApi] = keys as [
      (typeof keys)[number],
      (typeof keys)[number],
      (typeof keys)[number],
      (typeof keys)[number],
    ];
    const unknown = `sbx_live_${randomBytes(30).toString("base64url").replace(/[-_]/g, "x").slice(0, 40)}`;
    const requests: [string, string, Record<string, string>, unknown?, string?][] = [
      ["GET", "/v1/workspace", bearer(live.key)],
      ["GET", "/v1/workspace", bearer(fromApi.key)],
      ["GET", "/v1/workspace", bearer(unknown)],
      ["GET", "/v1/workspace", bearer(revoked.key)],
      ["GET", "/v1/workspace", { authorization: `Basic ${Buffer.from(`user:${live.key}`).toString("base64")}` }],
      ["GET", "/v1/workspace", { authorization: `Bearer ${live.key} trailing` }],
      ["GET", `/v1/workspace?api_key=${live.key}`, {}],
      ["GET", "/v1/usage?days=0", bearer(live.key)],
      ["GET", "/v1/no-such-route", bearer(live.key)],
      ["POST", "/v1/api-keys", bearer(live.key), { name: live.key, mode: "bogus" }],
      ["POST", "/v1/api-keys", bearer(live.key), "{not json", "application/json"],
      [
        "POST",
        "/v1/webhook-endpoints",
        bearer(live.key),
        { name: "x", signing: { scheme: "stripe", secret: live.key } },
      ],
      ["POST", "/v1/data/svc/companies/domain-emails", bearer(live.key), { domain: "example.com" }],
      ["POST", "/v1/data/svc/companies/domain-emails", bearer(test.key), { domain: "example.com" }],
      ["POST", "/v1/data/svc/companies/domain-emails", bearer(test.key), { domain: "not a domain", extra: live.key }],
      [
        "POST",
        "/v1/data/svc/companies/intelligence",
        bearer(revoked.key),
        { domain: "example.com", signal: "funding" },
      ],
      ["GET", "/v1/data/media/video/details?video_id=dQw4w9WgXcQ", bearer(test.key)],
      ["GET", "/v1/data/media/video/details?video_id=dQw4w9WgXcQ", bearer(unknown)],
      ["GET", "/v1/webhook-endpoints/deliveries/events", bearer(revoked.key)],
    ];
    const statuses: number[] = [];
    for (const [method, path, headers, body, contentType] of requests)
      statuses.push((await call(method, path, headers, body, contentType)).status);
    // The error paths were taken: 401s, 400s, 402, 404, 502 among them.
    expect([...new Set(statuses)]).toEqual(expect.arrayContaining([200, 400, 401, 402, 404, 502]));

    // Ingest, with a sender that (wrongly) sends a key along, and the endpoint of a key that is then revoked.
    const endpoint = await call("POST", "/v1/webhook-endpoints", bearer(live.key), { name: "hooks" });
    const hookId = (endpoint.json as { data: { id: string } }).data.id;
    for (const contentType of ["application/json", "text/plain"]) {
      const response = await fetch(`${app.baseUrl}/webhooks/ingest/${hookId}`, {
        method: "POST",
        headers: { "content-type": contentType },
        body: `{"k":"${test.key}"`,
      });
      expect(response.status).toBe(200);
    }
    expect(
      (
        await fetch(`${app.baseUrl}/webhooks/ingest/we_unknown`, {
          method: "POST",
          headers: bearer(live.key),
          body: "{}",
        })
      ).status,
    ).toBe(404);

    // Dashboard sign-in, a failed one, and sign-out.
    const email = `logs-${randomBytes(3).toString("hex")}@example.com`;
    await createAccount({ email, password: PASSWORD, workspaceName: "Logs" });
    expect(await signIn(app.baseUrl, email, "not the password at all")).toBeNull();
    const session = (await signIn(app.baseUrl, email, PASSWORD))!;
    await signOut(app.baseUrl, session);
    expect((await call("GET", "/v1/workspace", dashboardHeaders(session))).status).toBe(401);

    // Give the app a moment to flush what it prints.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const output = app.output();
    expect(output).toContain("Ready on");
    for (const { key, how } of [...keys, { key: unknown, how: "unknown key" }]) {
      expect(output, how).not.toContain(secretPart(key));
      expect(output, how).not.toContain(sha256(key));
    }
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain(sessionCookieOf(session)!.split("=")[1]);
    expect(output).not.toContain(process.env.SIGNALBOX_SECRET!);
  });
});
