import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createAccount } from "@/lib/auth/users";
import { createWorkspace } from "@/lib/auth/workspaces";
import { REJECTION_BODY_BYTES, REJECTION_RING_SIZE } from "@/lib/contracts/rejections";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { dataOf, expectError, sendApi } from "@/test/http-api";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { dashboardHeaders, signIn } from "@/test/security/sessions";
import { REJECTION_BURST } from "./rejection-log";
import { MAX_DELIVERY_BYTES } from "./payload";

// The log of refused ingest requests (lib/inbox/rejection-log.ts) over real HTTP, on both ingest servers
// (test/ingest-paths.ts): each refusal that is recorded, what is kept of it, the bound per endpoint, sampling under a
// flood, unknown ids counted and not stored, and tenant isolation of GET /v1/webhook-endpoints/:id/rejections.

interface Rejection {
  id: string;
  endpointId: string;
  createdAt: string;
  status: number;
  reason: string;
  message: string;
  method: string;
  query: string;
  headers: Record<string, string>;
  sourceIp: string;
  bodyPreview: string | null;
  bodyBytesRead: number;
}

interface RejectionPage {
  rejections: Rejection[];
  nextCursor: string | null;
  recordedCount: number;
  notRecordedCount: number;
}

/** Deliveries per minute per endpoint in these apps: the fourth request to one endpoint is a 429. */
const INGEST_PER_MINUTE = 3;
/** Short enough for the 408 test to be quick, long enough that no stall of a loaded machine cuts a fast sender. */
const GRACE_MS = 2_000;

let app: RunningApp;
let key: string;

const auth = (apiKey = key) => ({ authorization: `Bearer ${apiKey}` });

let endpointCounter = 0;
async function createEndpoint(body: Record<string, unknown> = {}, apiKey = key): Promise<string> {
  endpointCounter += 1;
  const answer = await sendApi(app.baseUrl, "POST", "/v1/webhook-endpoints", auth(apiKey), {
    name: `Rejections ${endpointCounter}`,
    ...body,
  });
  return dataOf<{ id: string }>(answer, 201).id;
}

async function rejectionPage(endpointId: string, query = "", apiKey = key): Promise<RejectionPage> {
  return dataOf<RejectionPage>(
    await sendApi(app.baseUrl, "GET", `/v1/webhook-endpoints/${endpointId}/rejections${query}`, auth(apiKey)),
  );
}

/** The page once the log has written `count` refusals of the endpoint (recorded or only counted). */
async function settledPage(endpointId: string, count: number): Promise<RejectionPage> {
  let page: RejectionPage | undefined;
  await expect
    .poll(
      async () => {
        page = await rejectionPage(endpointId, "?limit=100");
        return page.recordedCount + page.notRecordedCount;
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(count);
  return page!;
}

async function ingest(endpointId: string, init: RequestInit & { query?: string } = {}) {
  const response = await fetch(`${app.baseUrl}/webhooks/ingest/${endpointId}${init.query ? `?${init.query}` : ""}`, {
    method: "POST",
    ...init,
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");

/** Sends headers and `sent` bytes of a body that declares more, then waits: the server cuts it (408) past the grace. */
function trickle(endpointId: string, sent: Buffer): Promise<string> {
  const url = new URL(app.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST /webhooks/ingest/${endpointId}?slow=1 HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: text/plain\r\n` +
          `Content-Length: ${sent.length * 10}\r\nX-Marker: slow\r\n\r\n`,
      );
      socket.write(sent);
    });
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error("no answer")));
  });
}

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    app = await startApp({
      ...ingestPath.env,
      RATE_LIMIT_INGEST_PER_MINUTE: String(INGEST_PER_MINUTE),
      INGEST_MIN_BYTES_PER_SECOND: "1024",
      INGEST_BODY_RATE_GRACE_MS: String(GRACE_MS),
    });
    const workspace = await createWorkspace({ name: `Rejections, ${ingestPath.name}` });
    key = (await createApiKey({ workspaceId: workspace.id, name: "rejections", mode: "live" })).key;
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("records a 401 for an invalid signature with what was kept of the request, and stores no delivery", async () => {
    const endpointId = await createEndpoint({ signing: { scheme: "github", secret: "s3cret", rejectInvalid: true } });
    const body = JSON.stringify({ action: "opened", pad: "x".repeat(5_000) });
    const answer = await ingest(endpointId, {
      body,
      query: "source=test&n=1",
      headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00", "x-marker": "a, b" },
    });
    expect(answer.status).toBe(401);
    const { rejections, recordedCount, notRecordedCount } = await settledPage(endpointId, 1);
    expect({ recordedCount, notRecordedCount }).toEqual({ recordedCount: 1, notRecordedCount: 0 });
    expect(rejections).toEqual([
      {
        id: expect.stringMatching(/^rej_/),
        endpointId,
        createdAt: expect.any(String),
        status: 401,
        reason: "invalid_signature",
        message: (JSON.parse(answer.text) as { error: { message: string } }).error.message,
        method: "POST",
        query: "source=test&n=1",
        headers: expect.objectContaining({ "x-marker": "a, b", "content-type": "application/json" }),
        sourceIp: "127.0.0.1",
        bodyPreview: base64(body.slice(0, REJECTION_BODY_BYTES)),
        bodyBytesRead: body.length,
      },
    ]);
    expect(await db().webhookDelivery.count({ where: { webhookEndpointId: endpointId } })).toBe(0);
  });

  it("records a 404 of a disabled endpoint, before any body is read", async () => {
    const endpointId = await createEndpoint();
    dataOf(await sendApi(app.baseUrl, "PATCH", `/v1/webhook-endpoints/${endpointId}`, auth(), { enabled: false }));
    expect((await ingest(endpointId, { body: "hello" })).status).toBe(404);
    const [rejection] = (await settledPage(endpointId, 1)).rejections;
    expect(rejection).toMatchObject({ status: 404, reason: "endpoint_disabled", bodyPreview: null, bodyBytesRead: 0 });
  });

  it("records a 405 for another method, with its Allow answer unchanged", async () => {
    const endpointId = await createEndpoint();
    const answer = await ingest(endpointId, { method: "PUT", body: "put body" });
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect((await ingest(endpointId, { method: "GET" })).status).toBe(405);
    const { rejections } = await settledPage(endpointId, 2);
    expect(rejections.map((rejection) => [rejection.method, rejection.status, rejection.reason])).toEqual([
      ["GET", 405, "method_not_allowed"],
      ["PUT", 405, "method_not_allowed"],
    ]);
    expect(rejections[1]!.bodyPreview).toBeNull(); // refused before its body was read
  });

  it("records a 413 refused on its declared size (nothing read) and one refused while streamed (what was read)", async () => {
    const endpointId = await createEndpoint();
    const tooLarge = Buffer.alloc(MAX_DELIVERY_BYTES + 1, "a");
    expect((await ingest(endpointId, { body: tooLarge })).status).toBe(413);
    const streamed = Buffer.concat([Buffer.from("streamed:"), randomBytes(MAX_DELIVERY_BYTES)]);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < streamed.length; at += 65_536) controller.enqueue(streamed.subarray(at, at + 65_536));
        controller.close();
      },
    });
    const answer = await ingest(endpointId, { body: chunked, duplex: "half" } as RequestInit);
    expect(answer.status).toBe(413);
    const { rejections } = await settledPage(endpointId, 2);
    expect(rejections.map((rejection) => [rejection.status, rejection.reason])).toEqual([
      [413, "payload_too_large"],
      [413, "payload_too_large"],
    ]);
    const [whileStreamed, declared] = rejections;
    expect(declared).toMatchObject({ bodyPreview: null, bodyBytesRead: 0 });
    expect(whileStreamed!.bodyPreview).toBe(base64(streamed.subarray(0, REJECTION_BODY_BYTES)));
    expect(whileStreamed!.bodyBytesRead).toBeGreaterThan(0);
    expect(whileStreamed!.bodyBytesRead).toBeLessThanOrEqual(MAX_DELIVERY_BYTES);
  });

  it("records a 429 past the endpoint's rate limit", async () => {
    const endpointId = await createEndpoint();
    for (let index = 0; index < INGEST_PER_MINUTE; index += 1)
      expect((await ingest(endpointId, { body: `ok ${index}` })).status).toBe(200);
    const answer = await ingest(endpointId, { body: "one too many" });
    expect(answer.status).toBe(429);
    const [rejection] = (await settledPage(endpointId, 1)).rejections;
    expect(rejection).toMatchObject({ status: 429, reason: "rate_limited", bodyPreview: null });
  });

  it("records a 408 for a body slower than the minimum rate, with what arrived", async () => {
    const endpointId = await createEndpoint();
    const received = await trickle(endpointId, Buffer.from("the first bytes"));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    const [rejection] = (await settledPage(endpointId, 1)).rejections;
    expect(rejection).toMatchObject({
      status: 408,
      reason: "body_too_slow",
      query: "slow=1",
      bodyPreview: base64("the first bytes"),
      bodyBytesRead: "the first bytes".length,
    });
    expect(rejection!.headers["x-marker"]).toBe("slow");
  });

  it("under a flood records a few and counts the rest, while other endpoints ingest as usual", async () => {
    const flooded = await createEndpoint();
    const other = await createEndpoint();
    dataOf(await sendApi(app.baseUrl, "PATCH", `/v1/webhook-endpoints/${flooded}`, auth(), { enabled: false }));
    const FLOOD = 120;
    const statuses: number[] = [];
    for (let sent = 0; sent < FLOOD; sent += 20) {
      const wave = Array.from({ length: 20 }, () => ingest(flooded, { body: "flood" }));
      statuses.push(...(await Promise.all(wave)).map((answer) => answer.status));
      if (sent === 60) expect((await ingest(other, { body: "meanwhile" })).status).toBe(200);
    }
    expect(statuses).toEqual(Array.from({ length: FLOOD }, () => 404));
    const page = await settledPage(flooded, FLOOD);
    expect(page.recordedCount).toBeGreaterThanOrEqual(REJECTION_BURST);
    expect(page.recordedCount).toBeLessThan(FLOOD);
    expect(page.notRecordedCount).toBe(FLOOD - page.recordedCount);
    expect(page.rejections).toHaveLength(page.recordedCount);
    expect(await db().webhookRejection.count({ where: { webhookEndpointId: flooded } })).toBe(page.recordedCount);
    expect((await rejectionPage(other)).recordedCount).toBe(0);
  });

  it("counts requests for unknown ids in the operator's count, and stores nothing for them", async () => {
    const email = `operator-${ingestPath.routeHandler ? "route" : "fast"}@example.com`;
    await createAccount({ email, password: "correct horse battery", workspaceName: "Operators", operator: true });
    const operator = dashboardHeaders((await signIn(app.baseUrl, email, "correct horse battery"))!);
    const count = async () =>
      dataOf<{ count: number; since: string }>(
        await sendApi(app.baseUrl, "GET", "/v1/operator/unknown-endpoint-requests", operator),
      ).count;
    expectError(await sendApi(app.baseUrl, "GET", "/v1/operator/unknown-endpoint-requests", auth()), 403, "forbidden");
    const before = await count();
    const rowsBefore = await db().webhookRejection.count();
    const unknown = `we_${randomBytes(12).toString("hex")}`;
    expect((await ingest(unknown, { body: "who?" })).status).toBe(404);
    expect((await ingest("not-an-endpoint-id", { body: "who?" })).status).toBe(404);
    expect((await ingest(unknown, { method: "GET" })).status).toBe(405);
    await expect.poll(count, { timeout: 10_000 }).toBe(before + 3);
    expect(await db().webhookRejection.count()).toBe(rowsBefore);
  });

  it("pages newest first with a cursor, and never shows another workspace's", async () => {
    const endpointId = await createEndpoint();
    for (const query of ["n=1", "n=2", "n=3"]) await ingest(endpointId, { method: "GET", query });
    await settledPage(endpointId, 3);
    const first = await rejectionPage(endpointId, "?limit=2");
    expect(first.rejections.map((rejection) => rejection.query)).toEqual(["n=3", "n=2"]);
    const second = await rejectionPage(endpointId, `?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.rejections.map((rejection) => rejection.query)).toEqual(["n=1"]);
    expect(second.nextCursor).toBeNull();

    const neighbour = await createWorkspace({ name: "Neighbour" });
    const neighbourKey = (await createApiKey({ workspaceId: neighbour.id, name: "neighbour", mode: "live" })).key;
    const path = `/v1/webhook-endpoints/${endpointId}/rejections`;
    expectError(await sendApi(app.baseUrl, "GET", path, auth(neighbourKey)), 404, "not_found");
    const ownEndpoint = await createEndpoint({}, neighbourKey);
    const withForeignCursor = `/v1/webhook-endpoints/${ownEndpoint}/rejections?cursor=${encodeURIComponent(first.nextCursor!)}`;
    expectError(await sendApi(app.baseUrl, "GET", withForeignCursor, auth(neighbourKey)), 400, "validation_error");
  });
});

describe("the ring of an endpoint's refusals", () => {
  beforeAll(async () => {
    // Every refusal recorded (no sampling), to fill the ring.
    app = await startApp({ REJECTION_LOG_PER_SECOND: "10000" });
    const workspace = await createWorkspace({ name: "Rejection ring" });
    key = (await createApiKey({ workspaceId: workspace.id, name: "ring", mode: "live" })).key;
  });

  afterAll(async () => {
    await app?.stop();
  });

  it(`keeps exactly the newest ${REJECTION_RING_SIZE}`, async () => {
    const endpointId = await createEndpoint();
    const SENT = REJECTION_RING_SIZE + 30;
    for (let index = 0; index < SENT; index += 1)
      expect((await ingest(endpointId, { method: "GET", query: `n=${index}` })).status).toBe(405);
    const page = await settledPage(endpointId, SENT);
    expect(page.recordedCount).toBe(SENT);
    expect(page.rejections.map((rejection) => rejection.query)).toEqual(
      Array.from({ length: REJECTION_RING_SIZE }, (_, index) => `n=${SENT - 1 - index}`),
    );
    expect(page.nextCursor).toBeNull();
    expect(await db().webhookRejection.count({ where: { webhookEndpointId: endpointId } })).toBe(REJECTION_RING_SIZE);
  });

  it("goes with its endpoint", async () => {
    const endpointId = await createEndpoint();
    await ingest(endpointId, { method: "GET" });
    await settledPage(endpointId, 1);
    dataOf(await sendApi(app.baseUrl, "DELETE", `/v1/webhook-endpoints/${endpointId}`, auth()));
    expect(await db().webhookRejection.count({ where: { webhookEndpointId: endpointId } })).toBe(0);
    expect(await db().webhookRejectionCount.count({ where: { webhookEndpointId: endpointId } })).toBe(0);
  });
});
