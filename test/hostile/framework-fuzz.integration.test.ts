import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBodySchema, ERROR_STATUS } from "@/lib/contracts/errors";
import { startApp, type RunningApp } from "@/test/app-server";
import { fuzzReport } from "./fuzz-report";
import { rawRequest, type RawAnswer, type RawRequest } from "./raw-http";

/*
 * The framework's own paths (next-auth under /api/auth, Next.js under /_next, the pages) and request targets that are
 * not a plain path (`*`, absolute URLs, 16 KB and longer), sent unauthenticated over raw sockets. Whatever comes in:
 * never a 5xx, never a Location that leads off our origin, and what the launcher answers itself is the error body.
 */

const report = fuzzReport("framework-fuzz");
let app: RunningApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  report.print();
  await app?.stop();
});

/** The checks every answer must pass, whatever was asked. */
function expectSafeAnswer(answer: RawAnswer, what: string) {
  expect(answer.noAnswer, `${what}: no answer at all`).not.toBe(true);
  expect(answer.status, what).toBeLessThan(500);
  const location = answer.headers.location;
  if (location !== undefined) {
    // Where a browser would go: the Location resolved against the URL it asked for.
    const origin = new URL(app.baseUrl).origin;
    expect(new URL(location, `${app.baseUrl}/some/page`).origin, `${what}: Location ${location}`).toBe(origin);
  }
}

/** The API's error body, with the status its code names. */
function expectErrorBody(answer: RawAnswer, what: string) {
  expect(answer.headers["content-type"], what).toMatch(/^application\/json/);
  const parsed = errorBodySchema.safeParse(JSON.parse(answer.body.toString("utf8")));
  expect(parsed.success, `${what}: ${answer.body.subarray(0, 200).toString()}`).toBe(true);
  if (parsed.success) expect(ERROR_STATUS[parsed.data.error.code], what).toBe(answer.status);
}

const send = (request: RawRequest): Promise<RawAnswer> => rawRequest(app.baseUrl, request);

const describeRequest = (request: RawRequest) =>
  `${request.method} ${request.target.length > 200 ? `${request.target.slice(0, 200)}… (${request.target.length})` : request.target}`;

describe("the issue's framework answers", () => {
  it.each<[string, string]>([
    ["OPTIONS", "*"],
    ["GET", "*"],
    ["HEAD", "*"],
    ["POST", "*"],
    ["GET", "/api/auth/signin?callbackUrl=javascript:alert(1)"],
    ["GET", "/api/auth/signout?callbackUrl=javascript:alert(1)"],
    ["GET", "/api/auth/signin?callbackUrl=foo"],
    ["GET", "/api/auth/session?callbackUrl=foo"],
    ["GET", "/api/auth/csrf?callbackUrl=%09"],
    ["GET", "/api/auth/callback/credentials"],
    ["GET", "/api/auth/signin/%ff"],
    ["TRACE", "/api/auth/csrf"],
    ["GET", "/_next/image?url=%2F%5C127.0.0.1%3A9%2Fx.png&w=64"],
    ["GET", "/_next/image?url=%2F%5C127.0.0.1%3A9%2Fx.png&w=64&q=75"],
    ["POST", "http://169.254.169.254/webhooks/ingest/we_0000000000000000"],
    ["GET", "http://169.254.169.254/"],
    ["GET", "https://evil.example/sign-in"],
    ["GET", "http://evil.example"],
    ["GET", "/sign-in?callbackUrl=/%09/evil.example"],
  ])("%s %s: no 5xx, no Location off our origin", async (method, target) => {
    const answer = await send({ method, target });
    expectSafeAnswer(answer, `${method} ${target} → ${answer.status}`);
  });

  it("answers a callback-url cookie that next-auth cannot parse without a 5xx", async () => {
    for (const name of ["next-auth.callback-url", "__Secure-next-auth.callback-url"]) {
      const answer = await send({
        method: "GET",
        target: "/api/auth/session",
        headers: [["Cookie", `${name}=javascript%3Aalert(1)`]],
      });
      expectSafeAnswer(answer, `${name} → ${answer.status}`);
    }
  });

  it("answers `*` and URLs over 16 KB with the API's error body", async () => {
    const options = await send({ method: "OPTIONS", target: "*" });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toMatch(/GET/);
    for (const method of ["GET", "POST"]) {
      const answer = await send({ method, target: "*" });
      expectErrorBody(answer, `${method} * → ${answer.status}`);
    }
    const long = await send({ method: "GET", target: `/v1/workspace?x=${"a".repeat(17_000)}` });
    expect(long.status).toBe(431);
    expectErrorBody(long, `long URL → ${long.status}`);
  });

  it("serves an absolute-form target as the path it names, on this origin", async () => {
    const answer = await send({ method: "GET", target: "http://169.254.169.254/healthz" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString("utf8"))).toMatchObject({ status: "ok" });
  });
});

// Pieces that hostile targets are built from.
const PATHS = [
  "/api/auth/signin",
  "/api/auth/signin/credentials",
  "/api/auth/signin/github",
  "/api/auth/signout",
  "/api/auth/callback/credentials",
  "/api/auth/callback/github",
  "/api/auth/session",
  "/api/auth/csrf",
  "/api/auth/providers",
  "/api/auth/error",
  "/api/auth/_log",
  "/api/auth/%ff",
  "/api/auth/..%2f..%2fv1",
  "/_next/image",
  "/_next/static/chunks/x.js",
  "/_next/data/x/y.json",
  "/_next/%2e%2e/%2e%2e/etc/passwd",
  "/",
  "/sign-in",
  "/sign-up",
  "/docs",
  "/invite/inv_0",
  "/healthz",
  "//evil.example",
  "/\\evil.example",
  "/%5cevil.example",
  "/%09/evil.example",
];
const HOSTILE_VALUES = [
  "javascript:alert(1)",
  "data:text/html,x",
  "foo",
  "//evil.example",
  "/\t/evil.example",
  "/%09/evil.example",
  "/\\evil.example",
  "https://evil.example/",
  "http://169.254.169.254/",
  "/.//evil.example",
  "%ff",
  "%",
  "",
  "\u0000",
  "/invite/inv_0",
  "/\\127.0.0.1:9/x.png",
  "/favicon.ico",
];
const PARAMS = ["callbackUrl", "url", "w", "q", "error", "csrf", "redirect", "next"];

const hostileTarget = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        path: fc.constantFrom(...PATHS),
        query: fc.array(fc.tuple(fc.constantFrom(...PARAMS), fc.constantFrom(...HOSTILE_VALUES)), { maxLength: 3 }),
        encode: fc.boolean(),
      })
      .map(({ path, query, encode }) => {
        const pairs = query.map(
          ([name, value]) => `${name}=${encode ? encodeURIComponent(value) : value.replace(/[\s\u0000]/g, "%09")}`,
        );
        return pairs.length ? `${path}?${pairs.join("&")}` : path;
      }),
  },
  { weight: 1, arbitrary: fc.constantFrom("*", "**", "*/x", "evil.example:443", "?x", "%2f") },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom("http://", "https://", "HTTP://", "ftp://", "http:/", "javascript:"),
        fc.constantFrom("169.254.169.254", "evil.example", "127.0.0.1:9", "[::1]", "", "user:pw@evil.example"),
        fc.constantFrom(...PATHS, ""),
      )
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...PATHS), fc.integer({ min: 8_000, max: 70_000 }))
      .map(([path, length]) => `${path}?callbackUrl=${"a".repeat(length)}`),
  },
);

const hostileRequest = fc.record({
  method: fc.constantFrom("GET", "GET", "POST", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "PATCH"),
  target: hostileTarget,
  cookie: fc.option(
    fc.tuple(
      fc.constantFrom("next-auth.callback-url", "__Secure-next-auth.callback-url", "next-auth.session-token"),
      fc.constantFrom(...HOSTILE_VALUES.map((value) => encodeURIComponent(value))),
    ),
    { nil: undefined },
  ),
  form: fc.option(
    fc.constantFrom(...HOSTILE_VALUES).map((value) => `callbackUrl=${encodeURIComponent(value)}`),
    {
      nil: undefined,
    },
  ),
});

describe("fuzzed framework requests", () => {
  it("never answer 5xx or redirect off our origin", async () => {
    await report.check("framework paths and targets", 250, hostileRequest, async (input, record) => {
      const headers: [string, string][] = [];
      if (input.cookie) headers.push(["Cookie", `${input.cookie[0]}=${input.cookie[1]}`]);
      // No body after a URL over 16 KB: the server answers 431 and closes at once, and the body still being written
      // can turn into a reset before the answer is read (a race of the client, as with Node's own 431).
      const withBody =
        input.form !== undefined && !["GET", "HEAD"].includes(input.method) && input.target.length < 8_000;
      if (withBody) headers.push(["Content-Type", "application/x-www-form-urlencoded"]);
      const request: RawRequest = {
        method: input.method,
        target: input.target,
        headers,
        body: withBody ? Buffer.from(input.form ?? "") : undefined,
      };
      const answer = await send(request);
      report.count(record, answer.status);
      expectSafeAnswer(answer, `${describeRequest(request)} cookie ${input.cookie?.join("=")} → ${answer.status}`);
    });
  }, 240_000);
});
