import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { OutboundError, type OutboundClient, type OutboundRequest } from "@/lib/outbound/types";
import { FAKE_VIDEOS, loadFakeYouTubeFixture, startFakeYouTube, type FakeYouTube } from "@/test/fakes/youtube-server";
import {
  fetchVideoDetails,
  type FetchVideoDetailsOptions,
  VideoError,
  type VideoDetails,
  type VideoFailure,
} from "./youtube";

// Real HTTP on loopback against the local fake, through the SSRF-safe outbound client with loopback allowed (as
// OUTBOUND_ALLOW_LOOPBACK does for the app's tests); nothing here can reach YouTube.
let fake: FakeYouTube;
const http = createOutboundClient({ allowLoopback: true });

/** A client that answers every request itself, with no network, and counts the calls. */
function scripted(
  answer: (init: OutboundRequest | undefined) => { status: number; body: string },
): OutboundClient & { calls: number } {
  const client = {
    calls: 0,
    userAgent: "test",
    async request(url: string | URL, init?: OutboundRequest) {
      client.calls += 1;
      const { status, body } = answer(init);
      const bytes = Buffer.from(body);
      const text = () => bytes.toString("utf8");
      return {
        url: String(url),
        status,
        headers: new Headers({ "content-type": "application/json" }),
        body: bytes,
        truncated: false,
        chain: [String(url)],
        text,
        json: () => JSON.parse(text()) as unknown,
      };
    },
  };
  return client;
}

beforeAll(async () => {
  fake = await startFakeYouTube({ slowMs: 3_000 });
});

afterEach(() => {
  fake.setMode("normal");
  fake.requests.length = 0;
});

afterAll(async () => {
  await fake.close();
});

function details(videoId: string, options: Partial<FetchVideoDetailsOptions> = {}) {
  return fetchVideoDetails(videoId, { http, baseUrl: fake.baseUrl, ...options });
}

async function failure(call: Promise<unknown>): Promise<VideoError> {
  const error: unknown = await call.then(
    () => {
      throw new Error("expected a VideoError, the call succeeded");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VideoError);
  return error as VideoError;
}

async function expectFailure(call: Promise<unknown>, expected: VideoFailure) {
  const error = await failure(call);
  expect(error.failure).toBe(expected);
  return error;
}

describe("fetchVideoDetails: the request", () => {
  it("posts the InnerTube player request with the WEB client context", async () => {
    await details(FAKE_VIDEOS.normal);
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/youtubei/v1/player");
    expect(request?.query).toEqual({ prettyPrint: "false" });
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      videoId: FAKE_VIDEOS.normal,
      context: { client: { clientName: "WEB", clientVersion: "2.20240101.00.00", hl: "en", gl: "US" } },
    });
  });

  it("accepts a base URL with a trailing slash", async () => {
    await details(FAKE_VIDEOS.normal, { baseUrl: `${fake.baseUrl}/` });
    expect(fake.requests[0]?.path).toBe("/youtubei/v1/player");
  });

  it("rejects a malformed id as not_found without any request", async () => {
    await expectFailure(details("not-an-id"), "not_found");
    await expectFailure(details(`https://youtu.be/${FAKE_VIDEOS.normal}`), "not_found");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("fetchVideoDetails: mapping (spec §2.5)", () => {
  it("maps every field of a normal video with the right types", async () => {
    const video = await details(FAKE_VIDEOS.normal);
    expect(video).toEqual<VideoDetails>({
      video_id: "fakeNormal1",
      title: "Wiring a Signal Box: A Complete Walkthrough",
      author: "Signalbox Test Channel",
      number_of_views: 1048576,
      video_length: "1234",
      description:
        "How we wire a signal box, start to finish.\n\nChapters:\n0:00 Intro\n2:15 The lever frame\n9:40 Interlocking\n\nAll footage is our own. Thanks for watching!",
      is_live_content: "False",
      published_time: "2024-03-14",
      channel_id: "UCfakeSignalboxTest00001",
      category: "Education",
      type: "video",
      keywords: ["signal box", "railway", "interlocking", "how to"],
      thumbnails: [
        { url: "https://i.ytimg.com/vi/fakeNormal1/default.jpg", width: 120, height: 90 },
        { url: "https://i.ytimg.com/vi/fakeNormal1/mqdefault.jpg", width: 320, height: 180 },
        { url: "https://i.ytimg.com/vi/fakeNormal1/hqdefault.jpg", width: 480, height: 360 },
        { url: "https://i.ytimg.com/vi/fakeNormal1/sddefault.jpg", width: 640, height: 480 },
        { url: "https://i.ytimg.com/vi/fakeNormal1/maxresdefault.jpg", width: 1920, height: 1080 },
      ],
    });
    expect(Object.keys(video).sort()).toEqual(
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
    expect(Number.isInteger(video.number_of_views)).toBe(true);
    expect(typeof video.video_length).toBe("string");
    expect(video.published_time).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const thumbnail of video.thumbnails) {
      expect(Number.isInteger(thumbnail.width) && Number.isInteger(thumbnail.height)).toBe(true);
    }
  });

  it("keeps the description's newlines", async () => {
    const video = await details(FAKE_VIDEOS.normal);
    expect(video.description.split("\n")).toHaveLength(8);
    expect(video.description).toContain("\n\nChapters:\n0:00 Intro\n");
  });

  it("answers keywords [] when the video has none, and an empty description as ''", async () => {
    const video = await details(FAKE_VIDEOS.noKeywords);
    expect(video.keywords).toEqual([]);
    expect(video.description).toBe("");
    expect(video.published_time).toBe("2019-07-30");
    expect(video.thumbnails.map((thumbnail) => thumbnail.width)).toEqual([120, 320, 480]);
    expect(video.type).toBe("video");
  });

  it("recognises a Short", async () => {
    const video = await details(FAKE_VIDEOS.short);
    expect(video).toMatchObject({
      type: "short",
      video_length: "42",
      number_of_views: 250000,
      is_live_content: "False",
      category: "Autos & Vehicles",
      published_time: "2024-06-02",
    });
  });

  it("recognises a live stream on air", async () => {
    const video = await details(FAKE_VIDEOS.live);
    expect(video).toMatchObject({
      type: "live",
      is_live_content: "True",
      video_length: "0",
      number_of_views: 98765,
      published_time: "2025-01-05",
    });
  });

  it("recognises an upcoming premiere", async () => {
    const video = await details(FAKE_VIDEOS.premiere);
    expect(video).toMatchObject({
      type: "premiere",
      is_live_content: "False",
      video_length: "0",
      number_of_views: 0,
      published_time: "2025-12-31",
    });
  });

  it("recognises an upcoming live stream, with no view count yet", async () => {
    const video = await details(FAKE_VIDEOS.upcoming);
    expect(video).toMatchObject({
      type: "upcoming",
      is_live_content: "True",
      number_of_views: 0,
      keywords: ["q&a", "live"],
    });
  });

  it("returns the public details of a region-blocked video when YouTube sends them", async () => {
    const video = await details(FAKE_VIDEOS.regionBlocked);
    expect(video).toMatchObject({
      video_id: "fakeRegion1",
      type: "video",
      category: "News & Politics",
      published_time: "2023-11-02",
    });
  });
});

describe("fetchVideoDetails: members-only videos", () => {
  /** The members-only fixture's playability status on top of another fixture's body. */
  function withMembersOnlyStatus(status: string, body: Record<string, unknown>) {
    const offer = loadFakeYouTubeFixture("membersOnlyBare").playabilityStatus as Record<string, unknown>;
    return JSON.stringify({ ...body, playabilityStatus: { ...offer, status } });
  }

  it("returns the public details when YouTube sends them complete with the membership offer", async () => {
    const video = await details(FAKE_VIDEOS.membersOnly);
    expect(video).toMatchObject({
      video_id: FAKE_VIDEOS.membersOnly,
      type: "video",
      category: "Education",
      published_time: "2025-06-07",
      number_of_views: 812,
    });
  });

  it("members_only when the offer comes without details", async () => {
    const error = await expectFailure(details(FAKE_VIDEOS.membersOnlyBare), "members_only");
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toMatch(/members/);
  });

  it.each(["ERROR", "UNPLAYABLE", "LOGIN_REQUIRED"])(
    "members_only for status %s with the offer and no details, details with complete ones",
    async (status) => {
      const { responseContext } = loadFakeYouTubeFixture("membersOnlyBare");
      const bare = scripted(() => ({ status: 200, body: withMembersOnlyStatus(status, { responseContext }) }));
      await expectFailure(details(FAKE_VIDEOS.membersOnly, { http: bare }), "members_only");

      const complete = scripted(() => ({
        status: 200,
        body: withMembersOnlyStatus(status, loadFakeYouTubeFixture("membersOnly")),
      }));
      expect((await details(FAKE_VIDEOS.membersOnly, { http: complete })).video_id).toBe(FAKE_VIDEOS.membersOnly);
    },
  );

  it("members_only from the reason alone, when the error screen is a generic one", async () => {
    const answering = scripted(() => ({
      status: 200,
      body: JSON.stringify({
        playabilityStatus: {
          status: "UNPLAYABLE",
          reason:
            "Join this channel from your computer or Android app to get access to members-only content like this video.",
          errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: "Members-only content" } } },
        },
      }),
    }));
    await expectFailure(details(FAKE_VIDEOS.membersOnly, { http: answering }), "members_only");
  });

  it("keeps partial details from passing: a members-only answer without microformat is members_only", async () => {
    const { microformat: _dropped, ...partial } = loadFakeYouTubeFixture("membersOnly");
    const answering = scripted(() => ({ status: 200, body: JSON.stringify(partial) }));
    await expectFailure(details(FAKE_VIDEOS.membersOnly, { http: answering }), "members_only");
  });
});

describe("fetchVideoDetails: failures", () => {
  it("not_found for a removed video", async () => {
    await expectFailure(details(FAKE_VIDEOS.removed), "not_found");
  });

  it("not_found for an unknown id", async () => {
    await expectFailure(details(FAKE_VIDEOS.unknown), "not_found");
  });

  it("private for a private video", async () => {
    await expectFailure(details(FAKE_VIDEOS.private), "private");
  });

  it("age_restricted when only partial details come with the age gate", async () => {
    await expectFailure(details(FAKE_VIDEOS.ageRestricted), "age_restricted");
  });

  it("region_blocked when no details come with the block", async () => {
    await expectFailure(details(FAKE_VIDEOS.regionBlockedBare), "region_blocked");
  });

  it("upstream for an unexpected shape, without retry", async () => {
    await expectFailure(details(FAKE_VIDEOS.unexpectedShape), "upstream");
    expect(fake.requests).toHaveLength(1);
  });

  it("retries once after a 500 and then succeeds", async () => {
    fake.setMode("server_error");
    const video = await details(FAKE_VIDEOS.normal);
    expect(video.video_id).toBe(FAKE_VIDEOS.normal);
    expect(fake.requests).toHaveLength(2);
  });

  it("upstream on 429, without retry", async () => {
    fake.setMode("rate_limited");
    await expectFailure(details(FAKE_VIDEOS.normal), "upstream");
    expect(fake.requests).toHaveLength(1);
  });

  it("upstream on timeout, after one retry", async () => {
    fake.setMode("slow");
    const started = Date.now();
    await expectFailure(details(FAKE_VIDEOS.normal, { timeoutMs: 200 }), "upstream");
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it("upstream when the caller aborts, without retry", async () => {
    fake.setMode("slow");
    await expectFailure(details(FAKE_VIDEOS.normal, { signal: AbortSignal.timeout(100) }), "upstream");
    expect(fake.requests).toHaveLength(1);
  });

  it("unreachable on a refused connection, after one retry", async () => {
    const closed = await startFakeYouTube();
    const baseUrl = closed.baseUrl;
    await closed.close();
    let calls = 0;
    const counting: OutboundClient = {
      userAgent: http.userAgent,
      request: (url, init) => {
        calls += 1;
        return http.request(url, init);
      },
    };
    await expectFailure(fetchVideoDetails(FAKE_VIDEOS.normal, { baseUrl, http: counting }), "unreachable");
    expect(calls).toBe(2);
  });

  it("unreachable when the host name does not resolve, after one retry", async () => {
    let calls = 0;
    const unresolvable: OutboundClient = {
      userAgent: "test",
      request: () => {
        calls += 1;
        return Promise.reject(new OutboundError("dns", "www.youtube.com has no addresses"));
      },
    };
    await expectFailure(details(FAKE_VIDEOS.normal, { http: unresolvable }), "unreachable");
    expect(calls).toBe(2);
  });

  it("upstream after a second 5xx (at most one retry)", async () => {
    const failing = scripted(() => ({ status: 503, body: "oops" }));
    await expectFailure(details(FAKE_VIDEOS.normal, { http: failing }), "upstream");
    expect(failing.calls).toBe(2);
  });

  it.each([400, 403, 404])("upstream on %i, without retry", async (status) => {
    const failing = scripted(() => ({ status, body: "{}" }));
    await expectFailure(details(FAKE_VIDEOS.normal, { http: failing }), "upstream");
    expect(failing.calls).toBe(1);
  });

  it("upstream on a redirect, which is not followed", async () => {
    const seen: (OutboundRequest | undefined)[] = [];
    const redirecting = scripted((init) => {
      seen.push(init);
      return { status: 302, body: "" };
    });
    await expectFailure(details(FAKE_VIDEOS.normal, { http: redirecting }), "upstream");
    expect(redirecting.calls).toBe(1);
    expect(seen[0]).toMatchObject({ method: "POST", maxRedirects: 0, overflow: "error" });
  });

  it("upstream without any request when the base URL is a loopback address and loopback is not allowed", async () => {
    const strict = createOutboundClient();
    await expectFailure(details(FAKE_VIDEOS.normal, { http: strict }), "upstream");
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ["non-JSON", "<html>Our systems have detected unusual traffic</html>"],
    ["JSON that is not an object", "[1,2,3]"],
    ["no playability status", JSON.stringify({ videoDetails: { videoId: FAKE_VIDEOS.normal } })],
    ["an unknown playability status", JSON.stringify({ playabilityStatus: { status: "SOMETHING_NEW" } })],
    [
      "a bot check",
      JSON.stringify({
        playabilityStatus: { status: "LOGIN_REQUIRED", reason: "Sign in to confirm you’re not a bot" },
      }),
    ],
  ])("upstream for %s, without retry", async (_name, text) => {
    const answering = scripted(() => ({ status: 200, body: text }));
    await expectFailure(details(FAKE_VIDEOS.normal, { http: answering }), "upstream");
    expect(answering.calls).toBe(1);
  });

  it("upstream when the answer is about another video", async () => {
    const fixture = loadFakeYouTubeFixture("normal");
    const answering = scripted(() => ({
      status: 200,
      body: JSON.stringify({
        ...fixture,
        videoDetails: { ...(fixture.videoDetails as object), videoId: "otherVideo1" },
      }),
    }));
    await expectFailure(details(FAKE_VIDEOS.normal, { http: answering }), "upstream");
    // The same fixture with the right id maps fine: the id is what failed above.
    const unchanged = scripted(() => ({ status: 200, body: JSON.stringify(fixture) }));
    expect((await details(FAKE_VIDEOS.normal, { http: unchanged })).video_id).toBe(FAKE_VIDEOS.normal);
  });

  it("never throws anything but VideoError, even when the client itself throws oddly", async () => {
    const throwing: OutboundClient = {
      userAgent: "test",
      request: () => {
        throw "a string, not an Error";
      },
    };
    const error = await expectFailure(details(FAKE_VIDEOS.normal, { http: throwing }), "upstream");
    expect(error.message).not.toMatch(/youtube/i);
  });
});
