import type { IncomingMessage } from "node:http";
import { isParsableCallbackUrl } from "@/lib/auth/same-origin";

// next-auth's callback-url cookies (plain and `__Secure-`): one it cannot parse makes every session read a 500.
const CALLBACK_COOKIES = new Set(["next-auth.callback-url", "__Secure-next-auth.callback-url"]);
const SOME_ORIGIN = "http://localhost";

function isUsable(pair: string): boolean {
  const equals = pair.indexOf("=");
  if (!CALLBACK_COOKIES.has(pair.slice(0, equals).trim())) return true;
  try {
    return isParsableCallbackUrl(decodeURIComponent(pair.slice(equals + 1)), SOME_ORIGIN);
  } catch {
    return false;
  }
}

/**
 * Drops callback-url cookies next-auth cannot parse from a request's `Cookie` header before Next.js sees it: with one
 * (`javascript:…`, set by anyone who could plant a cookie), every page and API call that reads the session was a 500.
 */
export function dropUnparsableCallbackCookies(request: IncomingMessage): void {
  const header = request.headers.cookie;
  if (!header) return;
  const pairs = header.split(/;\s*/);
  const kept = pairs.filter(isUsable);
  if (kept.length !== pairs.length) request.headers.cookie = kept.join("; ");
}
