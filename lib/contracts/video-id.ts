/*
 * Turns what a user pasted (a bare video id or any common YouTube link) into the 11-character video id, or null.
 *
 * Accepted:
 * - a bare id: exactly 11 characters of `[A-Za-z0-9_-]`;
 * - `http(s)://` links, or the same without a scheme (`youtube.com/...`, `//youtube.com/...`), on the hosts
 *   `youtube.com`, `www.youtube.com`, `m.youtube.com`, `music.youtube.com`, `youtube-nocookie.com`,
 *   `www.youtube-nocookie.com` (paths `/watch?v=ID`, `/shorts/ID`, `/embed/ID`, `/live/ID`, `/v/ID`, an optional
 *   trailing slash, any extra query parameters or fragment) and `youtu.be/ID`.
 *
 * Rejected (null): other hosts (including look-alikes such as `youtube.com.evil.example`), other schemes
 * (`javascript:`, `data:`, `ftp:` ...), links with credentials or a port, ids that are not exactly 11 valid
 * characters, text with whitespace inside, empty text and anything longer than MAX_INPUT_LENGTH.
 */

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const MAX_INPUT_LENGTH = 2048;

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "music.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const SHORT_LINK_HOSTS = new Set(["youtu.be"]);
/** Paths of the form `/<prefix>/<id>` on the YouTube hosts. */
const ID_PATH_PREFIXES = new Set(["shorts", "embed", "live", "v"]);

export function isVideoId(text: string): boolean {
  return VIDEO_ID.test(text);
}

export function parseVideoId(input: string): string | null {
  if (typeof input !== "string") return null;
  const text = input.trim();
  if (text.length === 0 || text.length > MAX_INPUT_LENGTH || /\s/.test(text)) return null;
  if (VIDEO_ID.test(text)) return text;

  const url = toUrl(text);
  if (!url) return null;
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username !== "" || url.password !== "" || url.port !== "") return null;

  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split("/").slice(1);
  // One optional trailing slash: "/shorts/ID/" splits into ["shorts", "ID", ""].
  if (segments.length > 1 && segments.at(-1) === "") segments.pop();

  if (SHORT_LINK_HOSTS.has(host)) {
    return segments.length === 1 ? idOrNull(segments[0]) : null;
  }
  if (!YOUTUBE_HOSTS.has(host)) return null;

  if (segments.length === 1 && segments[0] === "watch") {
    const ids = url.searchParams.getAll("v");
    return ids.length === 1 ? idOrNull(ids[0]) : null;
  }
  if (segments.length === 2 && ID_PATH_PREFIXES.has(segments[0] as string)) return idOrNull(segments[1]);
  return null;
}

function idOrNull(candidate: string | undefined): string | null {
  return candidate !== undefined && VIDEO_ID.test(candidate) ? candidate : null;
}

function toUrl(text: string): URL | null {
  let absolute: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    // Has a scheme. (A scheme-less `host:port/...` reads as scheme `host:` and is rejected as not http(s).)
    absolute = text;
  } else if (text.startsWith("//")) {
    absolute = `https:${text}`;
  } else {
    absolute = `https://${text}`;
  }
  try {
    return new URL(absolute);
  } catch {
    return null;
  }
}
