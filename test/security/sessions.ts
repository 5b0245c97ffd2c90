import { DASHBOARD_HEADER, WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";

/*
 * The dashboard's way in, over plain HTTP: next-auth's credentials flow (CSRF token, then the callback), as the
 * sign-in form does it, and its sign-out. Cookies are handled by hand so a test can copy them like an attacker would.
 */

export const SESSION_COOKIE = "next-auth.session-token";

/** `name=value` pairs of a response's Set-Cookie headers. */
function cookiePairs(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/** Replaces cookies of the same name in a `Cookie` header; an empty value removes the cookie. */
export function mergeCookies(cookies: string, pairs: string[]): string {
  const jar = new Map(
    cookies
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
  );
  for (const pair of pairs) {
    const name = pair.slice(0, pair.indexOf("="));
    if (pair.slice(name.length + 1) === "") jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/** The session cookie (`name=value`) in a `Cookie` header, or null. */
export function sessionCookieOf(cookies: string): string | null {
  return cookies.split("; ").find((pair) => pair.startsWith(`${SESSION_COOKIE}=`)) ?? null;
}

async function csrf(
  baseUrl: string,
  cookies = "",
  headers: Record<string, string> = {},
): Promise<{ csrfToken: string; cookies: string }> {
  const response = await fetch(`${baseUrl}/api/auth/csrf`, {
    headers: { ...headers, ...(cookies ? { cookie: cookies } : {}) },
  });
  const { csrfToken } = (await response.json()) as { csrfToken: string };
  return { csrfToken, cookies: mergeCookies(cookies, cookiePairs(response)) };
}

/**
 * Signs in like the sign-in form does; returns the cookies to send (CSRF and session), or null when refused. `headers`
 * go with both requests (e.g. `X-Forwarded-For` through a trusted proxy).
 */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<string | null> {
  const start = await csrf(baseUrl, "", headers);
  const response = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", cookie: start.cookies },
    body: new URLSearchParams({ csrfToken: start.csrfToken, email, password, json: "true" }),
  });
  const cookies = mergeCookies(start.cookies, cookiePairs(response));
  return sessionCookieOf(cookies) ? cookies : null;
}

/** Signs out like the dashboard's button does (POST /api/auth/signout with the CSRF token); returns the cookies left. */
export async function signOut(baseUrl: string, cookies: string): Promise<{ status: number; cookies: string }> {
  const start = await csrf(baseUrl, cookies);
  const response = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: start.cookies },
    body: new URLSearchParams({ csrfToken: start.csrfToken, json: "true" }),
  });
  await response.text();
  return { status: response.status, cookies: mergeCookies(start.cookies, cookiePairs(response)) };
}

/** Headers of a dashboard request to /v1: the cookies, the dashboard header and optionally a workspace. */
export function dashboardHeaders(cookies: string, workspaceId?: string): Record<string, string> {
  return { cookie: cookies, [DASHBOARD_HEADER]: "1", ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) };
}
