import { createHash, createHmac, randomUUID } from "node:crypto";
import { connect } from "node:net";
import { sign as signGitHub, verify as verifyGitHub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { createApiClient, type ApiClient } from "@/lib/client/api-client";
import {
  createWebhookEndpointContract,
  deleteWebhookEndpointContract,
  getDeliveryContract,
  listDeliveriesContract,
  updateWebhookEndpointContract,
} from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { startApp, type RunningApp } from "@/test/app-server";
import { completeAnswer } from "@/test/hostile/raw-http";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { recordExchange } from "@/test/openapi-conformance/record";
import { nowSeconds, signerFor, WEBHOOK_SIGNERS } from "@/test/webhook-signers";
import { MAX_DELIVERY_BYTES } from "./payload";
import { SENDER_MESSAGE_ID_HEADERS } from "./sender-message-id";
import type { SignatureScheme } from "./signatures";

// POST /webhooks/ingest/:hookId over real HTTP against the launched app (server.ts), on this file's database, served
// by the launcher's fast path and by the route handler (test/ingest-paths.ts).
// Fetch for ordinary requests; a raw socket where the exact bytes on the wire matter (header casing and repeats,
// chunked bodies, a Content-Length that lies).

// Delivery ids are UUIDv7: they carry their receipt time (lib/inbox/delivery-ids.ts).
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let app: RunningApp;
let apiKey: string;
let workspaceId: string;
let api: ApiClient;
let otherApiKey: string;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

type Signing = { scheme: SignatureScheme; secret: string; rejectInvalid?: boolean };
type Endpoint = Awaited<ReturnType<typeof createEndpoint>>;

interface Delivery {
  id: string;
  webhookEndpointId: string;
  workspaceId: string;
  rawPayload: unknown;
  headers: Record<string, string>;
  sourceIp: string;
  createdAt: string;
  acknowledgedAt: string | null;
  contentType: string | null;
  sizeBytes: number;
  query: string;
  signature: { scheme: SignatureScheme; valid: boolean; reason: string | null } | null;
}

let endpointCounter = 0;
async function createEndpoint(signing?: Signing) {
  endpointCounter += 1;
  const { data } = await api.call(createWebhookEndpointContract, {
    body: { name: `Endpoint ${endpointCounter}`, signing },
  });
  return data;
}

interface IngestAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** POSTs (or `method`s) to an endpoint's ingest address with fetch. A Uint8Array body gets no default content type. */
async function ingest(
  hookId: string,
  options: {
    body?: Uint8Array | string;
    headers?: Record<string, string>;
    method?: string;
    query?: string;
    baseUrl?: string;
  } = {},
): Promise<IngestAnswer> {
  const url = `${options.baseUrl ?? app.baseUrl}/webhooks/ingest/${hookId}${options.query === undefined ? "" : `?${options.query}`}`;
  // A fresh ArrayBuffer-backed copy: what fetch's BodyInit type accepts.
  const body =
    typeof options.body === "string"
      ? new TextEncoder().encode(options.body)
      : options.body && new Uint8Array(options.body);
  const response = await fetch(url, { method: options.method ?? "POST", headers: options.headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Ingests and expects the 200 acknowledgement; returns the delivery id. */
async function ingestOk(hookId: string, options: Parameters<typeof ingest>[1] = {}): Promise<string> {
  const answer = await ingest(hookId, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const { deliveryId } = answer.body as { deliveryId: string };
  expect(deliveryId).toMatch(UUID_V7);
  return deliveryId;
}

function authorized(key = apiKey) {
  return { authorization: `Bearer ${key}` };
}

/** The delivery exactly as GET /v1/webhook-endpoints/deliveries/:id sends it (not passed through a schema). */
async function fetchDelivery(id: string): Promise<Delivery> {
  const response = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}`, { headers: authorized() });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { success: true; data: Delivery };
  expect(body.success).toBe(true);
  return body.data;
}

async function fetchRaw(id: string, key = apiKey) {
  const response = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}/raw`, {
    headers: authorized(key),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function rowCount(where: { webhookEndpointId?: string } = {}): Promise<number> {
  return db().webhookDelivery.count({ where });
}

async function storedRawBody(id: string): Promise<Buffer> {
  const row = await db().webhookDelivery.findFirstOrThrow({ where: { id }, select: { rawBody: true } });
  return Buffer.from(row.rawBody);
}

/** Deterministic pseudo-random bytes (SHA-256 in counter mode), so failures reproduce. */
function pseudoRandomBytes(length: number, seed: string): Buffer {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < length; counter += 1) {
    blocks.push(createHash("sha256").update(`${seed}:${counter}`).digest());
  }
  return Buffer.concat(blocks).subarray(0, length);
}

/** Runs `task` over `items` with at most `limit` in flight; results in input order. */
async function mapLimit<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  });
  await Promise.all(workers);
  return results;
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The response in `received` once it is complete (a route handler's answers are chunked), else null. */
function parseRawResponse(received: Buffer): RawResponse | null {
  const answer = completeAnswer(received);
  return answer && { ...answer, body: answer.body.toString("utf8") };
}

/**
 * Writes `head` then `body` to a fresh TCP connection and resolves with the first complete response. Writes 16 KiB at
 * a time, each after the previous one left the process, and stops as soon as the server starts answering (as a
 * sender whose upload was refused would). Rejects with the socket's error when the connection fails before a whole
 * response arrived (e.g. ECONNRESET: the server closed while body bytes were still in flight).
 */
function rawExchange(
  baseUrl: string,
  head: string,
  body: Buffer[] = [],
  options: { timeoutMs?: number; earlyAnswerMs?: number } = {},
): Promise<RawResponse> {
  const { timeoutMs = 10_000, earlyAnswerMs = 0 } = options;
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawResponse>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      const parsed = parseRawResponse(received);
      if (!parsed && !error) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (!parsed) return reject(error);
      const [method = "", target = ""] = head.split(" ", 2);
      recordExchange(baseUrl, { method, target, ...parsed, body: Buffer.from(parsed.body) }); // checked against OpenAPI
      resolve(parsed);
    };
    const timer = setTimeout(
      () =>
        settle(
          new Error(`No complete response within ${timeoutMs} ms; got: ${received.toString("latin1").slice(0, 500)}`),
        ),
      timeoutMs,
    );
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      settle();
    });
    socket.on("error", (error) => settle(error));
    socket.on("close", () =>
      settle(
        new Error(`Connection closed before a complete response; got: ${received.toString("latin1").slice(0, 500)}`),
      ),
    );
    const write = (bytes: Buffer | string) =>
      new Promise<void>((done) => socket.write(bytes, () => setImmediate(done)));
    socket.once("connect", () => {
      void (async () => {
        await write(head);
        // Like a sender that sent `Expect: 100-continue`: give the server a moment to refuse before uploading.
        if (earlyAnswerMs > 0) await new Promise((done) => setTimeout(done, earlyAnswerMs));
        for (const chunk of body) {
          for (let offset = 0; offset < chunk.length; offset += 16_384) {
            if (settled || received.length > 0 || socket.destroyed) return;
            await write(chunk.subarray(offset, offset + 16_384));
          }
        }
      })();
    });
  });
}

/** An HTTP/1.1 request head with the header lines exactly as given (name casing, repeats), closing after the answer. */
function requestHead(baseUrl: string, target: string, lines: string[], method = "POST"): string {
  const { host } = new URL(baseUrl);
  return [`${method} ${target} HTTP/1.1`, `Host: ${host}`, ...lines, "Connection: close", "", ""].join("\r\n");
}

/** `body` as HTTP/1.1 chunks of `size` bytes, ending with the last-chunk marker. */
function chunked(body: Buffer, size: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < body.length; offset += size) {
    const part = body.subarray(offset, offset + size);
    chunks.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]));
  }
  chunks.push(Buffer.from("0\r\n\r\n"));
  return chunks;
}

function expectError(answer: { status: number; body: unknown }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ success: false, error: { code, message: expect.any(String) } });
}

// ---------------------------------------------------------------------------------------------------------------

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  beforeAll(async () => {
    app = await startApp(ingestPath.env);
    const workspace = await createWorkspace({ name: "Inbox ingest" });
    workspaceId = workspace.id;
    apiKey = (await createApiKey({ workspaceId, name: "ingest tests", mode: "live" })).key;
    api = createApiClient({ baseUrl: app.baseUrl, apiKey });
    const other = await createWorkspace({ name: "Someone else" });
    otherApiKey = (await createApiKey({ workspaceId: other.id, name: "neighbour", mode: "live" })).key;
  });

  afterAll(async () => {
    await app?.stop();
  });

  describe("methods and addresses", () => {
    let endpoint: Endpoint;
    beforeAll(async () => {
      endpoint = await createEndpoint();
    });

    it("gives an ingest URL that accepts a POST", async () => {
      expect(endpoint.ingestUrl).toBe(`${app.baseUrl}/webhooks/ingest/${endpoint.id}`);
      const response = await fetch(endpoint.ingestUrl, { method: "POST", body: new Uint8Array([1]) });
      expect(response.status).toBe(200);
    });

    it.each(["GET", "PUT", "PATCH", "DELETE"])(
      "answers %s with 405, Allow: POST, and stores nothing",
      async (method) => {
        const before = await rowCount();
        const answer = await ingest(endpoint.id, {
          method,
          body: method === "GET" ? undefined : '{"a":1}',
          headers: { "content-type": "application/json" },
        });
        expectError(answer, 405, "method_not_allowed");
        expect(answer.headers.get("allow")).toBe("POST");
        expect(await rowCount()).toBe(before);
      },
    );

    it.each([
      ["an unknown endpoint id", "we_0000000000000000000000000000"],
      ["a bare word", "hello"],
      ["the prefix alone", "we_"],
      ["a delivery-looking UUID", randomUUID()],
      ["an id with punctuation", "we_abc%21def"],
      ["an id with a NUL", "we_abc%00"],
      ["an id with a quote", "we_x'%20OR%20'1'%3D'1"],
      ["broken percent-encoding", "we_%E0%A4%A"],
      ["an over-long id", `we_${"a".repeat(65)}`],
    ])("answers 404 for %s and stores nothing", async (_case, hookId) => {
      const before = await rowCount();
      const answer = await ingest(hookId, { body: '{"a":1}', headers: { "content-type": "application/json" } });
      expectError(answer, 404, "not_found");
      expect(await rowCount()).toBe(before);
    });

    it("answers 404 while an endpoint is disabled and 200 again once it is re-enabled", async () => {
      const target = await createEndpoint();
      await api.call(updateWebhookEndpointContract, { params: { id: target.id }, body: { enabled: false } });
      expectError(await ingest(target.id, { body: "while disabled" }), 404, "not_found");
      expect(await rowCount({ webhookEndpointId: target.id })).toBe(0);

      await api.call(updateWebhookEndpointContract, { params: { id: target.id }, body: { enabled: true } });
      await ingestOk(target.id, { body: "enabled again" });
      expect(await rowCount({ webhookEndpointId: target.id })).toBe(1);
    });

    it("answers 404 once an endpoint is deleted and stores nothing", async () => {
      const target = await createEndpoint();
      await ingestOk(target.id, { body: "before delete" });
      await api.call(deleteWebhookEndpointContract, { params: { id: target.id } });
      const before = await rowCount();
      expectError(await ingest(target.id, { body: "after delete" }), 404, "not_found");
      expect(await rowCount()).toBe(before);
      expect(await rowCount({ webhookEndpointId: target.id })).toBe(0);
    });
  });

  describe("body size limit", () => {
    let endpoint: Endpoint;
    beforeAll(async () => {
      endpoint = await createEndpoint();
    });

    it("is exactly 1 MiB", () => {
      expect(MAX_DELIVERY_BYTES).toBe(1_048_576);
    });

    it("stores a body of exactly 1,048,576 bytes byte for byte", async () => {
      const body = pseudoRandomBytes(MAX_DELIVERY_BYTES, "exact-limit");
      const id = await ingestOk(endpoint.id, { body, headers: { "content-type": "application/octet-stream" } });
      const delivery = await fetchDelivery(id);
      expect(delivery.sizeBytes).toBe(1_048_576);
      expect((await storedRawBody(id)).equals(body)).toBe(true);
      const raw = await fetchRaw(id);
      expect(raw.bytes.equals(body)).toBe(true);
    });

    it("refuses 1,048,577 bytes with 413 and stores nothing", async () => {
      const before = await rowCount({ webhookEndpointId: endpoint.id });
      const body = pseudoRandomBytes(MAX_DELIVERY_BYTES + 1, "one-over");
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
        "Content-Type: application/octet-stream",
        `Content-Length: ${body.length}`,
      ]);
      // The declared length alone must be refused; the body follows only if no answer came first.
      const answer = await rawExchange(app.baseUrl, head, [body], { earlyAnswerMs: 1_000 });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        success: false,
        error: { code: "payload_too_large", message: expect.any(String) },
      });
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(before);
    });

    it("stores a chunked body of exactly 1,048,576 bytes (counted while streaming)", async () => {
      const body = pseudoRandomBytes(MAX_DELIVERY_BYTES, "chunked-exact");
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
        "Content-Type: application/octet-stream",
        "Transfer-Encoding: chunked",
      ]);
      const answer = await rawExchange(app.baseUrl, head, chunked(body, 65_536));
      expect(answer.status, answer.body).toBe(200);
      const { deliveryId } = JSON.parse(answer.body) as { deliveryId: string };
      expect((await fetchDelivery(deliveryId)).sizeBytes).toBe(MAX_DELIVERY_BYTES);
      expect((await storedRawBody(deliveryId)).equals(body)).toBe(true);
    });

    it.each([
      ["one byte over", MAX_DELIVERY_BYTES + 1],
      ["far over", 3 * MAX_DELIVERY_BYTES],
    ])("refuses a chunked body %s with 413 and stores nothing", async (_case, size) => {
      const before = await rowCount({ webhookEndpointId: endpoint.id });
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
        "Content-Type: text/plain",
        "Transfer-Encoding: chunked",
      ]);
      const answer = await rawExchange(app.baseUrl, head, chunked(Buffer.alloc(size, "x"), 65_536));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: "payload_too_large" } });
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(before);
    });

    it("refuses a declared Content-Length over the limit without waiting for the body", async () => {
      const before = await rowCount({ webhookEndpointId: endpoint.id });
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
        "Content-Type: application/json",
        `Content-Length: ${50 * MAX_DELIVERY_BYTES}`,
      ]);
      // Only 2 of the 52 MB declared are ever sent: a server that read the body first would never answer.
      const answer = await rawExchange(app.baseUrl, head, [Buffer.from("{}")], { timeoutMs: 5_000 });
      expect(answer.status).toBe(413);
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(before);
    });

    it("lets a sender that keeps uploading past the limit read its 413 (no connection reset)", async () => {
      // Closing a socket with unread input resets it, and the reset can overtake the answer: the server must drain.
      const body = new Uint8Array(4 * MAX_DELIVERY_BYTES);
      const statuses = [];
      for (let attempt = 0; attempt < 15; attempt += 1) {
        const response = await fetch(endpoint.ingestUrl, {
          method: "POST",
          body,
          headers: { "content-type": "application/octet-stream" },
        });
        statuses.push(response.status);
        await response.arrayBuffer();
      }
      expect(statuses).toEqual(Array(15).fill(413));
    });

    it("stays healthy after refusing bodies", async () => {
      const id = await ingestOk(endpoint.id, {
        body: '{"after":"413s"}',
        headers: { "content-type": "application/json" },
      });
      expect((await fetchDelivery(id)).rawPayload).toEqual({ after: "413s" });
      const health = await fetch(`${app.baseUrl}/healthz`);
      expect(health.status).toBe(200);
    });
  });

  describe("content types", () => {
    let endpoint: Endpoint;
    beforeAll(async () => {
      endpoint = await createEndpoint();
    });

    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const nestedValue = (depth: number): unknown => (depth === 0 ? [] : [nestedValue(depth - 1)]);

    it.each<[string, string | null, string, unknown]>([
      [
        "application/json",
        "application/json",
        '{"event":"paid","amount":4200,"tags":["a",null,true]}',
        { event: "paid", amount: 4200, tags: ["a", null, true] },
      ],
      ["mixed case with a charset", "Application/JSON; charset=utf-8", '{"a":1}', { a: 1 }],
      [
        "a vendor +json type",
        "application/vnd.api+json",
        '{"data":{"type":"orders","id":"1"}}',
        { data: { type: "orders", id: "1" } },
      ],
      [
        "CloudEvents",
        "application/cloudevents+json",
        '{"specversion":"1.0","id":"e1","source":"/x","type":"t"}',
        { specversion: "1.0", id: "e1", source: "/x", type: "t" },
      ],
      ["top-level null", "application/json", "null", null],
      ["a top-level number", "application/json", "42.5", 42.5],
      ["a top-level array", "application/json", '[1,"two",{"three":3}]', [1, "two", { three: 3 }]],
      ["a top-level string", "application/json", '"just a string"', "just a string"],
      ["non-ASCII JSON", "application/json", '{"note":"café ✓ 日本語 🙃"}', { note: "café ✓ 日本語 🙃" }],
      ["JSON nested 256 deep", "application/json", nested(256), nestedValue(255)],
      ["text/plain", "text/plain", "hello\nworld", { raw: "hello\nworld" }],
      [
        "form-urlencoded",
        "application/x-www-form-urlencoded",
        "a=1&b=two+words&c=%C3%A9",
        { raw: "a=1&b=two+words&c=%C3%A9" },
      ],
      ["no content type", null, "no type at all", { raw: "no type at all" }],
      ["an empty JSON body", "application/json", "", { raw: "" }],
      ["an empty body without a type", null, "", { raw: "" }],
      ["a whitespace-only JSON body", "application/json", " \n\t", { raw: " \n\t" }],
      ["JSON that does not parse", "application/json", '{"a":', { raw: '{"a":' }],
      ["text/json (not a JSON type here)", "text/json", '{"a":1}', { raw: '{"a":1}' }],
      ["application/jsonx (not a JSON type)", "application/jsonx", '{"a":1}', { raw: '{"a":1}' }],
      ["UTF-8 text", "text/plain; charset=utf-8", "café ✓ 日本語 🙃", { raw: "café ✓ 日本語 🙃" }],
      ["JSON with an escaped NUL", "application/json", '{"a":"x\\u0000y"}', { a: "x\u0000y" }],
      ["JSON with a NUL in a key", "application/json", '{"k\\u0000":1}', { "k\u0000": 1 }],
      ["JSON with a lone surrogate", "application/json", '{"a":"\\ud800"}', { a: "\ud800" }],
      ["JSON nested 1000 deep", "application/json", nested(1000), { raw: nested(1000) }],
    ])("stores %s", async (_case, contentType, text, rawPayload) => {
      const body = Buffer.from(text, "utf8");
      const id = await ingestOk(endpoint.id, {
        body,
        headers: contentType === null ? {} : { "content-type": contentType },
      });
      const delivery = await fetchDelivery(id);
      expect(delivery.rawPayload).toEqual(rawPayload);
      expect(delivery.contentType).toBe(contentType);
      expect(delivery.sizeBytes).toBe(body.length);
      const raw = await fetchRaw(id);
      expect(raw.status).toBe(200);
      expect(raw.bytes.equals(body)).toBe(true);
      expect(raw.headers.get("content-type")).toBe(contentType ?? "application/octet-stream");
    });

    it("keeps a JSON body's exact bytes beside the parsed payload", async () => {
      // Key order, spacing and escapes are lost by jsonb; the raw bytes are what a sender signed.
      const text = '{ "b" : 1,\n  "a" : "\\u00e9" }';
      const id = await ingestOk(endpoint.id, { body: text, headers: { "content-type": "application/json" } });
      expect((await fetchDelivery(id)).rawPayload).toEqual({ a: "é", b: 1 });
      expect((await fetchRaw(id)).bytes.toString("utf8")).toBe(text);
    });
  });

  describe("binary bodies and the raw endpoint", () => {
    let endpoint: Endpoint;
    beforeAll(async () => {
      endpoint = await createEndpoint();
    });

    // Every byte value, then invalid UTF-8 (lone continuation, 0xff, broken and truncated sequences), then noise.
    const binary = Buffer.concat([
      Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)),
      Buffer.from([0x80, 0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82, 0xed, 0xa0, 0x80, 0x00]),
      pseudoRandomBytes(4_096, "binary"),
    ]);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pseudoRandomBytes(2_000, "png"),
    ]);

    it.each([
      ["application/octet-stream", binary],
      ["image/png", png],
    ])("serves a %s body back byte for byte with its content type", async (contentType, body) => {
      const id = await ingestOk(endpoint.id, { body, headers: { "content-type": contentType } });
      const raw = await fetchRaw(id);
      expect(raw.status).toBe(200);
      expect(raw.headers.get("content-type")).toBe(contentType);
      expect(raw.headers.get("x-content-type-options")).toBe("nosniff");
      expect(raw.bytes.length).toBe(body.length);
      expect(raw.bytes.equals(body)).toBe(true);

      const delivery = await fetchDelivery(id);
      expect(delivery.sizeBytes).toBe(body.length);
      // The text form replaces what is not UTF-8 and the NULs jsonb cannot hold; the bytes above are the truth.
      const text = (delivery.rawPayload as { raw: string }).raw;
      expect(Object.keys(delivery.rawPayload as object)).toEqual(["raw"]);
      expect(text).toBe(new TextDecoder().decode(body).replaceAll("\u0000", "\uFFFD"));
      expect(text).not.toContain("\u0000");
    });

    it("does not serve another workspace's delivery", async () => {
      const id = await ingestOk(endpoint.id, { body: binary, headers: { "content-type": "application/octet-stream" } });
      const raw = await fetchRaw(id, otherApiKey);
      expect(raw.status).toBe(404);
      expect(JSON.parse(raw.bytes.toString("utf8"))).toMatchObject({ success: false, error: { code: "not_found" } });
      const delivery = await fetch(`${app.baseUrl}/v1/webhook-endpoints/deliveries/${id}`, {
        headers: authorized(otherApiKey),
      });
      expect(delivery.status).toBe(404);
      expect((await fetchRaw(id)).status).toBe(200);
    });

    it("answers 404 for an unknown delivery's raw body", async () => {
      expect((await fetchRaw(randomUUID())).status).toBe(404);
      expect((await fetchRaw("not-a-uuid")).status).toBe(404);
    });
  });

  describe("what is stored with a delivery", () => {
    let endpoint: Endpoint;
    beforeAll(async () => {
      endpoint = await createEndpoint();
    });

    it("keeps header names lower-cased, values as sent, and repeated headers joined", async () => {
      const body = '{"ok":true}';
      const stripeSignature = "t=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd";
      const githubSignature = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}?source=raw`, [
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "X-MiXeD-CaSe: Value  With\tInner   SPACING and CAPS",
        "X-Repeated: first",
        "x-repeated: Second",
        "X-REPEATED: third,  with comma",
        "User-Agent: agent-one",
        "User-Agent: agent-two",
        "X-Padded:    trimmed by HTTP   ",
        "X-Empty:",
        `Stripe-Signature: ${stripeSignature}`,
        `X-Hub-Signature-256: ${githubSignature}`,
      ]);
      const answer = await rawExchange(app.baseUrl, head, [Buffer.from(body)]);
      expect(answer.status, answer.body).toBe(200);
      const { deliveryId } = JSON.parse(answer.body) as { deliveryId: string };
      const delivery = await fetchDelivery(deliveryId);
      expect(delivery.headers).toEqual({
        host: new URL(app.baseUrl).host,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "x-mixed-case": "Value  With\tInner   SPACING and CAPS",
        "x-repeated": "first, Second, third,  with comma",
        "user-agent": "agent-one, agent-two",
        // Leading and trailing whitespace is not part of a field value (RFC 9110 §5.5).
        "x-padded": "trimmed by HTTP",
        "x-empty": "",
        "stripe-signature": stripeSignature,
        "x-hub-signature-256": githubSignature,
        connection: "close",
      });
      expect(delivery.query).toBe("source=raw");
      expect(delivery.rawPayload).toEqual({ ok: true });
    });

    it("keeps headers whose names are also Object.prototype members", async () => {
      const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
        "Content-Length: 0",
        "Constructor: a",
        "constructor: b",
        "__proto__: c",
        "HasOwnProperty: d",
      ]);
      const answer = await rawExchange(app.baseUrl, head);
      expect(answer.status, answer.body).toBe(200);
      const { headers } = await fetchDelivery((JSON.parse(answer.body) as { deliveryId: string }).deliveryId);
      // Compared as sorted entries: an object literal with a "__proto__" key would set a prototype instead.
      const own = Object.entries(headers).filter(([name]) => !["host", "content-length", "connection"].includes(name));
      expect(own.sort(([a], [b]) => a.localeCompare(b))).toEqual([
        ["__proto__", "c"],
        ["constructor", "a, b"],
        ["hasownproperty", "d"],
      ]);
    });

    it.each([
      ["no query", undefined, ""],
      ["an empty query", "", ""],
      ["a query with encoded parts", "a=1&b=%20two&c&d=%E2%9C%93", "a=1&b=%20two&c&d=%E2%9C%93"],
      ["a query with a question mark", "next=/x?y=1", "next=/x?y=1"],
    ])("stores the query string for %s", async (_case, query, stored) => {
      const id = await ingestOk(endpoint.id, { body: "q", query });
      expect((await fetchDelivery(id)).query).toBe(stored);
    });

    it("stamps createdAt with the receipt time, ISO 8601 UTC with milliseconds", async () => {
      const before = Date.now();
      const id = await ingestOk(endpoint.id, { body: "clock" });
      const after = Date.now();
      const { createdAt } = await fetchDelivery(id);
      expect(createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const at = Date.parse(createdAt);
      // Same machine, separate clocks (PostgreSQL's and ours): allow a little slack.
      expect(at).toBeGreaterThanOrEqual(before - 1_000);
      expect(at).toBeLessThanOrEqual(after + 1_000);
    });

    it("uses the socket peer as sourceIp and ignores X-Forwarded-For (and our own stamp) from an untrusted peer", async () => {
      const plain = await fetchDelivery(await ingestOk(endpoint.id, { body: "peer" }));
      expect(plain.sourceIp).toBe("127.0.0.1");
      const forwarded = await fetchDelivery(
        await ingestOk(endpoint.id, { body: "forged", headers: { "x-forwarded-for": "203.0.113.9" } }),
      );
      expect(forwarded.sourceIp).toBe("127.0.0.1");
      expect(forwarded.headers["x-forwarded-for"]).toBe("203.0.113.9");
      // The header the launcher stamps for the route handler (lib/auth/sign-in-source.ts): a client's is no source.
      const stamped = await fetchDelivery(
        await ingestOk(endpoint.id, { body: "forged stamp", headers: { "x-signalbox-source-ip": "203.0.113.9" } }),
      );
      expect(stamped.sourceIp).toBe("127.0.0.1");
      expect(stamped.headers["x-signalbox-source-ip"]).toBe("203.0.113.9");
    });

    describe("behind a trusted proxy", () => {
      let proxied: RunningApp;
      beforeAll(async () => {
        // A second launcher on the same database: loopback and a private range are the operator's proxies.
        proxied = await startApp({ ...ingestPath.env, TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8" });
      });
      afterAll(async () => {
        await proxied?.stop();
      });

      it.each<[string, Record<string, string>, string]>([
        ["a single forwarded client", { "x-forwarded-for": "203.0.113.7" }, "203.0.113.7"],
        [
          "a chain with a forged leftmost hop and a trusted inner proxy",
          { "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.1.2.3" },
          "203.0.113.7",
        ],
        ["an IPv6 client", { "x-forwarded-for": "2001:db8::1" }, "2001:db8::1"],
        ["no X-Forwarded-For", {}, "127.0.0.1"],
        ["an X-Forwarded-For that holds no address", { "x-forwarded-for": "unknown, not-an-ip" }, "127.0.0.1"],
      ])("takes the sender from %s", async (_case, headers, sourceIp) => {
        const id = await ingestOk(endpoint.id, { baseUrl: proxied.baseUrl, body: "via proxy", headers });
        const delivery = await fetchDelivery(id);
        expect(delivery.sourceIp).toBe(sourceIp);
        expect(delivery.headers["x-forwarded-for"]).toBe(headers["x-forwarded-for"]);
      });

      it("reads repeated X-Forwarded-For lines as one chain", async () => {
        const head = requestHead(proxied.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
          "Content-Length: 0",
          "X-Forwarded-For: 6.6.6.6",
          "X-Forwarded-For: 198.51.100.4, 10.0.0.2",
        ]);
        const answer = await rawExchange(proxied.baseUrl, head);
        expect(answer.status, answer.body).toBe(200);
        const delivery = await fetchDelivery((JSON.parse(answer.body) as { deliveryId: string }).deliveryId);
        expect(delivery.sourceIp).toBe("198.51.100.4");
        expect(delivery.headers["x-forwarded-for"]).toBe("6.6.6.6, 198.51.100.4, 10.0.0.2");
      });
    });
  });

  describe("acknowledgement and the stored delivery", () => {
    it("answers exactly { received, deliveryId } and the delivery reads back with every field", async () => {
      const endpoint = await createEndpoint();
      const body = '{"type":"invoice.paid","data":{"amount":4200}}';
      const response = await fetch(`${endpoint.ingestUrl}?attempt=1`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-sender": "Acme" },
        body,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const acknowledgement = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(acknowledgement).sort()).toEqual(["deliveryId", "received"]);
      expect(acknowledgement.received).toBe(true);
      expect(acknowledgement.deliveryId).toMatch(UUID_V7);
      const id = acknowledgement.deliveryId as string;

      const delivery = await fetchDelivery(id);
      expect(Object.keys(delivery).sort()).toEqual(
        [
          "acknowledgedAt",
          "contentType",
          "createdAt",
          "headers",
          "id",
          "query",
          "rawPayload",
          "formFields",
          "contentDecoding",
          "signature",
          "eventType",
          "preview",
          "sizeBytes",
          "sourceIp",
          "webhookEndpointId",
          "workspaceId",
        ].sort(),
      );
      expect(delivery).toEqual({
        id,
        webhookEndpointId: endpoint.id,
        workspaceId,
        rawPayload: { type: "invoice.paid", data: { amount: 4200 } },
        formFields: null,
        contentDecoding: null,
        headers: expect.objectContaining({
          "content-type": "application/json",
          "x-sender": "Acme",
          "content-length": String(body.length),
        }),
        sourceIp: "127.0.0.1",
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        acknowledgedAt: null,
        contentType: "application/json",
        sizeBytes: body.length,
        query: "attempt=1",
        signature: null,
        eventType: "invoice.paid",
        preview: body,
      });

      // The typed client (schema-checked) and the listing agree with it.
      expect((await api.call(getDeliveryContract, { params: { id } })).data).toEqual(delivery);
      const page = await api.call(listDeliveriesContract, { query: { endpointId: endpoint.id, limit: 10 } });
      expect(page.data.deliveries).toEqual([delivery]);
    });
  });

  describe("sender message ids", () => {
    it("returns the first delivery's id for a repeated webhook-id and stores nothing new", async () => {
      const endpoint = await createEndpoint();
      const first = await ingestOk(endpoint.id, {
        body: '{"attempt":1}',
        headers: { "content-type": "application/json", "webhook-id": "msg_repeat" },
      });
      const retry = await ingest(endpoint.id, {
        body: '{"attempt":2}',
        headers: { "content-type": "application/json", "webhook-id": "msg_repeat" },
      });
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({ received: true, deliveryId: first });
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(1);
      // The first delivery is what stays.
      expect((await fetchDelivery(first)).rawPayload).toEqual({ attempt: 1 });

      const other = await ingestOk(endpoint.id, { body: "{}", headers: { "webhook-id": "msg_other" } });
      expect(other).not.toBe(first);
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(2);
    });

    it("keeps the same message id on another endpoint apart", async () => {
      const [a, b] = [await createEndpoint(), await createEndpoint()];
      const onA = await ingestOk(a.id, { body: "x", headers: { "webhook-id": "msg_shared" } });
      const onB = await ingestOk(b.id, { body: "x", headers: { "webhook-id": "msg_shared" } });
      expect(onB).not.toBe(onA);
      expect((await fetchDelivery(onB)).webhookEndpointId).toBe(b.id);
      expect(await rowCount({ webhookEndpointId: a.id })).toBe(1);
      expect(await rowCount({ webhookEndpointId: b.id })).toBe(1);
    });

    it.each(SENDER_MESSAGE_ID_HEADERS)("recognises %s", async (header) => {
      const endpoint = await createEndpoint();
      const value = `id-${randomUUID()}`;
      const first = await ingestOk(endpoint.id, { body: "one", headers: { [header]: value } });
      const second = await ingestOk(endpoint.id, { body: "two", headers: { [header]: value } });
      expect(second).toBe(first);
      const third = await ingestOk(endpoint.id, { body: "three", headers: { [header]: `${value}-b` } });
      expect(third).not.toBe(first);
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(2);
    });

    it("recognises a message id too long to store as is, and tells long ids apart", async () => {
      const endpoint = await createEndpoint();
      const long = `evt_${"x".repeat(1_000)}`;
      const first = await ingestOk(endpoint.id, { body: "one", headers: { "idempotency-key": long } });
      expect(await ingestOk(endpoint.id, { body: "two", headers: { "idempotency-key": long } })).toBe(first);
      expect(await ingestOk(endpoint.id, { body: "three", headers: { "idempotency-key": `${long}y` } })).not.toBe(
        first,
      );
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(2);
      expect((await fetchDelivery(first)).headers["idempotency-key"]).toBe(long);
    });

    it("stores one delivery for 20 concurrent requests with the same id", async () => {
      const endpoint = await createEndpoint();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, attempt) =>
          ingest(endpoint.id, {
            body: `{"attempt":${attempt}}`,
            headers: { "content-type": "application/json", "webhook-id": "msg_storm" },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      const ids = new Set(answers.map((answer) => (answer.body as { deliveryId: string }).deliveryId));
      expect(ids.size).toBe(1);
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(1);
      const [id] = [...ids];
      expect((await fetchDelivery(id!)).headers["webhook-id"]).toBe("msg_storm");
    });

    it("stores every request that carries no message id", async () => {
      const endpoint = await createEndpoint();
      const ids = [];
      for (let attempt = 0; attempt < 3; attempt += 1)
        ids.push(
          await ingestOk(endpoint.id, { body: '{"same":"body"}', headers: { "content-type": "application/json" } }),
        );
      expect(new Set(ids).size).toBe(3);
      expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(3);
    });
  });

  // ---------------------------------------------------------------------------------------------------------------
  // Signatures, made by the senders' own libraries (or per their docs where they publish none).

  describe.each(WEBHOOK_SIGNERS)("$scheme signatures", (signer) => {
    const { scheme, secret } = signer;
    const body = JSON.stringify({ id: `evt_${scheme}`, type: "order.paid", note: "café ✓" });
    const json = { "content-type": "application/json" };
    let checking: Endpoint;
    let rejecting: Endpoint;

    beforeAll(async () => {
      checking = await createEndpoint({ scheme, secret });
      rejecting = await createEndpoint({ scheme, secret, rejectInvalid: true });
    });

    it("records a valid signature and keeps its header untouched", async () => {
      const headers = await signer.sign(body);
      const delivery = await fetchDelivery(await ingestOk(checking.id, { body, headers: { ...json, ...headers } }));
      expect(delivery.signature).toEqual({ scheme, valid: true, reason: null });
      expect(delivery.headers[signer.signatureHeader]).toBe(headers[signer.signatureHeader]);
      expect(delivery.rawPayload).toEqual(JSON.parse(body));
    });

    it("stores a tampered body with the mismatch recorded", async () => {
      const headers = await signer.sign(body);
      const tampered = body.replace("order.paid", "order.PAID");
      const delivery = await fetchDelivery(
        await ingestOk(checking.id, { body: tampered, headers: { ...json, ...headers } }),
      );
      expect(delivery.signature).toEqual({ scheme, valid: false, reason: "mismatch" });
      expect((await fetchRaw(delivery.id)).bytes.toString("utf8")).toBe(tampered);
    });

    it("stores an unsigned delivery with the missing header recorded", async () => {
      const delivery = await fetchDelivery(await ingestOk(checking.id, { body, headers: json }));
      expect(delivery.signature).toEqual({ scheme, valid: false, reason: "missing_header" });
    });

    it("with rejectInvalid: answers 401 to a bad or missing signature, stores nothing, and accepts a valid one", async () => {
      const tampered = await ingest(rejecting.id, {
        body: body.replace("café", "cafe"),
        headers: { ...json, ...(await signer.sign(body)) },
      });
      expectError(tampered, 401, "unauthorized");
      expect((tampered.body as { error: { message: string } }).error.message).toContain("mismatch");
      expectError(await ingest(rejecting.id, { body, headers: json }), 401, "unauthorized");
      expect(await rowCount({ webhookEndpointId: rejecting.id })).toBe(0);

      const id = await ingestOk(rejecting.id, { body, headers: { ...json, ...(await signer.sign(body)) } });
      expect((await fetchDelivery(id)).signature).toEqual({ scheme, valid: true, reason: null });
      expect(await rowCount({ webhookEndpointId: rejecting.id })).toBe(1);
    });
  });

  describe("signatures beyond the happy path", () => {
    it("records a Stripe signature an hour old as out of tolerance, and still stores it", async () => {
      const secret = "whsec_8a3bK2pQ9xR4tL7mN1vC6zY0wE5uH3jF";
      const endpoint = await createEndpoint({ scheme: "stripe", secret });
      const body = '{"id":"evt_old","type":"charge.succeeded"}';
      const header = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret,
        timestamp: nowSeconds() - 3_600,
      });
      const delivery = await fetchDelivery(
        await ingestOk(endpoint.id, {
          body,
          headers: { "content-type": "application/json", "stripe-signature": header },
        }),
      );
      expect(delivery.signature).toEqual({ scheme: "stripe", valid: false, reason: "timestamp_out_of_tolerance" });
    });

    it("verifies a signature over bytes that are not UTF-8", async () => {
      const secret = "binary secret";
      const endpoint = await createEndpoint({ scheme: "github", secret, rejectInvalid: true });
      const body = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0xe2, 0x82, 0x7b]);
      const signature = `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
      const id = await ingestOk(endpoint.id, {
        body,
        headers: { "content-type": "application/octet-stream", "x-hub-signature-256": signature },
      });
      expect((await fetchDelivery(id)).signature).toEqual({ scheme: "github", valid: true, reason: null });
      const raw = await fetchRaw(id);
      expect(`sha256=${createHmac("sha256", secret).update(raw.bytes).digest("hex")}`).toBe(signature);
    });

    describe("a consumer re-verifies with the vendor library from the raw bytes and stored headers", () => {
      // Odd spacing, key order and escapes: re-serializing rawPayload would not reproduce these bytes.
      const body = '{ "type" : "push",\n  "b": 2, "a": 1, "note": "caf\\u00e9 ✓" }';
      const json = { "content-type": "application/json" };

      it("github", async () => {
        const secret = "It's a Secret to Everybody";
        const endpoint = await createEndpoint({ scheme: "github", secret });
        const id = await ingestOk(endpoint.id, {
          body,
          headers: { ...json, "x-hub-signature-256": await signGitHub(secret, body) },
        });
        const delivery = await fetchDelivery(id);
        const raw = (await fetchRaw(id)).bytes.toString("utf8");
        expect(await verifyGitHub(secret, raw, delivery.headers["x-hub-signature-256"]!)).toBe(true);
        expect(
          await verifyGitHub(secret, JSON.stringify(delivery.rawPayload), delivery.headers["x-hub-signature-256"]!),
        ).toBe(false);
      });

      it("standard-webhooks", async () => {
        const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        const endpoint = await createEndpoint({ scheme: "standard-webhooks", secret });
        const signer = signerFor("standard-webhooks");
        const id = await ingestOk(endpoint.id, { body, headers: { ...json, ...(await signer.sign(body)) } });
        const delivery = await fetchDelivery(id);
        const raw = (await fetchRaw(id)).bytes.toString("utf8");
        expect(new Webhook(secret).verify(raw, delivery.headers)).toEqual(JSON.parse(body));
        expect(() => new Webhook(secret).verify(JSON.stringify(delivery.rawPayload), delivery.headers)).toThrow();
      });

      it("stripe", async () => {
        const secret = "whsec_8a3bK2pQ9xR4tL7mN1vC6zY0wE5uH3jF";
        const endpoint = await createEndpoint({ scheme: "stripe", secret });
        const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
        const id = await ingestOk(endpoint.id, { body, headers: { ...json, "stripe-signature": header } });
        const delivery = await fetchDelivery(id);
        const raw = (await fetchRaw(id)).bytes;
        expect(Stripe.webhooks.constructEvent(raw, delivery.headers["stripe-signature"]!, secret)).toMatchObject({
          type: "push",
          note: "café ✓",
        });
      });
    });
  });

  describe("load", () => {
    // Large bodies are read into reused slabs (lib/inbox/body-slabs.ts): many at once, of sizes that cross the slab
    // sizes, declared or chunked, must each come back as sent, with no bytes of another body.
    it("stores 40 concurrent large bodies, each byte for byte", async () => {
      const endpoint = await createEndpoint();
      const plan = Array.from({ length: 40 }, (_, index) => ({
        body: pseudoRandomBytes(60_000 + index * 24_500, `slab-${index}`),
        chunkedUpload: index % 3 === 0,
      }));
      const ids = await mapLimit(plan, 20, async ({ body, chunkedUpload }) => {
        if (!chunkedUpload)
          return ingestOk(endpoint.id, { body, headers: { "content-type": "application/octet-stream" } });
        const head = requestHead(app.baseUrl, `/webhooks/ingest/${endpoint.id}`, [
          "Content-Type: application/octet-stream",
          "Transfer-Encoding: chunked",
        ]);
        const answer = await rawExchange(app.baseUrl, head, chunked(body, 16_000));
        expect(answer.status, answer.body).toBe(200);
        return (JSON.parse(answer.body) as { deliveryId: string }).deliveryId;
      });
      for (const [index, id] of ids.entries()) expect((await storedRawBody(id)).equals(plan[index]!.body)).toBe(true);
    });

    it("stores 200 concurrent deliveries over several endpoints, each once", async () => {
      const endpoints = await Promise.all(Array.from({ length: 4 }, () => createEndpoint()));
      const plan = Array.from({ length: 200 }, (_, index) => ({
        endpoint: endpoints[index % endpoints.length]!,
        index,
      }));
      const results = await mapLimit(plan, 20, async ({ endpoint, index }) => {
        const answer =
          index % 2 === 0
            ? await ingest(endpoint.id, {
                body: JSON.stringify({ index }),
                headers: { "content-type": "application/json" },
              })
            : await ingest(endpoint.id, {
                body: pseudoRandomBytes(1 + index * 37, `load-${index}`),
                headers: { "content-type": "application/octet-stream" },
              });
        return { status: answer.status, deliveryId: (answer.body as { deliveryId: string }).deliveryId };
      });
      expect(results.filter((result) => result.status !== 200)).toEqual([]);
      const ids = new Set(results.map((result) => result.deliveryId));
      expect(ids.size).toBe(200);
      for (const endpoint of endpoints) expect(await rowCount({ webhookEndpointId: endpoint.id })).toBe(50);
      const stored = await db().webhookDelivery.findMany({ where: { id: { in: [...ids] } }, select: { id: true } });
      expect(stored).toHaveLength(200);
    });
  });
});
