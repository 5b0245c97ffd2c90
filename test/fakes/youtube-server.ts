import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { answerLater } from "./answer-later";

/*
 * A local stand-in for YouTube's InnerTube player endpoint (`POST /youtubei/v1/player`), so video-details tests run
 * offline over real HTTP. The structure of the answers (responseContext, playabilityStatus with status / reason /
 * errorScreen / liveStreamability, videoDetails, microformat.playerMicroformatRenderer) follows the InnerTube
 * `/youtubei/v1/player` response as seen publicly, trimmed to the fields we read plus a few realistic extras. The data
 * in test/fakes/youtube/*.json is handmade and fictional: no real video, channel or person.
 *
 * An id not in FAKE_VIDEOS gets the generic "Video unavailable" ERROR answer, as YouTube gives for unknown ids.
 */

/** Name -> 11-character video id, each answered from test/fakes/youtube/<file>.json. */
export const FAKE_VIDEOS = {
  normal: "fakeNormal1",
  short: "fakeShort01",
  live: "fakeLiveNow",
  premiere: "fakePremier",
  upcoming: "fakeUpcomLv",
  noKeywords: "fakeNoKeywd",
  private: "fakePrivate",
  removed: "fakeRemoved",
  ageRestricted: "fakeAgeGate",
  regionBlocked: "fakeRegion1",
  regionBlockedBare: "fakeRegion2",
  membersOnly: "fakeMembers",
  membersOnlyBare: "fakeMember2",
  unexpectedShape: "fakeBadShap",
  unknown: "fakeMissing",
} as const;

const FIXTURE_FILES: Record<keyof typeof FAKE_VIDEOS, string> = {
  normal: "normal.json",
  short: "short.json",
  live: "live.json",
  premiere: "premiere.json",
  upcoming: "upcoming.json",
  noKeywords: "no-keywords.json",
  private: "private.json",
  removed: "removed.json",
  ageRestricted: "age-restricted.json",
  regionBlocked: "region-blocked.json",
  regionBlockedBare: "region-blocked-bare.json",
  membersOnly: "members-only.json",
  membersOnlyBare: "members-only-bare.json",
  unexpectedShape: "unexpected-shape.json",
  unknown: "not-found.json",
};

const FIXTURE_DIR = path.join(import.meta.dirname, "youtube");

/** The parsed fixture for a name, e.g. to compare against what the adapter returned. */
export function loadFakeYouTubeFixture(name: keyof typeof FAKE_VIDEOS): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURE_DIR, FIXTURE_FILES[name]), "utf8")) as Record<string, unknown>;
}

/**
 * `normal` answers per the fixtures; `rate_limited` answers 429; `server_error` answers 500 once, then goes back to
 * `normal` (to test the single retry); `slow` waits `slowMs` before answering normally.
 */
export type FakeYouTubeMode = "normal" | "rate_limited" | "server_error" | "slow";

export interface FakeYouTubeRequest {
  method: string;
  /** Path and query exactly as received. */
  url: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** The JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface FakeYouTube {
  /** Like "https://www.youtube.com": `${baseUrl}/youtubei/v1/player`. */
  baseUrl: string;
  /** Every request received, oldest first. */
  requests: FakeYouTubeRequest[];
  setMode(mode: FakeYouTubeMode): void;
  close(): Promise<void>;
}

export interface FakeYouTubeOptions {
  /** How long `slow` waits before answering; default 5 s. */
  slowMs?: number;
  /**
   * More ids answered like a named fixture, with the fixture's video id replaced: e.g. the README's example id
   * `{ dQw4w9WgXcQ: "normal" }`, so documentation can show a familiar id while the data stays fictional.
   */
  aliases?: Record<string, keyof typeof FAKE_VIDEOS>;
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
  response.end(JSON.stringify(body));
}

/** Google-style API error body, as InnerTube sends for non-200 answers. */
function sendApiError(response: ServerResponse, status: number, message: string, reason: string) {
  sendJson(response, status, {
    error: { code: status, message, errors: [{ message, domain: "global", reason }], status: reason },
  });
}

function player(body: unknown, fixtures: Map<string, string>, response: ServerResponse) {
  const videoId = typeof body === "object" && body !== null ? (body as { videoId?: unknown }).videoId : undefined;
  if (typeof videoId !== "string")
    return sendApiError(response, 400, "Request contains an invalid argument.", "INVALID_ARGUMENT");
  const text = fixtures.get(videoId) ?? (fixtures.get(FAKE_VIDEOS.unknown) as string);
  response.writeHead(200, { "content-type": "application/json; charset=UTF-8" });
  response.end(text);
}

/** Starts the fake on 127.0.0.1 on a free port. */
export async function startFakeYouTube(options: FakeYouTubeOptions = {}): Promise<FakeYouTube> {
  const fixtures = new Map<string, string>();
  for (const [name, id] of Object.entries(FAKE_VIDEOS)) {
    fixtures.set(id, JSON.stringify(loadFakeYouTubeFixture(name as keyof typeof FAKE_VIDEOS)));
  }
  for (const [alias, name] of Object.entries(options.aliases ?? {})) {
    fixtures.set(alias, (fixtures.get(FAKE_VIDEOS[name]) as string).replaceAll(FAKE_VIDEOS[name], alias));
  }
  const requests: FakeYouTubeRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();
  let mode: FakeYouTubeMode = "normal";

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://fake.invalid");
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // Keep the raw text.
      }
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: request.headers,
        body,
      });

      if (url.pathname !== "/youtubei/v1/player" || request.method !== "POST")
        return sendApiError(response, 404, "Not Found", "NOT_FOUND");

      switch (mode) {
        case "rate_limited":
          return sendApiError(response, 429, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED");
        case "server_error":
          mode = "normal";
          return sendApiError(response, 500, "Internal error encountered.", "INTERNAL");
        case "slow":
          return answerLater(response, pending, options.slowMs ?? 5_000, () => player(body, fixtures, response));
        case "normal":
          return player(body, fixtures, response);
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    setMode: (next) => {
      mode = next;
    },
    close: async () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
