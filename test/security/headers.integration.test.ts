import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/test/app-server";

/*
 * Security headers from next.config.js, on the production build: pages (the dashboard, which redirects to sign-in
 * without a session, the sign-in and sign-up pages, the statically rendered /docs) get the page policy; API answers
 * (JSON, errors included) get nosniff and a policy that allows nothing. The e2e suite shows the dashboard still works
 * under this policy in Chromium: it fails on any console error, CSP violations included.
 */

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ PUBLIC_BASE_URL: "" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

/** A Content-Security-Policy header as directive → sources. */
function directives(header: string | null): Record<string, string[]> {
  expect(header).not.toBeNull();
  return Object.fromEntries(
    header!
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

async function head(path: string) {
  const response = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" });
  await response.arrayBuffer();
  return response;
}

describe("pages", () => {
  it.each(["/", "/sign-in", "/sign-up", "/docs", "/api-keys", "/no-such-page"])(
    "%s has the page headers",
    async (path) => {
      const response = await head(path);

      expect([200, 307, 404]).toContain(response.status);
      const csp = directives(response.headers.get("content-security-policy"));
      expect(csp["default-src"]).toEqual(["'self'"]);
      expect(csp["script-src"]).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp["style-src"]).toEqual(["'self'", "'unsafe-inline'"]);
      expect(csp["img-src"]).toEqual(["'self'", "data:", "blob:"]);
      expect(csp["connect-src"]).toEqual(["'self'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["base-uri"]).toEqual(["'self'"]);
      expect(csp["form-action"]).toEqual(["'self'"]);
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      // Production: nothing of the dev server's allowances.
      expect(response.headers.get("content-security-policy")).not.toMatch(/unsafe-eval|ws:/);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("permissions-policy")).toMatch(/camera=\(\)/);
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    },
  );

  it("the dashboard without a session redirects to sign-in, with the headers on the redirect too", async () => {
    const response = await head("/");
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toMatch(/\/sign-in/);
  });
});

describe("API answers", () => {
  it.each([
    ["/v1/workspace", 401],
    ["/v1/openapi.json", 200],
    ["/v1/no-such-route", 404],
    ["/healthz", 200],
  ])("%s (%i) is nosniff JSON that may not be rendered or framed", async (path, status) => {
    const response = await head(path);

    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(directives(response.headers.get("content-security-policy"))).toEqual({
      "default-src": ["'none'"],
      "frame-ancestors": ["'none'"],
    });
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});
