/** Pure helpers of the sign-in and sign-up pages. */

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A same-site path to go to after signing in; anything else (another origin, `//host`, `/\host`) becomes `/`. */
export function safeCallbackPath(value: string | string[] | undefined): string {
  const raw = first(value);
  if (!raw) return "/";
  let path = raw;
  // next-auth passes absolute URLs of our own origin; keep only their path.
  if (/^https?:\/\//i.test(raw)) {
    try {
      const url = new URL(raw);
      path = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      return "/";
    }
  }
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return "/";
  // Back to the sign-in pages would be a loop.
  if (path.startsWith("/sign-in") || path.startsWith("/sign-up")) return "/";
  return path;
}

const ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password. After 10 failed attempts, sign-in for that email pauses for 15 minutes.",
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
