/**
 * The path (with query and fragment) that `target` leads to when a browser resolves it on a page of `origin`, or null
 * when it leads to another origin or scheme. The WHATWG URL parser decides, as the browser will: it drops tabs and
 * newlines, reads `\` as `/` and resolves dot segments, which prefix checks on the raw text miss (`/<TAB>/evil.example`
 * is `//evil.example`). The answer is itself safe to hand on: `/` then anything but a second slash.
 */
export function sameOriginPath(target: string, origin: string): string | null {
  const base = new URL(origin);
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return /^\/(?![/\\])/.test(path) ? path : null;
}

/**
 * Whether next-auth accepts `value` as a callback URL (its configuration check answers a 500 otherwise): a path, or an
 * absolute http(s) URL. Acceptance is not safety: the redirect callback still keeps callbacks on our origin.
 */
export function isParsableCallbackUrl(value: string, origin: string): boolean {
  try {
    return /^https?:$/.test(new URL(value, value.startsWith("/") ? origin : undefined).protocol);
  } catch {
    return false;
  }
}
