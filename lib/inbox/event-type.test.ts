import { gzipSync } from "node:zlib";
import examples from "@octokit/webhooks-examples";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EVENT_TYPE_BODY_LIMIT } from "@/lib/contracts/webhooks";
import { SENDER_REQUESTS } from "@/test/webhook-senders";
import { eventTypeOf, type EventTypeInput } from "./event-type";

const JSON_TYPE = "application/json";

function typeOf(
  body: string | Buffer,
  headers: Record<string, string> = { "content-type": JSON_TYPE },
  source: EventTypeInput["source"] = null,
) {
  return eventTypeOf({
    headers,
    body: typeof body === "string" ? Buffer.from(body, "utf8") : body,
    contentType: headers["content-type"] ?? null,
    source,
  });
}

describe("eventTypeOf: well-known senders", () => {
  it.each(SENDER_REQUESTS.map((request) => [request.name, request] as const))("%s", (_name, request) => {
    expect(typeOf(request.body, request.headers)).toBe(request.eventType);
  });
});

describe("eventTypeOf: every octokit example payload", () => {
  const payloads = examples.flatMap((event) => event.examples.map((payload) => ({ event: event.name, payload })));
  const expected = (event: string, payload: object) =>
    "action" in payload && typeof payload.action === "string" ? `${event}.${payload.action}` : event;
  const github = (event: string) => ({ "x-github-event": event, "content-type": JSON_TYPE });

  it("reads the event header and the payload's string `action`, compact or pretty-printed", () => {
    expect(payloads.length).toBeGreaterThan(300);
    for (const { event, payload } of payloads) {
      for (const body of [JSON.stringify(payload), JSON.stringify(payload, null, 2)]) {
        const within = Buffer.byteLength(body) <= EVENT_TYPE_BODY_LIMIT;
        expect(typeOf(body, github(event))).toBe(within ? expected(event, payload) : event);
      }
    }
  });

  it(`gives the event header alone for a payload padded past ${EVENT_TYPE_BODY_LIMIT} bytes`, () => {
    const pad = "a".repeat(EVENT_TYPE_BODY_LIMIT);
    for (const { event, payload } of payloads) {
      expect(typeOf(JSON.stringify({ ...payload, pad }), github(event))).toBe(event);
    }
  });
});

describe("eventTypeOf: the endpoint's own source", () => {
  const stripe = SENDER_REQUESTS.find((request) => request.name === "Stripe invoice.paid")!;

  it("reads a header, before any built-in place", () => {
    const headers = { ...stripe.headers, "x-event-name": "  billing.invoice  " };
    expect(typeOf(stripe.body, headers, { header: "x-event-name" })).toBe("billing.invoice");
  });

  it("reads a dotted JSON path, nested objects and array indexes", () => {
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "data.object.object" })).toBe("invoice");
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "data.object.lines.data.0.type" })).toBe("subscription");
    expect(typeOf('{"events":[{"kind":"a"},{"kind":"b"}]}', undefined, { jsonPath: "events.1.kind" })).toBe("b");
    // A digit segment names a member of an object.
    expect(typeOf('{"0":{"kind":"zero"}}', undefined, { jsonPath: "0.kind" })).toBe("zero");
  });

  it("reads a path in a form body's payload JSON", () => {
    const slack = SENDER_REQUESTS.find((request) => request.name.startsWith("Slack block actions"))!;
    expect(typeOf(slack.body, slack.headers, { jsonPath: "actions.0.action_id" })).toBe("approve");
  });

  it("falls back to the built-in places when the source gives no string", () => {
    expect(typeOf(stripe.body, stripe.headers, { header: "x-event-name" })).toBe("invoice.paid");
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "data.missing.type" })).toBe("invoice.paid");
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "created" })).toBe("invoice.paid"); // a number
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "data.object.lines.data.7.type" })).toBe("invoice.paid");
    expect(typeOf(stripe.body, stripe.headers, { jsonPath: "type.0" })).toBe("invoice.paid"); // into a string
    expect(typeOf('{"kind":""}', undefined, { jsonPath: "kind" })).toBeNull();
  });
});

describe("eventTypeOf: what it reads and what it leaves", () => {
  it("prefers headers over the body, and a top-level `type` over `event`, `event_type`, `eventType`", () => {
    expect(typeOf('{"type":"body"}', { "content-type": JSON_TYPE, "x-shopify-topic": "carts/update" })).toBe(
      "carts/update",
    );
    expect(typeOf('{"eventType":"d","event_type":"c","event":"b","type":"a"}')).toBe("a");
    expect(typeOf('{"eventType":"d","event_type":"c","event":"b"}')).toBe("b");
    expect(typeOf('{"eventType":"d","event_type":"c"}')).toBe("c");
    expect(typeOf('{"eventType":"d"}')).toBe("d");
    expect(typeOf('{"kind":"none of them","data":{"type":"nested"}}')).toBeNull();
  });

  it("reads bodies only with a JSON or form content type", () => {
    expect(typeOf('{"type":"x"}', { "content-type": "text/plain" })).toBeNull();
    expect(typeOf('{"type":"x"}', {})).toBeNull();
    expect(typeOf("type=x", { "content-type": "application/x-www-form-urlencoded" })).toBeNull();
    expect(typeOf('{"type":"x"}', { "content-type": "application/vnd.api+json; charset=utf-8" })).toBe("x");
  });

  it("does not decode compressed bodies: header-borne types only", () => {
    const gzip = gzipSync('{"action":"opened","type":"x"}');
    expect(typeOf(gzip, { "content-type": JSON_TYPE, "content-encoding": "gzip" })).toBeNull();
    expect(typeOf(gzip, { "content-type": JSON_TYPE, "content-encoding": "gzip", "x-github-event": "issues" })).toBe(
      "issues",
    );
    expect(typeOf('{"type":"x"}', { "content-type": JSON_TYPE, "content-encoding": "identity" })).toBe("x");
  });

  it(`reads bodies of at most ${EVENT_TYPE_BODY_LIMIT} bytes`, () => {
    const empty = '{"action":"opened","type":"big","pad":""}';
    const padded = (bytes: number) => empty.replace('""', `"${"a".repeat(bytes - empty.length)}"`);
    expect(Buffer.byteLength(padded(EVENT_TYPE_BODY_LIMIT))).toBe(EVENT_TYPE_BODY_LIMIT);
    expect(typeOf(padded(EVENT_TYPE_BODY_LIMIT))).toBe("big");
    expect(typeOf(padded(EVENT_TYPE_BODY_LIMIT + 1))).toBeNull();
    expect(typeOf(padded(10 * 1_048_576))).toBeNull();
    expect(typeOf(padded(10 * 1_048_576), { "content-type": JSON_TYPE, "x-github-event": "issues" })).toBe("issues");
  });

  it("trims, cuts at 200 characters and replaces control characters", () => {
    expect(typeOf(`{"type":"  ${"é".repeat(300)}  "}`)).toBe("é".repeat(200));
    expect(typeOf('{"type":"a\\u0000b\\nc"}')).toBe("a\uFFFDb\uFFFDc");
    expect(typeOf(`{"type":"${"x".repeat(199)}😀"}`)).toBe(`${"x".repeat(199)}\uFFFD`); // a pair cut in half
    expect(typeOf('{"type":"   "}')).toBeNull();
    expect(typeOf('{"type":"a\\"b\\\\"}')).toBe('a"b\\');
    expect(typeOf('{"\\u0074ype":"escaped key"}')).toBe("escaped key");
  });

  it("keeps header values as received: repeated headers arrive joined", () => {
    expect(typeOf("{}", { "content-type": JSON_TYPE, "x-shopify-topic": "orders/create, orders/paid" })).toBe(
      "orders/create, orders/paid",
    );
    expect(typeOf("{}", { "content-type": JSON_TYPE, "x-custom": "a, b" }, { header: "x-custom" })).toBe("a, b");
  });
});

describe("eventTypeOf: hostile input is no type, never an exception", () => {
  it.each([
    ["not JSON", "not json"],
    ["a truncated member", '{"type":'],
    ["a missing colon", '{"type" "x"}'],
    ["an unclosed string", '{"type":"x'],
    ["a bad scalar", '{"a":tru,"type":"x"}'],
    ["a bad escape", '{"type":"\\x"}'],
    ["an unbalanced value before the type", '{"a":[1,2,"type":"x"}'],
    ["an array at the top", '[{"type":"x"}]'],
    ["a string at the top", '"x"'],
    ["empty", ""],
    ["a non-string type", '{"type":5}'],
    ["an object type", '{"type":{"name":"x"}}'],
    ["a null type", '{"type":null}'],
    ["event_callback without an event", '{"type":"event_callback","event":"x"}'],
  ])("%s", (name, body) => {
    const expected = name === "event_callback without an event" ? "event_callback" : null;
    expect(typeOf(body)).toBe(expected);
  });

  it("takes the next place when `type` is not a string", () => {
    expect(typeOf('{"type":5,"event":"order.paid"}')).toBe("order.paid");
  });

  it("reads invalid UTF-8 with replacement characters, and binary bodies as no type", () => {
    const body = Buffer.concat([Buffer.from('{"type":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
    expect(typeOf(body)).toBe("a\uFFFD\uFFFDb");
    expect(typeOf(Buffer.from([0x00, 0xff, 0x7b, 0x22, 0x80]))).toBeNull();
  });

  it("steps over deep nesting without recursion", () => {
    const deep = 100_000; // 200 KB, within the limit
    expect(typeOf(`{"a":${"[".repeat(deep)}${"]".repeat(deep)},"type":"deep"}`)).toBe("deep");
    expect(typeOf("[".repeat(EVENT_TYPE_BODY_LIMIT))).toBeNull();
    expect(typeOf(`{"a":${"{".repeat(100_000)}`)).toBeNull();
    expect(
      typeOf(`{"a":${"[".repeat(100_000)}`, undefined, { jsonPath: "a.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0" }),
    ).toBeNull();
  });

  it("reads a UTF-8 byte order mark and surrounding whitespace", () => {
    expect(typeOf('\uFEFF  {"type":"bom"}\n')).toBe("bom");
  });
});

describe("eventTypeOf: properties", () => {
  it("gives null or a stored-form type (trimmed, at most 200 characters, no control characters) for any bytes", () => {
    const head = fc.constantFrom("", "{", '{"type":', '{"action":', "payload=", "[");
    const headers = fc.constantFrom<Record<string, string>>(
      { "content-type": JSON_TYPE },
      { "content-type": JSON_TYPE, "x-github-event": "issues" },
      { "content-type": "application/x-www-form-urlencoded" },
      { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "s" },
    );
    const source = fc.constantFrom(null, { jsonPath: "type" }, { jsonPath: "a.0.b" }, { jsonPath: "event.type" });
    fc.assert(
      fc.property(head, fc.uint8Array({ maxLength: 2048 }), headers, source, (start, bytes, sent, from) => {
        const type = typeOf(Buffer.concat([Buffer.from(start), bytes]), sent, from);
        if (type === null) return;
        expect(type.length).toBeGreaterThan(0);
        expect(type.length).toBeLessThanOrEqual(200);
        expect(type).toBe(type.trim());
        expect(type).not.toMatch(/[\u0000-\u001f\u007f]/);
      }),
      { numRuns: 300 },
    );
  });

  it("reads a top-level string `type` as JSON.parse does, whatever else the object holds", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ unit: "binary", maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
        fc.string({ unit: "binary", minLength: 1, maxLength: 20 }),
        fc.constantFrom(undefined, 2),
        (rest, type, indent) => {
          const json = JSON.stringify({ ...rest, type }, null, indent);
          const parsed = (JSON.parse(json) as { type: string }).type.trim();
          const stored = parsed
            ? parsed
                .slice(0, 200)
                .toWellFormed()
                .replace(/[\u0000-\u001f\u007f]/g, "\uFFFD")
            : null;
          expect(typeOf(json)).toBe(stored);
        },
      ),
    );
  });
});
