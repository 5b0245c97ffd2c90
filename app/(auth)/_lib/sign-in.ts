/** Pure helpers of the sign-in and sign-up pages. */
import { sameOriginPath } from "@/lib/auth/same-origin";

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

// The sign-in page does not know the origin the browser used; any origin of ours will do to resolve a path against.
const SOME_ORIGIN = "http://signalbox.invalid";

/** The path of an absolute http(s) URL (next-auth passes absolute URLs of our own origin), or null. */
function absoluteUrlPath(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}

/**
 * A same-origin path to go to after signing in (invitation links are kept); anything a browser would resolve to
 * another origin (`//host`, `/<TAB>/host`, `/\host`, `javascript:`, …) becomes `/`. An absolute http(s) URL keeps its
 * path only, which is on this origin whatever host it named.
 */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const raw = first(value);
  if (!raw) return "/";
  // A relative path (`endpoints`) would depend on the page it is resolved on: only `/…` and absolute URLs count.
  const candidate = raw.startsWith("/") ? raw : absoluteUrlPath(raw);
  const path = candidate === null ? null : sameOriginPath(candidate, SOME_ORIGIN);
  // Back to the sign-in pages would be a loop.
  if (path === null || path.startsWith("/sign-in") || path.startsWith("/sign-up")) return "/";
  return path;
}

const ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin:
    "Wrong email or password. After 10 failed attempts from your network, sign-in for that email pauses there for 15 minutes.",
  OAuthAccountNotLinked: "This email already signs in another way. Use the method you used first.",
  OAuthSignin: "The sign-in provider could not be reached. Try again.",
  OAuthCallback: "The sign-in provider answered with an error. Try again.",
  AccessDenied:
    "Access was denied. New accounts need an invitation on this server: sign in with a password from an invitation link.",
  SessionRequired: "Please sign in to continue.",
};

/** next-auth's error codes (`?error=` or `signIn()`'s `error`) in words; null when there is none. */
export function signInErrorMessage(code: string | string[] | null | undefined): string | null {
  const value = code === null ? undefined : first(code);
  if (!value) return null;
  return ERROR_MESSAGES[value] ?? "Sign-in failed. Try again.";
}
