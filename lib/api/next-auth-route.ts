import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/next-auth";
import { isParsableCallbackUrl } from "@/lib/auth/same-origin";
import { ApiError } from "@/lib/errors";
import { errorResponse } from "./error-response";

/*
 * next-auth answers some requests anyone can send with a 500: a `callbackUrl` query parameter that is neither a path
 * nor an http(s) URL (its configuration check throws; a bad callback cookie is dropped by the launcher,
 * ./callback-cookie.ts), and GET on the credentials callback. Those are settled here; everything else is next-auth's
 * (where the redirect callback keeps callbacks on our origin).
 */

/** The same URL without a `callbackUrl` next-auth would refuse with a 500, as a redirect; null when there is none. */
function withoutBadCallback(request: NextRequest): Response | null {
  const query = request.nextUrl.searchParams;
  const origin = request.nextUrl.origin;
  if (query.getAll("callbackUrl").every((value) => isParsableCallbackUrl(value, origin))) return null;
  const cleaned = new URLSearchParams(query);
  cleaned.delete("callbackUrl");
  const search = cleaned.size ? `?${cleaned.toString()}` : "";
  // 307 keeps the method and body of a POST.
  return new Response(null, {
    status: 307,
    headers: { location: `${request.nextUrl.pathname}${search}`, "cache-control": "no-store" },
  });
}

/** GET and POST /api/auth/* — next-auth's sign-in, sign-out, session and CSRF endpoints for the dashboard. */
export async function nextAuthRoute(
  request: NextRequest,
  context: { params: Promise<{ nextauth: string[] }> },
): Promise<Response> {
  const [action, provider] = (await context.params).nextauth;
  if (action === "callback" && provider === "credentials" && request.method !== "POST") {
    return errorResponse(
      new ApiError("method_not_allowed", "The credentials callback takes POST only.", { headers: { allow: "POST" } }),
    );
  }
  return withoutBadCallback(request) ?? NextAuth(authOptions())(request, context);
}
