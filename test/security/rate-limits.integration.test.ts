import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccount } from "@/lib/auth/users";
import { createWorkspace } from "@/lib/auth/workspaces";
import { db } from "@/lib/db/client";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";
import { limitPerWindow, worstCaseAdmissions } from "@/lib/ratelimit/window-limiter";
import { startApp, type RunningApp } from "@/test/app-server";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { closedPort } from "@/test/enrichment-harness";
import { errorOf, readResponse } from "@/test/http-api";
import { dashboardHeaders, signIn } from "./sessions";

/*
 * Rate limits over HTTP, on two instances of the app sharing this file's database: a small limit per API key (and per
 * dashboard user) on /v1 and per webhook endpoint on ingest, in 10-second windows. Windows are aligned to the clock,
 * so each test starts its burst early in a window (`freshWindow`) and every request of a burst falls in one window.
 */

const WINDOW_SECONDS = 10;
const PER_MINUTE = 60;
const LIMIT = limitPerWindow(PER_MINUTE, WINDOW_SECONDS * 1000); // 10 per window
const PASSWORD = "correct horse battery staple";

let env: Record<string, string>;
let first: RunningApp;
let second: RunningApp;
let workspaceId: string;

beforeAll(async () => {
  env = {
    RATE_LIMIT_API_PER_MINUTE: String(PER_MINUTE),
    RATE_LIMIT_INGEST_PER_MINUTE: String(PER_MINUTE),
    RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    // Video details of any key go to YouTube: a closed loopback port (refused by the outbound client) answers 502 at once.
    YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
    PUBLIC_BASE_URL: "",
  };
  [first, second] = await Promise.all([startApp(env), startApp(env)]);
  workspaceId = (await createWorkspace({ name: "Rate limited" })).id;
}, 120_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

/** Waits, if needed, so that at least `needMs` of the current window is left. */
async function freshWindow(needMs = 6_000): Promise<void> {
  const windowMs = WINDOW_SECONDS * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await sleep(left + 50);
}

async function newKey(name: string): Promise<string> {
  return (await createApiKey({ workspaceId, name, mode: "live" })).key;
}

function get(app: RunningApp, path: string, headers: Record<string, string>) {
  return fetch(`${app.baseUrl}${path}`, { headers }).then(readResponse);
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function ingest(app: RunningApp, endpointId: string, n: number) {
  return fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ n }),
  }).then(readResponse);
}

function expectRetryAfter(headers: Headers) {
  const retryAfter = headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
  return Number(retryAfter);
}

describe("per API key on /v1", () => {
  it("answers 429 rate_limited with Retry-After past the limit, leaves other keys alone, and recovers in the next window", async () => {
    const [key, other] = await Promise.all([newKey("busy"), newKey("quiet")]);
    await freshWindow();

    for (let index = 0; index < LIMIT; index++)
      expect((await get(first, "/v1/workspace", bearer(key))).status).toBe(200);
    const refused = await get(first, "/v1/workspace", bearer(key));

    expect(refused.status).toBe(429);
    expect(errorOf(refused.json)).toEqual({
      code: "rate_limited",
      message: expect.stringMatching(/Too many requests for this API key.*Retry after \d+ s\./),
    });
    const retryAfter = expectRetryAfter(refused.headers);
    // Another key of the same workspace has its own allowance.
    expect((await get(first, "/v1/workspace", bearer(other))).status).toBe(200);

    await sleep(retryAfter * 1000 + 100);
    expect((await get(first, "/v1/workspace", bearer(key))).status).toBe(200);
  });

  it("keeps the video endpoint's FastAPI error shape: 429 {detail} with Retry-After", async () => {
    const key = await newKey("viewer");
    await freshWindow();

    const statuses: number[] = [];
    for (let index = 0; index < LIMIT; index++)
      statuses.push((await get(first, "/v1/data/media/video/details?video_id=dQw4w9WgXcQ", bearer(key))).status);
    const refused = await get(first, "/v1/data/media/video/details?video_id=dQw4w9WgXcQ", bearer(key));

    // Under the limit: YouTube unreachable (502) or no balance (402), never 429.
    expect(statuses.every((status) => status === 502 || status === 402)).toBe(true);
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ detail: expect.stringMatching(/^Too many requests/) });
    expectRetryAfter(refused.headers);
  });

  it("counts a dashboard session per user", async () => {
    const email = `limited-${Date.now()}@signalbox.example`;
    await createAccount({ email, password: PASSWORD, workspaceName: "Session workspace" });
    const cookies = await signIn(first.baseUrl, email, PASSWORD);
    expect(cookies).not.toBeNull();
    await freshWindow();

    for (let index = 0; index < LIMIT; index++)
      expect((await get(first, "/v1/workspaces", dashboardHeaders(cookies!))).status).toBe(200);
    const refused = await get(first, "/v1/workspaces", dashboardHeaders(cookies!));

    expect(refused.status).toBe(429);
    expect(errorOf(refused.json)).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/for this user/),
    });
    expectRetryAfter(refused.headers);
  });

  it("shares one limit between two instances on one database", async () => {
    const key = await newKey("spread");
    await freshWindow();

    // Twice the limit, alternating between the instances, two at a time.
    const statuses: number[] = [];
    for (let index = 0; index < LIMIT; index++) {
      const pair = await Promise.all([
        get(first, "/v1/workspace", bearer(key)),
        get(second, "/v1/workspace", bearer(key)),
      ]);
      statuses.push(...pair.map((answer) => answer.status));
    }
    const admitted = statuses.filter((status) => status === 200).length;

    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    // Never refused before the limit; past it by at most the documented bound for two instances.
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(admitted).toBeLessThanOrEqual(worstCaseAdmissions(LIMIT, 2));
    // Once they have synced, both refuse.
    await sleep(600);
    expect((await get(first, "/v1/workspace", bearer(key))).status).toBe(429);
    expect((await get(second, "/v1/workspace", bearer(key))).status).toBe(429);
  });
});

// On both servers of ingest (test/ingest-paths.ts): the file's two instances serve the fast path, two more the route
// handler.
describe.each(INGEST_PATHS)("per webhook endpoint on ingest, on the $name", (ingestPath) => {
  let instance: RunningApp;
  let other: RunningApp;

  beforeAll(async () => {
    [instance, other] = ingestPath.routeHandler
      ? await Promise.all([startApp({ ...env, ...ingestPath.env }), startApp({ ...env, ...ingestPath.env })])
      : [first, second];
  }, 120_000);

  afterAll(async () => {
    if (ingestPath.routeHandler) await Promise.all([instance?.stop(), other?.stop()]);
  });

  it("answers 429 with Retry-After past the limit and stores nothing refused; another endpoint is unaffected", async () => {
    const [busy, quiet] = await Promise.all([
      createWebhookEndpoint({ workspaceId, name: "busy", baseUrl: instance.baseUrl }),
      createWebhookEndpoint({ workspaceId, name: "quiet", baseUrl: instance.baseUrl }),
    ]);
    await freshWindow();

    for (let index = 0; index < LIMIT; index++) expect((await ingest(instance, busy.id, index)).status).toBe(200);
    const refused = await ingest(instance, busy.id, LIMIT);

    expect(refused.status).toBe(429);
    expect(errorOf(refused.json)).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/for this webhook endpoint/),
    });
    expectRetryAfter(refused.headers);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: busy.id } })).toBe(LIMIT);
    expect((await ingest(instance, quiet.id, 0)).status).toBe(200);
    // Unknown endpoints are not counted (nor limited): still 404.
    expect((await ingest(instance, "we_0000000000000000000000000000nope", 0)).status).toBe(404);
  });

  it("shares one endpoint's limit between two instances", async () => {
    const endpoint = await createWebhookEndpoint({ workspaceId, name: "spread", baseUrl: instance.baseUrl });
    await freshWindow();

    const statuses: number[] = [];
    for (let index = 0; index < LIMIT; index++) {
      const pair = await Promise.all([ingest(instance, endpoint.id, index), ingest(other, endpoint.id, index)]);
      statuses.push(...pair.map((answer) => answer.status));
    }
    const admitted = statuses.filter((status) => status === 200).length;

    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(admitted).toBeLessThanOrEqual(worstCaseAdmissions(LIMIT, 2));
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpoint.id } })).toBe(admitted);
  });
});
