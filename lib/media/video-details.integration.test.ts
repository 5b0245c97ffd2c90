import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace } from "@/lib/billing/balances";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { closedPort } from "@/test/enrichment-harness";
import { FAKE_VIDEOS, startFakeYouTube } from "@/test/fakes/youtube-server";

// GET /v1/data/media/video/details over HTTP against the real app, with YouTube played by a local server that
// speaks the InnerTube player protocol from handmade fixtures (test/fakes/youtube).

let app: RunningApp;
let youtube: Awaited<ReturnType<typeof startFakeYouTube>>;

beforeAll(async () => {
  youtube = await startFakeYouTube();
  // The fake listens on loopback, which the outbound client refuses unless told otherwise (test/security/ssrf* shows it).
  app = await startApp({ YOUTUBE_BASE_URL: youtube.baseUrl, OUTBOUND_ALLOW_LOOPBACK: "true" });
});

afterAll(async () => {
  await app?.stop();
  await youtube?.close();
});

beforeEach(async () => {
  youtube.setMode("normal");
  await db().enrichmentCacheEntry.deleteMany({ where: { operation: "media_video_details" } });
});

async function liveKey(purchasedCents = 100) {
  const workspace = await createWorkspace({ name: "Viewer" });
  if (purchasedCents) await creditWorkspace({ workspaceId: workspace.id, cents: purchasedCents, note: "test" });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: "k", mode: "live" });
  return { key, workspaceId: workspace.id };
}

async function details(key: string | null, videoId: string | null) {
  const query = videoId === null ? "" : `?video_id=${encodeURIComponent(videoId)}`;
  const response = await fetch(`${app.baseUrl}/v1/data/media/video/details${query}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const normalId = () => Object.values(FAKE_VIDEOS)[0]!;

describe("video details", () => {
  it("answers the flat object of spec §2.5 with every field typed, and the money in headers", async () => {
    const { key } = await liveKey();
    const answer = await details(key, `https://www.youtube.com/watch?v=${normalId()}&t=42s`);
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        "video_id",
        "title",
        "author",
        "number_of_views",
        "video_length",
        "description",
        "is_live_content",
        "published_time",
        "channel_id",
        "category",
        "type",
        "keywords",
        "thumbnails",
      ].sort(),
    );
    expect(body).toMatchObject({
      video_id: normalId(),
      number_of_views: expect.any(Number),
      video_length: expect.stringMatching(/^\d+$/),
      is_live_content: expect.stringMatching(/^(True|False)$/),
      published_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      keywords: expect.any(Array),
    });
    expect(Number.isInteger(body.number_of_views)).toBe(true);
    expect((body.thumbnails as unknown[]).length).toBeGreaterThan(0);
    expect(answer.headers.get("x-cost-cents")).toBe("1");
    expect(answer.headers.get("x-cached")).toBe("false");
    expect(answer.headers.get("x-purchased-balance-cents")).toBe("99");
  });

  it("serves a repeated call from the cache at no cost and without asking YouTube", async () => {
    const { key } = await liveKey();
    await details(key, normalId());
    const before = youtube.requests.length;
    const again = await details(key, `youtu.be/${normalId()}`);
    expect(again.status).toBe(200);
    expect(again.headers.get("x-cached")).toBe("true");
    expect(again.headers.get("x-cost-cents")).toBe("0");
    expect(youtube.requests.length).toBe(before);
  });

  it("never reads or fills the cache for a test key, and charges it nothing (one rule with the enrichment calls)", async () => {
    const workspace = await createWorkspace({ name: "Sandbox viewer" });
    const { key: testKey } = await createApiKey({ workspaceId: workspace.id, name: "t", mode: "test" });

    // A test key first: YouTube is asked, nothing is cached, nothing is debited.
    const first = await details(testKey, normalId());
    expect(first.status).toBe(200);
    expect(first.headers.get("x-cached")).toBe("false");
    expect(first.headers.get("x-cost-cents")).toBe("1");
    expect(first.headers.get("x-purchased-balance-cents")).toBe("0");
    expect(await db().enrichmentCacheEntry.count({ where: { operation: "media_video_details" } })).toBe(0);

    // A live key's paid answer is cached; the test key still does not get it from the cache.
    const { key } = await liveKey();
    await details(key, normalId());
    const before = youtube.requests.length;
    const again = await details(testKey, normalId());
    expect(again.status).toBe(200);
    expect(again.headers.get("x-cached")).toBe("false");
    expect(youtube.requests.length).toBeGreaterThan(before);
    const entries = await db().ledgerEntry.findMany({ where: { workspaceId: workspace.id, kind: "usage" } });
    expect(entries).toHaveLength(2);
    expect(entries.every((entry) => entry.purchasedDeltaCents === 0 && entry.subscriptionDeltaCents === 0)).toBe(true);
  });

  it.each([
    ["missing", null, "missing"],
    ["empty", "", "value_error"],
    ["not a video", "https://vimeo.com/12345", "value_error"],
    ["too short an id", "abc", "value_error"],
  ])("answers 422 in FastAPI's shape when video_id is %s", async (_case, videoId, type) => {
    const { key } = await liveKey();
    const answer = await details(key, videoId);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ detail: [{ loc: ["query", "video_id"], msg: expect.any(String), type }] });
  });

  it("answers 401 with a detail for a missing or bad key", async () => {
    expect(await details(null, normalId())).toMatchObject({ status: 401, body: { detail: expect.any(String) } });
    expect(await details(`sbx_live_${"A".repeat(40)}`, normalId())).toMatchObject({
      status: 401,
      body: { detail: expect.any(String) },
    });
  });

  it("answers 402 before asking YouTube when the balance cannot cover the price", async () => {
    const { key } = await liveKey(0);
    const before = youtube.requests.length;
    expect(await details(key, normalId())).toMatchObject({ status: 402, body: { detail: expect.any(String) } });
    expect(youtube.requests.length).toBe(before);
  });

  it("answers a members-only video's details when YouTube sends them complete, else 403 saying why", async () => {
    const { key } = await liveKey();
    const complete = await details(key, FAKE_VIDEOS.membersOnly);
    expect(complete.status).toBe(200);
    expect(complete.body).toMatchObject({ video_id: FAKE_VIDEOS.membersOnly, type: "video" });

    const bare = await details(key, FAKE_VIDEOS.membersOnlyBare);
    expect(bare).toMatchObject({ status: 403, body: { detail: expect.stringMatching(/members only/) } });
  });

  it("maps an unavailable or unexpected video to a detail error, charges nothing and caches nothing", async () => {
    const { key, workspaceId } = await liveKey();
    // Throttled before anything is cached: YouTube's 429 is our 502, with nothing of YouTube's in the body.
    youtube.setMode("rate_limited");
    const throttled = await details(key, normalId());
    expect(throttled).toMatchObject({ status: 502, body: { detail: expect.any(String) } });
    expect(JSON.stringify(throttled.body)).not.toMatch(/youtubei|innertube|127\.0\.0\.1/i);
    youtube.setMode("normal");

    const statuses: number[] = [];
    for (const id of Object.values(FAKE_VIDEOS)) statuses.push((await details(key, id)).status);
    // Every fixture answers: 200 for the playable ones, 404/403/451/502 for the others, never 500.
    for (const status of statuses) expect([200, 403, 404, 451, 502]).toContain(status);
    expect(statuses).toContain(404);
    expect(statuses).toContain(502);

    const charged = await db().ledgerEntry.findMany({ where: { workspaceId, kind: "usage" } });
    expect(charged.length).toBe(statuses.filter((status) => status === 200).length);
    expect(await db().enrichmentCacheEntry.count({ where: { operation: "media_video_details" } })).toBe(
      statuses.filter((status) => status === 200).length,
    );
  });
});

describe("video details when YouTube cannot be reached", () => {
  let unreachable: RunningApp;

  beforeAll(async () => {
    // Nothing listens there: the connection is refused, as when a firewall or a missing network stops it.
    unreachable = await startApp({
      YOUTUBE_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      OUTBOUND_ALLOW_LOOPBACK: "true",
    });
  });

  afterAll(async () => {
    await unreachable?.stop();
  });

  it("answers 502 saying YouTube could not be reached, not that it answered unexpectedly", async () => {
    const { key } = await liveKey();
    const response = await fetch(`${unreachable.baseUrl}/v1/data/media/video/details?video_id=${normalId()}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ detail: "Could not reach YouTube. Retry shortly." });
  });
});
