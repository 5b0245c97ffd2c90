/*
 * Social profile links as sites publish them, told apart from the share buttons, intents and post links next to them.
 * Company profiles and personal ones are different shapes of URL on the same networks (linkedin.com/company/… vs
 * linkedin.com/in/…), so each has its own reader.
 */

export type SocialNetwork = "linkedin" | "twitter" | "facebook" | "instagram" | "youtube" | "github" | "crunchbase";

export interface SocialProfile {
  network: SocialNetwork;
  url: string;
}

/** First path segments that are the network's own pages (share dialogs, search, settings), never an account. */
const TWITTER_RESERVED = new Set([
  "intent",
  "share",
  "home",
  "search",
  "hashtag",
  "i",
  "login",
  "signup",
  "explore",
  "settings",
  "privacy",
  "tos",
  "messages",
  "notifications",
]);
const FACEBOOK_RESERVED = new Set([
  "sharer",
  "sharer.php",
  "share.php",
  "dialog",
  "plugins",
  "login",
  "login.php",
  "tr",
  "events",
  "groups",
  "watch",
  "hashtag",
  "policies",
  "privacy",
]);
const INSTAGRAM_RESERVED = new Set(["p", "reel", "reels", "explore", "accounts", "stories", "tv"]);
const GITHUB_RESERVED = new Set([
  "features",
  "pricing",
  "about",
  "login",
  "join",
  "sponsors",
  "marketplace",
  "topics",
  "collections",
  "explore",
  "settings",
  "site",
  "enterprise",
  "security",
  "orgs",
  "apps",
  "search",
]);
const TWITTER_HANDLE = /^[a-z0-9_]{1,15}$/i;

function parseUrl(href: string): URL | null {
  try {
    const url = new URL(href.trim().replace(/^\/\//, "https://"));
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** The host without "www." and "m." (mobile) prefixes, lower-case. */
function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^(?:www|m|mobile)\./, "");
}

function hostIs(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

function segmentsOf(url: URL): string[] {
  return url.pathname.split("/").filter((segment) => segment !== "");
}

/** A company's (or organisation's) profile on a known network, canonicalised; null for anything else. */
export function companyProfile(href: string): SocialProfile | null {
  const url = parseUrl(href);
  if (url === null) return null;
  const host = bareHost(url);
  const segments = segmentsOf(url);
  const [first, second] = segments;
  if (first === undefined) return null;
  const lowerFirst = first.toLowerCase();

  if (hostIs(host, "linkedin.com")) {
    if (!["company", "school", "showcase"].includes(lowerFirst) || second === undefined) return null;
    return { network: "linkedin", url: `https://www.linkedin.com/${lowerFirst}/${second}` };
  }
  if (host === "twitter.com" || host === "x.com") {
    if (TWITTER_RESERVED.has(lowerFirst) || !TWITTER_HANDLE.test(first) || segments.length > 1) return null;
    return { network: "twitter", url: `https://${host}/${first}` };
  }
  if (host === "facebook.com" || host === "fb.com") {
    if (FACEBOOK_RESERVED.has(lowerFirst)) return null;
    const path = lowerFirst === "pages" ? segments.slice(0, 3).join("/") : first;
    return { network: "facebook", url: `https://facebook.com/${path}` };
  }
  if (host === "instagram.com") {
    if (INSTAGRAM_RESERVED.has(lowerFirst)) return null;
    return { network: "instagram", url: `https://instagram.com/${first}` };
  }
  if (host === "youtube.com") {
    if (first.startsWith("@")) return { network: "youtube", url: `https://youtube.com/${first}` };
    if (["channel", "c", "user"].includes(lowerFirst) && second !== undefined)
      return { network: "youtube", url: `https://youtube.com/${lowerFirst}/${second}` };
    return null;
  }
  if (host === "github.com") {
    if (GITHUB_RESERVED.has(lowerFirst)) return null;
    return { network: "github", url: `https://github.com/${first}` };
  }
  if (host === "crunchbase.com") {
    if (lowerFirst !== "organization" || second === undefined) return null;
    return { network: "crunchbase", url: `https://crunchbase.com/organization/${second}` };
  }
  return null;
}

/** A person's LinkedIn profile URL (linkedin.com/in/…), canonicalised; null for anything else. */
export function personLinkedin(href: string): string | null {
  const url = parseUrl(href);
  if (url === null || !hostIs(bareHost(url), "linkedin.com")) return null;
  const [first, second] = segmentsOf(url);
  return first?.toLowerCase() === "in" && second !== undefined ? `https://www.linkedin.com/in/${second}` : null;
}

/** A person's Twitter/X handle (without "@") from a profile URL; null for anything else. */
export function twitterHandle(href: string): string | null {
  const url = parseUrl(href);
  if (url === null) return null;
  const host = bareHost(url);
  if (host !== "twitter.com" && host !== "x.com") return null;
  const segments = segmentsOf(url);
  const first = segments[0];
  if (
    first === undefined ||
    segments.length > 1 ||
    TWITTER_RESERVED.has(first.toLowerCase()) ||
    !TWITTER_HANDLE.test(first)
  )
    return null;
  return first;
}
