import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace } from "@/lib/billing/balances";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { FAKE_HUNTER_COMPANIES, type FakeHunter, startFakeHunter } from "@/test/fakes/hunter-server";
import { FAKE_VIDEOS, type FakeYouTube, startFakeYouTube } from "@/test/fakes/youtube-server";
import { readResponse } from "@/test/http-api";

/*
 * Operator-configured base URLs (YOUTUBE_BASE_URL, the vendors' *_API_URL) go through the same outbound client as
 * everything else: pointed at a loopback address they are refused, unless OUTBOUND_ALLOW_LOOPBACK is set (tests
 * only). Two instances of the app with the same configuration but that one setting; the fakes count what reaches
 * them. Every other call site and target is covered without the app in ssrf.test.ts.
 */

let youtube: FakeYouTube;
let hunter: FakeHunter;
let strict: RunningApp;
let loopbackAllowed: RunningApp;
let key: string;

beforeAll(async () => {
  [youtube, hunter] = await Promise.all([startFakeYouTube(), startFakeHunter()]);
  const env = {
    YOUTUBE_BASE_URL: youtube.baseUrl,
    HUNTER_API_KEY: hunter.apiKey,
    HUNTER_API_URL: hunter.baseUrl,
    // Only the email finder answers domain emails; nothing else may reach out.
    ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
    SEC_EDGAR_ENABLED: "false",
    DNS_SERVERS: `127.0.0.1:${await closedPort()}`,
  };
  [strict, loopbackAllowed] = await Promise.all([startApp(env), startApp({ ...env, OUTBOUND_ALLOW_LOOPBACK: "true" })]);
  const workspace = await createWorkspace({ name: "Outbound" });
  await creditWorkspace({ workspaceId: workspace.id, cents: 10_000, note: "test" });
  key = (await createApiKey({ workspaceId: workspace.id, name: "live", mode: "live" })).key;
}, 120_000);

afterAll(async () => {
  await Promise.all([strict?.stop(), loopbackAllowed?.stop()]);
  await Promise.all([youtube?.close(), hunter?.close()]);
});

function videoDetails(app: RunningApp) {
  return fetch(`${app.baseUrl}/v1/data/media/video/details?video_id=${FAKE_VIDEOS.normal}`, {
    headers: { authorization: `Bearer ${key}` },
  }).then(readResponse);
}

function domainEmails(app: RunningApp) {
  return fetch(`${app.baseUrl}/v1/data/svc/companies/domain-emails`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ domain: FAKE_HUNTER_COMPANIES[0]!.domain }),
  }).then(readResponse);
}

describe("a configured base URL at a loopback address", () => {
  it("YOUTUBE_BASE_URL: refused (502, YouTube's fake sees nothing) unless OUTBOUND_ALLOW_LOOPBACK", async () => {
    const before = youtube.requests.length;
    const refused = await videoDetails(strict);
    expect(refused.status).toBe(502);
    expect(refused.json).toEqual({ detail: expect.any(String) });
    expect(youtube.requests.length).toBe(before);

    const allowed = await videoDetails(loopbackAllowed);
    expect(allowed.status).toBe(200);
    expect(allowed.json).toMatchObject({ video_id: FAKE_VIDEOS.normal });
    expect(youtube.requests.length).toBe(before + 1);
  });

  it("HUNTER_API_URL: the adapter is refused (the vendor's fake sees nothing) unless OUTBOUND_ALLOW_LOOPBACK", async () => {
    const before = hunter.requests.length;
    const refused = await domainEmails(strict);
    expect(JSON.stringify(refused.json)).not.toContain("@acme-robotics.example");
    expect(hunter.requests.length).toBe(before);

    const allowed = await domainEmails(loopbackAllowed);
    expect(allowed.status).toBe(200);
    expect(JSON.stringify(allowed.json)).toContain("@acme-robotics.example");
    expect(hunter.requests.length).toBeGreaterThan(before);
  });
});
