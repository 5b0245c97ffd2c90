import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { errorBodySchema, ERROR_STATUS } from "@/lib/contracts/errors";
import { db } from "@/lib/db/client";
import { isJsonContentType, MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { SENDER_MESSAGE_ID_HEADERS } from "@/lib/inbox/sender-message-id";
import { startApp, type RunningApp } from "@/test/app-server";
import { INGEST_PATHS } from "@/test/ingest-paths";
import { fuzzReport } from "./fuzz-report";
import {
  hostileBytes,
  hostileIdSegment,
  hostileJsonText,
  hostileString,
  INVALID_UTF8,
  percentEncode,
} from "./hostile-input";
import { rawRequest, type RawAnswer } from "./raw-http";

/*
 * Webhook ingest (POST /webhooks/ingest/:hookId) over real sockets, with bodies, content types, headers and paths
 * built by fast-check. The inbox never refuses a delivery for its content, so the properties are:
 * - accepted: 200 with a delivery id, the exact bytes served back by …/raw with the sent Content-Type, rawPayload the
 *   parsed JSON when it is JSON jsonb can hold, else `{raw: <text>}` (NUL and invalid UTF-8 shown as U+FFFD: the bytes
 *   are the lossless copy), every header kept (lower-cased name, value as received, repeats joined), the query kept;
 * - refused (unknown, disabled or deleted endpoint, traversal in the id, other methods, over 1 MiB, headers Node
 *   refuses): the documented status and error body, and no row;
 * - retries with the same sender message id, however odd its bytes: one row, one id.
 */

let app: RunningApp;
let liveKey: string;
let endpointId: string;
let disabledEndpointId: string;
let deletedEndpointId: string;

// ---------------------------------------------------------------------------------------------------------------
// Helpers

interface Delivery {
  id: string;
  rawPayload: unknown;
  headers: Record<string, string>;
  contentType: string | null;
  sizeBytes: number;
  query: string;
}

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${app.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${liveKey}`, "content-type": "application/json", ...init.headers },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function fetchDelivery(id: string): Promise<Delivery> {
  const answer = await api(`/v1/webhook-endpoints/deliveries/${id}`);
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.bytes.toString("utf8")) as { data: Delivery }).data;
}

const deliveryCount = () => db().webhookDelivery.count();

/** Whether the value nests at most 256 levels (README, Webhook inbox: deeper JSON is served as `{ raw }`). */
function withinDepth(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== "object") continue;
    if (depth > 256) return false;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return true;
}

/** What rawPayload must be for these bytes (README: the inbox never refuses a delivery for its content). */
function expectedPayload(bytes: Uint8Array, contentType: string | null): unknown {
  const text = new TextDecoder().decode(bytes);
  if (isJsonContentType(contentType) && text.trim() !== "") {
    try {
      const parsed: unknown = JSON.parse(text);
      if (withinDepth(parsed)) return parsed;
    } catch {
      // Kept as text.
    }
  }
  return { raw: text.toWellFormed().replaceAll("\u0000", "\uFFFD") };
}

/** JSON values as JSON sees them (-0 is 0), so jsonb's answer compares equal to what the sender meant. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

/** The documented error body with the status its code names. */
function expectErrorBody(answer: RawAnswer, what: string) {
  const parsed = errorBodySchema.safeParse(JSON.parse(answer.body.toString("utf8")));
  expect(parsed.success, what).toBe(true);
  if (parsed.success) expect(ERROR_STATUS[parsed.data.error.code], what).toBe(answer.status);
}

/**
 * Node's own HTTP parser refused the request before any application code ran: its status, the error body (the
 * launcher's `clientError` answer, lib/api/client-error.ts), and the connection closes.
 */
function isNodeRefusal(answer: RawAnswer, statuses: number[]): boolean {
  if (!statuses.includes(answer.status) || answer.headers.connection !== "close") return false;
  const parsed = errorBodySchema.safeParse(JSON.parse(answer.body.toString("utf8")));
  return parsed.success && ERROR_STATUS[parsed.data.error.code] === answer.status;
}

/** Deterministic pseudo-random bytes, for large bodies that would be slow to generate value by value. */
function bulkBytes(length: number, seed: number): Uint8Array {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < length; counter += 1)
    blocks.push(createHash("sha256").update(`${seed}:${counter}`).digest());
  return new Uint8Array(Buffer.concat(blocks).subarray(0, length));
}

function what(target: string, headers: [string, string][], body: Uint8Array, answer: RawAnswer): string {
  return `${target.slice(0, 200)} ${JSON.stringify(headers).slice(0, 400)} body[${body.length}]=${JSON.stringify(Buffer.from(body.subarray(0, 120)).toString("latin1"))} → ${answer.status} ${answer.body.toString("utf8").slice(0, 200)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Generators

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.api+json",
      "application/cloudevents+json; charset=UTF-8",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      "",
      "text/plain",
      "text/plain; charset=latin1",
      "application/octet-stream",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=--x",
      "text/json",
      "application/jsonx",
      "image/png",
    ),
  },
  // Odd but legal values: parameters, obs-text bytes (0x80–0xff, one latin1 character each), long.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "application/json; x=\u00e9\u00ff",
      "\u00ff/\u00fe",
      "application/json;;;",
      "  application/json  ",
      "a".repeat(2_000),
      "application/json, text/plain",
    ),
  },
);

const body: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: hostileJsonText.map((text) => new Uint8Array(Buffer.from(text, "utf8"))) },
  { weight: 3, arbitrary: hostileBytes },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 2_048 }) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(...INVALID_UTF8)
      .map((sequence) => Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, ...sequence, 0x22, 0x7d])),
  }, // {"a":"<bad>"}
  { weight: 1, arbitrary: fc.constant(new Uint8Array(0)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 10_000, max: 300_000 }), fc.integer())
      .map(([length, seed]) => bulkBytes(length, seed)),
  },
);

/** Query strings as written on the wire (stored as sent, without the `?`). */
const query: fc.Arbitrary<string> = fc.oneof(
  fc.constant(""),
  hostileString.filter((text) => text.length < 2_000).map((text) => `q=${percentEncode(text)}`),
  fc.stringMatching(/^[A-Za-z0-9=&%+.\-_~!$'()*,;:@/?]{0,200}$/),
);

// Header names that change how ingest behaves are left to their own properties.
const SPECIAL = new Set<string>([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "content-type",
  "x-forwarded-for",
  "expect",
  "upgrade",
  ...SENDER_MESSAGE_ID_HEADERS,
]);
const headerName = fc
  .stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,40}$/)
  .filter((name) => !SPECIAL.has(name.toLowerCase()));
/** Values as received: VCHAR, inner spaces and tabs, and obs-text bytes (written and read as latin1). */
const headerValue = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0x20, 0x09))
    .map((code) => String.fromCharCode(code)),
  maxLength: 80,
});

// ---------------------------------------------------------------------------------------------------------------

describe.each(INGEST_PATHS)("on the $name", (ingestPath) => {
  // The same cases on both paths: a property's seed comes from its name.
  const report = fuzzReport(`ingest-fuzz on the ${ingestPath.name}`);

  beforeAll(async () => {
    app = await startApp({ ...ingestPath.env, RATE_LIMIT_INGEST_PER_MINUTE: "0", RATE_LIMIT_API_PER_MINUTE: "0" });
    const workspace = await createWorkspace({ name: "Hostile ingest" });
    liveKey = (await createApiKey({ workspaceId: workspace.id, name: "ingest fuzz", mode: "live" })).key;
    const create = async (name: string) =>
      (
        JSON.parse(
          (await api("/v1/webhook-endpoints", { method: "POST", body: JSON.stringify({ name }) })).bytes.toString(
            "utf8",
          ),
        ) as { data: { id: string } }
      ).data.id;
    endpointId = await create("fuzz target");
    disabledEndpointId = await create("disabled");
    deletedEndpointId = await create("deleted");
    expect(
      (
        await api(`/v1/webhook-endpoints/${disabledEndpointId}`, {
          method: "PATCH",
          body: JSON.stringify({ enabled: false }),
        })
      ).status,
    ).toBe(200);
    expect((await api(`/v1/webhook-endpoints/${deletedEndpointId}`, { method: "DELETE" })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    report.print();
    await app?.stop();
  });

  describe("accepted deliveries lose nothing", () => {
    it("stores any body under any content type, and serves the exact bytes back", async () => {
      const property = fc.record({
        bytes: body,
        contentType,
        query,
        headers: fc.array(fc.tuple(headerName, headerValue), { maxLength: 8 }),
        trailingSlash: fc.boolean(),
      });
      await report.check("any body × content type × query", 250, property, async (input, record) => {
        const headers: [string, string][] = [...input.headers];
        if (input.contentType !== null) headers.push(["Content-Type", input.contentType]);
        const target = `/webhooks/ingest/${endpointId}${input.trailingSlash ? "/" : ""}${input.query ? `?${input.query}` : ""}`;
        const answer = await rawRequest(app.baseUrl, { method: "POST", target, headers, body: input.bytes });
        report.count(record, answer.status);
        const context = what(target, headers, input.bytes, answer);
        expect(answer.status, context).toBe(200);
        const { deliveryId } = JSON.parse(answer.body.toString("utf8")) as { deliveryId: string };

        const raw = await api(`/v1/webhook-endpoints/deliveries/${deliveryId}/raw`);
        expect(raw.status, context).toBe(200);
        expect(raw.bytes.equals(Buffer.from(input.bytes)), `raw bytes differ: ${context}`).toBe(true);
        // Node reads header bytes as latin1 and trims surrounding whitespace; the stored type is that string.
        const sentType = input.contentType === null ? null : input.contentType.replace(/^[ \t]+|[ \t]+$/g, "");
        // Node writes header values as UTF-8 and reads them as latin1, so only an ASCII type can be echoed byte for byte.
        if (sentType === null || /^[\x20-\x7e]*$/.test(sentType))
          expect(raw.headers.get("content-type"), context).toBe(sentType ?? "application/octet-stream");

        const delivery = await fetchDelivery(deliveryId);
        expect(delivery.sizeBytes, context).toBe(input.bytes.length);
        expect(delivery.contentType, context).toBe(sentType);
        expect(delivery.query, context).toBe(input.query);
        expect(asJson(delivery.rawPayload), context).toEqual(asJson(expectedPayload(input.bytes, sentType)));
        const expectedHeaders = new Map<string, string>();
        for (const [name, value] of input.headers) {
          const key = name.toLowerCase();
          const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, "");
          expectedHeaders.set(key, expectedHeaders.has(key) ? `${expectedHeaders.get(key)}, ${trimmed}` : trimmed);
        }
        for (const [name, value] of expectedHeaders) expect(delivery.headers[name], `${name}: ${context}`).toBe(value);
      });
    }, 240_000);

    it("keeps every header of a request with many, and refuses only what Node refuses (a value over 16 KiB: 431)", async () => {
      const property = fc.record({
        // Hundreds of short headers (past 1,023, where the launcher used to drop them); a huge value crosses 16 KiB.
        many: fc.integer({ min: 0, max: 1_300 }),
        huge: fc.oneof(
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.integer({ min: 4_000, max: 17_000 }) },
        ),
        controlCharacter: fc.oneof(
          { weight: 6, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom(0x00, 0x01, 0x0b, 0x1f, 0x7f) },
        ),
      });
      await report.check("many, huge and bad headers", 60, property, async (input, record) => {
        const headers: [string, string][] = Array.from({ length: input.many }, (_, index) => [
          `h${index}`,
          `v${index}`,
        ]);
        if (input.huge !== undefined) headers.push(["X-Huge", "h".repeat(input.huge)]);
        if (input.controlCharacter !== undefined)
          headers.push(["X-Bad", `a${String.fromCharCode(input.controlCharacter)}b`]);
        const before = await deliveryCount();
        const target = `/webhooks/ingest/${endpointId}`;
        const answer = await rawRequest(app.baseUrl, { method: "POST", target, headers, body: Buffer.from("{}") });
        report.count(record, answer.status);
        const context = `${input.many} headers, huge ${input.huge}, control ${input.controlCharacter} → ${answer.status}`;
        // Node's limits (no control characters; 16 KiB of header bytes, counted per batch of header lines rather than in
        // total: one value over 16 KiB is always refused, a head of many short lines past 16 KiB may pass): its parser
        // answers, the app never sees the request. Whatever Node lets through must be stored whole.
        const headBytes = headers.reduce((sum, [name, value]) => sum + name.length + value.length + 4, 150);
        if (input.controlCharacter !== undefined || headBytes > 16_000) {
          if ((input.huge ?? 0) > 16_500)
            expect(input.controlCharacter === undefined ? [431] : [400, 431], context).toContain(answer.status);
          expect(isNodeRefusal(answer, [400, 431]) || answer.status === 200, context).toBe(true);
          if (answer.status !== 200) {
            expect(await deliveryCount(), context).toBe(before);
            return;
          }
        }
        expect(answer.status, context).toBe(200);
        const delivery = await fetchDelivery(
          (JSON.parse(answer.body.toString("utf8")) as { deliveryId: string }).deliveryId,
        );
        for (const [name, value] of headers)
          expect(delivery.headers[name.toLowerCase()], `${name} of ${context}`).toBe(value);
      });
    }, 120_000);

    it("keeps all of 1,500 headers", async () => {
      // Regression: with Node's default maxHeadersCount the launcher kept the first 1,023 headers and silently dropped
      // the rest; server.ts now sets it to 0 (no count limit; the header size limit still applies).
      const headers: [string, string][] = Array.from({ length: 1_500 }, (_, index) => [`h${index}`, `v${index}`]);
      const answer = await rawRequest(app.baseUrl, {
        method: "POST",
        target: `/webhooks/ingest/${endpointId}`,
        headers,
        body: Buffer.from("{}"),
      });
      expect(answer.status).toBe(200);
      const delivery = await fetchDelivery(
        (JSON.parse(answer.body.toString("utf8")) as { deliveryId: string }).deliveryId,
      );
      expect(headers.filter(([name, value]) => delivery.headers[name] !== value)).toEqual([]);
    });

    it("stores a retried message once, whatever bytes its sender message id holds", async () => {
      const property = fc.record({
        header: fc.constantFrom(...SENDER_MESSAGE_ID_HEADERS),
        id: fc.oneof(
          headerValue.filter((value) => value.trim() !== ""),
          fc.integer({ min: 150, max: 4_000 }).map((length) => `\u00ff${"x".repeat(length)}`),
        ),
        concurrent: fc.boolean(),
      });
      let counter = 0;
      await report.check("duplicate sender message ids", 50, property, async (input, record) => {
        counter += 1;
        const id = `${counter}-${input.id}`; // unique per case, whatever the generator repeats
        const send = () =>
          rawRequest(app.baseUrl, {
            method: "POST",
            target: `/webhooks/ingest/${endpointId}`,
            headers: [
              [input.header, id],
              ["Content-Type", "application/json"],
            ],
            body: Buffer.from(`{"n":${counter}}`),
          });
        const before = await deliveryCount();
        const answers = input.concurrent
          ? await Promise.all([send(), send(), send()])
          : [await send(), await send(), await send()];
        for (const answer of answers) report.count(record, answer.status);
        const ids = answers.map((answer) => {
          expect(answer.status, `${input.header}: ${JSON.stringify(id).slice(0, 100)}`).toBe(200);
          return (JSON.parse(answer.body.toString("utf8")) as { deliveryId: string }).deliveryId;
        });
        expect(new Set(ids).size).toBe(1);
        expect(await deliveryCount()).toBe(before + 1);
      });
    }, 120_000);

    it("keeps NUL, lone surrogates and invalid UTF-8 losslessly: bytes exact, text readable", async () => {
      // PostgreSQL text refuses NUL bytes: bodies that are not JSON are served as text with U+FFFD in rawPayload, and
      // byte for byte in raw_body, which …/raw serves. Valid JSON with escaped NULs and lone surrogates is served as
      // the sender's text (README, Webhook inbox).
      const json = '{"a":"x\\u0000y","b":"\\ud800","c":"\\udfff\\ud800"}';
      const jsonAnswer = await rawRequest(app.baseUrl, {
        method: "POST",
        target: `/webhooks/ingest/${endpointId}`,
        headers: [["Content-Type", "application/json"]],
        body: Buffer.from(json),
      });
      const jsonId = (JSON.parse(jsonAnswer.body.toString("utf8")) as { deliveryId: string }).deliveryId;
      const served = (await api(`/v1/webhook-endpoints/deliveries/${jsonId}`)).bytes.toString("utf8");
      expect(served).toContain(`"rawPayload":${json},`);
      const cases: [string | null, Buffer][] = [
        ["application/json", Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x00, 0x22, 0x7d])], // a raw NUL byte inside a string: not JSON
        ["text/plain", Buffer.from([0x61, 0x00, 0x00, 0x62, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x63])],
        [null, Buffer.from([0x00])],
      ];
      for (const [type, bytes] of cases) {
        const answer = await rawRequest(app.baseUrl, {
          method: "POST",
          target: `/webhooks/ingest/${endpointId}`,
          headers: type ? [["Content-Type", type]] : [],
          body: bytes,
        });
        expect(answer.status).toBe(200);
        const { deliveryId } = JSON.parse(answer.body.toString("utf8")) as { deliveryId: string };
        expect((await api(`/v1/webhook-endpoints/deliveries/${deliveryId}/raw`)).bytes.equals(bytes)).toBe(true);
        const stored = await db().webhookDelivery.findFirstOrThrow({
          where: { id: deliveryId },
          select: { rawBody: true },
        });
        expect(Buffer.from(stored.rawBody).equals(bytes)).toBe(true);
        const { raw } = (await fetchDelivery(deliveryId)).rawPayload as { raw: string };
        expect(raw).toBe(new TextDecoder().decode(bytes).toWellFormed().replaceAll("\u0000", "\uFFFD"));
      }
    });
  });

  describe("refused deliveries store nothing", () => {
    it("answers unknown, disabled and deleted endpoints, traversal, other methods and oversized bodies with the documented error", async () => {
      const property = fc.record({
        hook: fc.oneof(
          { weight: 3, arbitrary: hostileIdSegment },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              disabledEndpointId,
              deletedEndpointId,
              `${endpointId}x`,
              endpointId.toUpperCase(),
              `${endpointId}%00`,
              `${endpointId}/..`,
              `..%2f${endpointId}`,
              `%77%65%5f${endpointId.slice(3)}`,
            ),
          },
          { weight: 1, arbitrary: fc.stringMatching(/^we_[0-9A-Za-z]{1,64}$/) },
        ),
        method: fc.oneof(
          { weight: 4, arbitrary: fc.constant("POST") },
          { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND") },
        ),
        oversized: fc.constantFrom("no", "no", "no", "no", "declared", "streamed"),
        bytes: hostileBytes,
      });
      await report.check("refusals: endpoint, method, size", 150, property, async (input, record) => {
        // A well-formed endpoint id (`%77%65%5f…` decodes to one) gets the oversize and method cases; others a 404.
        const isTarget = input.hook === endpointId || input.hook === `%77%65%5f${endpointId.slice(3)}`;
        const oversized = isTarget && input.method === "POST" ? input.oversized : "no";
        const headers: [string, string][] = [["Content-Type", "application/octet-stream"]];
        let bytes: Uint8Array = input.bytes;
        if (oversized === "declared") headers.push(["Content-Length", String(MAX_DELIVERY_BYTES + 1)]);
        if (oversized === "streamed") {
          headers.push(["Transfer-Encoding", "chunked"]);
          const chunk = bulkBytes(MAX_DELIVERY_BYTES + 1, 7);
          bytes = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n0\r\n\r\n")]);
        }
        const before = await deliveryCount();
        const target = `/webhooks/ingest/${input.hook}`;
        const answer = await rawRequest(app.baseUrl, {
          method: input.method,
          target,
          headers,
          body: bytes,
          omitContentLength: oversized !== "no",
        });
        report.count(record, answer.status);
        const context = what(target, headers, bytes.subarray(0, 64), answer);
        expect(answer.noAnswer, context).toBeFalsy();
        expect(answer.status, context).toBeLessThan(500);
        if (isTarget && input.method === "POST" && oversized === "no") {
          expect(answer.status, context).toBe(200);
          return;
        }
        if (isNodeRefusal(answer, [400])) return expect(await deliveryCount(), context).toBe(before);
        // A path that is not an ingest address at all (`/webhooks/ingest/a/b`, `…/we_x/..`) is Next.js's: its 404 page
        // or its redirect of a normalized path. Else ingest answers.
        if (!answer.headers["content-type"]?.startsWith("application/json")) {
          expect(answer.status === 404 || (answer.status >= 300 && answer.status < 400), context).toBe(true);
        } else {
          expect([404, 405, 413], context).toContain(answer.status);
          expectErrorBody(answer, context);
          if (answer.status === 405) expect(answer.headers.allow, context).toBe("POST");
          if (oversized !== "no") expect(answer.status, context).toBe(413);
        }
        expect(await deliveryCount(), context).toBe(before);
      });
    }, 240_000);
  });

  describe("after the storm", () => {
    it("is still up and logged no unhandled error", async () => {
      expect(app.process.exitCode).toBeNull();
      expect((await fetch(`${app.baseUrl}/healthz`)).status).toBe(200);
      expect(app.output()).not.toMatch(/Unhandled error|uncaughtException|unhandledRejection/);
    });
  });
});
