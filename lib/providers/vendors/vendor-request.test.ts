import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { sendJson, startFakeVendorServer, type FakeVendorServer } from "@/test/fakes/vendor-server";
import { vendorFailure, withRequestCount } from "@/test/vendor-failures";
import { requestVendorJson, type VendorRequest } from "./vendor-request";

// The retry policy every adapter shares, against a plain JSON API on loopback that answers what each test scripts.
const http = createOutboundClient({ allowLoopback: true });
interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}
const script: Scripted[] = [];
let api: FakeVendorServer;

beforeAll(async () => {
  api = await startFakeVendorServer((_request, response) => {
    const next = script.shift() ?? { status: 200, body: { ok: true } };
    sendJson(response, next.status, next.body ?? { error: "scripted" }, next.headers);
  });
});

beforeEach(() => {
  script.length = 0;
});

afterAll(async () => {
  await api.close();
});

function call(overrides: Partial<VendorRequest> = {}) {
  return requestVendorJson({
    http,
    url: `${api.origin}/v1/thing`,
    headers: { "x-api-key": "secret-key" },
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  });
}

function failure(promise: Promise<unknown>) {
  return vendorFailure(promise, ["secret-key", "scripted"]);
}

describe("requestVendorJson", () => {
  it("answers a 2xx with its parsed JSON, a 404 with not found", async () => {
    script.push({ status: 200, body: { name: "Acme" } }, { status: 404 });
    await expect(call()).resolves.toMatchObject({ found: true, status: 200, body: { name: "Acme" } });
    await expect(call()).resolves.toEqual({ found: false, status: 404 });
  });

  it("sends the method, headers and body it is given, and asks for JSON", async () => {
    await call({
      method: "POST",
      headers: { "x-api-key": "secret-key", "content-type": "application/json" },
      body: '{"q":1}',
    });
    expect(api.requests.at(-1)).toMatchObject({
      method: "POST",
      headers: { "x-api-key": "secret-key", accept: "application/json", "content-type": "application/json" },
    });
  });

  it.each([
    [400, "rejected"],
    [401, "unauthorized"],
    [402, "quota"],
    [403, "unauthorized"],
    [422, "rejected"],
  ] as const)("%i fails as %s at once", async (status, reason) => {
    script.push({ status });
    const { result: error, requests } = await withRequestCount(api.requests, () => failure(call()));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason, status, message: `upstream answered ${status}` });
  });

  it("a 429 without a stated wait fails at once", async () => {
    script.push({ status: 429 });
    const { result: error, requests } = await withRequestCount(api.requests, () => failure(call()));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "rate_limited", retryAfterSeconds: undefined });
  });

  it("a short Retry-After is not waited for when the call's time would run out", async () => {
    script.push({ status: 429, headers: { "retry-after": "1" } });
    const { result: error, requests } = await withRequestCount(api.requests, () => failure(call({ timeoutMs: 1_200 })));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "rate_limited", retryAfterSeconds: 1 });
  });

  it("a wait longer than maxWaitMs fails at once, for a 503 too", async () => {
    script.push({ status: 503, headers: { "retry-after": "3" } });
    const { result: error, requests } = await withRequestCount(api.requests, () => failure(call()));
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "unavailable", status: 503, retryAfterSeconds: 3 });
  });

  it("retries no more than `attempts` allows", async () => {
    script.push({ status: 500 }, { status: 500 }, { status: 500 });
    expect((await withRequestCount(api.requests, () => failure(call({ retry: { attempts: 1 } })))).requests).toBe(1);
    expect((await withRequestCount(api.requests, () => failure(call({ retry: { attempts: 2 } })))).requests).toBe(2);
  });

  it("a caller who goes away during the wait ends the call: aborted, no second request", async () => {
    script.push({ status: 429, headers: { "retry-after": "2" } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { result: error, requests } = await withRequestCount(api.requests, () =>
      failure(call({ signal: controller.signal })),
    );
    expect(requests).toBe(1);
    expect(error).toMatchObject({ reason: "aborted", message: "upstream request aborted" });
  });

  it("a vendor's own meaning of a status wins, with its backoff", async () => {
    script.push({ status: 403 });
    const { result, requests } = await withRequestCount(api.requests, () =>
      call({ statusMeaning: (status) => (status === 403 ? "rate_limited" : undefined), rateLimitBackoffMs: 50 }),
    );
    expect(requests).toBe(2);
    expect(result).toMatchObject({ found: true });
  });

  it("a 2xx that is not JSON is invalid_body", async () => {
    const server = await startFakeVendorServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>maintenance</html>");
    });
    try {
      expect(await failure(call({ url: `${server.origin}/v1/thing` }))).toMatchObject({
        reason: "invalid_body",
        status: 200,
      });
    } finally {
      await server.close();
    }
  });

  it("scrubs a secret out of the cause it keeps", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // The network error names the host and port; here that is the secret, so it must not survive in the cause.
    const secret = `127.0.0.1:${port}`;
    const error = await failure(call({ url: `http://${secret}/v1/thing`, secrets: [secret] }));
    expect(error).toMatchObject({ reason: "unavailable", message: "upstream request failed" });
    expect(error.cause).toBeInstanceOf(Error);
    expect(String((error.cause as Error).message)).toContain("[redacted]");
    expect(String((error.cause as Error).message)).not.toContain(secret);
    expect((error.cause as Error).cause).toBeUndefined();
  });
});
