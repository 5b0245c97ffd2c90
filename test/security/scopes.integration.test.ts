import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { contracts } from "@/lib/contracts/index";
import { API_KEY_SCOPES, type ApiKeyScope } from "@/lib/contracts/scopes";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { errorOf, readResponse } from "@/test/http-api";

/*
 * API key scopes, on every operation that names one: a key without the scope gets 403 before anything else is read, a
 * key with only that scope gets past the check. Test keys never manage keys, so a leaked test key can neither mint a
 * live key nor revoke the owner's. Workspaces cap their keys and endpoints, and share one rate limit across keys.
 */

const KEY_CAP = 8;
const ENDPOINT_CAP = 3;
const WORKSPACE_PER_MINUTE = 600; // 100 per 10-second window, shared by all of a workspace's keys

let app: RunningApp;
let workspaceId: string;
const keyWith = new Map<ApiKeyScope, string>();
let liveKey: { id: string; key: string };
let testKey: string;

beforeAll(async () => {
  app = await startApp({
    PUBLIC_BASE_URL: "",
    MAX_API_KEYS_PER_WORKSPACE: String(KEY_CAP),
    MAX_WEBHOOK_ENDPOINTS_PER_WORKSPACE: String(ENDPOINT_CAP),
    YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
  });
  workspaceId = (await createWorkspace({ name: "Scoped" })).id;
  for (const scope of API_KEY_SCOPES)
    keyWith.set(scope, (await createApiKey({ workspaceId, name: scope, mode: "live", scopes: [scope] })).key);
  const live = await createApiKey({ workspaceId, name: "owner's live key", mode: "live" });
  liveKey = { id: live.apiKey.id, key: live.key };
  testKey = (await createApiKey({ workspaceId, name: "test key", mode: "test" })).key;
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function send(method: string, path: string, key: string, body?: unknown, on: RunningApp = app) {
  const abort = new AbortController();
  const response = await fetch(`${on.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: abort.signal,
  });
  // An event stream that let the key in stays open: its status is the answer.
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    abort.abort();
    return { status: response.status, json: undefined, text: "(event stream)", headers: response.headers };
  }
  return readResponse(response);
}

/** A request path for an operation: path parameters filled with ids nobody has. */
function pathOf(path: string): string {
  return path.replace(/\{video_id\}/, "dQw4w9WgXcQ").replace(/\{[^}]+\}/g, "unknown_0000000000000000000000");
}

const scoped = contracts.filter((contract) => contract.scope !== undefined && contract.servedBy !== "launcher");

describe("API key scopes", () => {
  it("names a scope on every operation an API key can reach with a workspace's data", () => {
    const unscoped = contracts
      .filter((contract) => contract.auth !== "none" && !contract.access && !contract.scope)
      .map((contract) => contract.operationId);
    // Who-am-I and usage are readable by any key of the workspace.
    expect(unscoped.sort()).toEqual(["getUsage", "getWorkspace", "listWorkspaces"]);
  });

  it.each(scoped.map((contract) => [contract.operationId, contract] as const))(
    "%s: 403 for a key without its scope, past the check with only that scope",
    async (_name, contract) => {
      const path =
        pathOf(contract.path) + (contract.operationId === "media_video_details" ? "?video_id=dQw4w9WgXcQ" : "");
      for (const [scope, key] of keyWith) {
        const answer = await send(
          contract.method,
          path,
          key,
          contract.method === "GET" || contract.method === "DELETE" ? undefined : {},
        );
        if (scope === contract.scope) expect(answer.status, `${scope}: ${answer.text}`).not.toBe(403);
        else {
          expect(answer.status, `${scope}: ${answer.text}`).toBe(403);
          expect(answer.text).toContain(contract.scope);
        }
      }
    },
  );

  it("keeps test keys out of key management: no live key minted, none revoked, no keys:admin", async () => {
    expect((await send("POST", "/v1/api-keys", testKey, { name: "escalate", mode: "live" })).status).toBe(403);
    expect((await send("POST", "/v1/api-keys", testKey, { name: "more", mode: "test" })).status).toBe(403);
    expect((await send("DELETE", `/v1/api-keys/${liveKey.id}`, testKey)).status).toBe(403);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: liveKey.id } })).revokedAt).toBeNull();

    const refused = await send("POST", "/v1/api-keys", liveKey.key, {
      name: "test admin",
      mode: "test",
      scopes: ["keys:admin"],
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.json).details?.[0]?.path).toBe("scopes");

    const made = await send("POST", "/v1/api-keys", liveKey.key, {
      name: "reader",
      mode: "live",
      scopes: ["inbox:read"],
    });
    expect(made.status, made.text).toBe(201);
    expect((made.json as { data: { apiKey: { scopes: string[] } } }).data.apiKey.scopes).toEqual(["inbox:read"]);
  });

  it(`caps a workspace at ${KEY_CAP} active keys and ${ENDPOINT_CAP} endpoints`, async () => {
    const active = await db().apiKey.count({ where: { workspaceId, revokedAt: null } });
    const statuses: number[] = [];
    for (let index = active; index <= KEY_CAP; index += 1)
      statuses.push((await send("POST", "/v1/api-keys", liveKey.key, { name: `key ${index}`, mode: "test" })).status);
    expect(statuses.at(-1)).toBe(400);
    expect(await db().apiKey.count({ where: { workspaceId, revokedAt: null } })).toBe(KEY_CAP);

    const endpoints: number[] = [];
    for (let index = 0; index <= ENDPOINT_CAP; index += 1)
      endpoints.push((await send("POST", "/v1/webhook-endpoints", liveKey.key, { name: `endpoint ${index}` })).status);
    expect(endpoints).toEqual([...Array<number>(ENDPOINT_CAP).fill(201), 400]);
  });

  it("shares one rate limit among all of a workspace's keys", async () => {
    const limited = await startApp({
      PUBLIC_BASE_URL: "",
      RATE_LIMIT_WORKSPACE_PER_MINUTE: String(WORKSPACE_PER_MINUTE),
      RATE_LIMIT_WINDOW_SECONDS: "10",
    });
    try {
      const perWindow = WORKSPACE_PER_MINUTE / 6;
      const keys = [...keyWith.values()];
      const statuses: number[] = [];
      // More requests than two windows allow, spread over several keys that each stay far below the per-key limit.
      for (let index = 0; index < perWindow * 2 + 10; index += 1)
        statuses.push((await send("GET", "/v1/workspace", keys[index % keys.length]!, undefined, limited)).status);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(perWindow * 2);
    } finally {
      await limited.stop();
    }
  }, 120_000);
});
