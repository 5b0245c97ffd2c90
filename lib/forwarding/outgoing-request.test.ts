import { randomBytes, randomUUID } from "node:crypto";
// fast-sha256 is the SHA-256 the Standard Webhooks library itself uses: an implementation other than node:crypto's.
import { hmac } from "fast-sha256";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  buildOutgoingRequest,
  destinationHeaderProblems,
  type ForwardedDelivery,
  type ForwardingDestination,
  newDestinationSecret,
  signWebhook,
} from "@/lib/forwarding/outgoing-request";

// The Standard Webhooks library (what receivers use) is the verifier: it signs and checks strings, so for a body that
// is not UTF-8 text the check is redone over the bytes with its SHA-256.

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

function delivery(overrides: Partial<ForwardedDelivery> = {}): ForwardedDelivery {
  return {
    id: randomUUID(),
    body: Buffer.from('{"type":"invoice.paid","amount":1200}'),
    contentType: "application/json",
    headers: { "content-type": "application/json", "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
    ...overrides,
  };
}

function destination(overrides: Partial<ForwardingDestination> = {}): ForwardingDestination {
  return { url: "https://hooks.example.com/in", headers: {}, secret: SECRET, ...overrides };
}

/** What a receiver does with the Standard Webhooks library: throws unless the signature and timestamp check out. */
function verify(secret: string, body: Buffer, headers: Record<string, string>): void {
  new Webhook(secret).verify(body.toString("utf8"), headers);
}

describe("buildOutgoingRequest: the signature", () => {
  it("is verified by the Standard Webhooks library, and fails it once a byte or the secret differs", () => {
    const stored = delivery();
    const request = buildOutgoingRequest(stored, destination(), new Date());
    expect(request.url).toBe("https://hooks.example.com/in");
    expect(request.body.equals(Buffer.from(stored.body))).toBe(true);
    expect(() => verify(SECRET, request.body, request.headers)).not.toThrow();

    const tampered = Buffer.from(request.body);
    tampered[2]! ^= 1;
    expect(() => verify(SECRET, tampered, request.headers)).toThrow(/No matching signature/);
    expect(() => verify("whsec_" + randomBytes(24).toString("base64"), request.body, request.headers)).toThrow(
      /No matching signature/,
    );
  });

  it("signs a 1 MiB body", () => {
    const text = JSON.stringify({ data: "ü€".repeat(1024 * 1024) }).slice(0, 1024 * 1024 - 2) + '"}';
    const body = Buffer.from(text);
    expect(body.length).toBeGreaterThanOrEqual(1024 * 1024);
    const request = buildOutgoingRequest(delivery({ body }), destination(), new Date());
    expect(() => verify(SECRET, request.body, request.headers)).not.toThrow();
  });

  it("signs the bytes of a body that is not UTF-8 text, as they are sent", () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]), randomBytes(4096)]);
    const { headers } = buildOutgoingRequest(delivery({ body, contentType: null }), destination(), new Date());
    const signed = Buffer.concat([Buffer.from(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.`), body]);
    const key = Buffer.from(SECRET.slice("whsec_".length), "base64");
    expect(headers["webhook-signature"]).toBe(`v1,${Buffer.from(hmac(key, signed)).toString("base64")}`);
  });

  it("is `v1,` and base64 of 32 bytes, over the delivery id and the send time in seconds", () => {
    const stored = delivery();
    const now = new Date("2026-11-28T12:00:00.999Z");
    const { headers } = buildOutgoingRequest(stored, destination(), now);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers["webhook-id"]).toBe(stored.id);
    expect(headers["webhook-timestamp"]).toBe("1795867200");
    expect(headers["webhook-signature"]).toBe(
      new Webhook(SECRET).sign(stored.id, new Date(1795867200 * 1000), Buffer.from(stored.body).toString()),
    );
  });

  it("keeps webhook-id across retries while the timestamp and signature follow the send time", () => {
    const stored = delivery();
    const first = buildOutgoingRequest(stored, destination(), new Date("2026-11-28T12:00:00Z"));
    const retry = buildOutgoingRequest(stored, destination(), new Date("2026-11-28T12:00:30Z"));
    expect(retry.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(Number(retry.headers["webhook-timestamp"]) - Number(first.headers["webhook-timestamp"])).toBe(30);
    expect(retry.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
  });
});

describe("buildOutgoingRequest: the headers", () => {
  it("forwards the sender's headers without hop-by-hop, framing or its own Standard Webhooks ones", () => {
    const { headers } = buildOutgoingRequest(
      delivery({
        headers: {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "user-agent": "GitHub-Hookshot/abc",
          "x-github-event": "push",
          "x-hub-signature-256": "sha256=abc",
          host: "signalbox.example",
          "content-length": "42",
          "transfer-encoding": "chunked",
          connection: "keep-alive, x-hop-only",
          "x-hop-only": "1",
          "keep-alive": "timeout=5",
          te: "trailers",
          trailer: "x-checksum",
          upgrade: "h2c",
          "http2-settings": "AAMAAABkAAQAAP__",
          expect: "100-continue",
          "proxy-authorization": "Basic abc",
          "proxy-foo": "1",
          "webhook-id": "msg_sender",
          "webhook-timestamp": "1",
          "webhook-signature": "v1,sender",
        },
      }),
      destination(),
      new Date(),
    );
    expect(Object.keys(headers).sort()).toEqual([
      "content-encoding",
      "content-type",
      "user-agent",
      "webhook-id",
      "webhook-signature",
      "webhook-timestamp",
      "x-github-event",
      "x-hub-signature-256",
    ]);
    expect(headers).toMatchObject({ "content-encoding": "gzip", "x-hub-signature-256": "sha256=abc" });
    expect(headers["webhook-id"]).not.toBe("msg_sender");
  });

  it("adds the destination's headers over the sender's, and never lets them replace framing or our signature", () => {
    const stored = delivery({ headers: { authorization: "Bearer sender", "x-a": "sender" } });
    const { headers } = buildOutgoingRequest(
      stored,
      destination({
        headers: {
          Authorization: "Bearer receiver",
          "X-Tenant": "acme",
          "webhook-id": "mine",
          "Content-Length": "1",
          "bad header": "x",
        },
      }),
      new Date(),
    );
    expect(headers).toMatchObject({ authorization: "Bearer receiver", "x-tenant": "acme", "x-a": "sender" });
    expect(headers["webhook-id"]).toBe(stored.id);
    expect(headers["content-length"]).toBeUndefined();
    expect(headers["bad header"]).toBeUndefined();
  });

  it("takes the content type from the delivery when the stored headers lack it", () => {
    const { headers } = buildOutgoingRequest(
      delivery({ headers: {}, contentType: "application/x-www-form-urlencoded" }),
      destination(),
      new Date(),
    );
    expect(headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });
});

describe("destinationHeaderProblems", () => {
  it("accepts ordinary headers", () => {
    expect(destinationHeaderProblems({ Authorization: "Bearer x", "X-Env": "staging", "content-type": "a/b" })).toEqual(
      [],
    );
  });

  it.each([
    ["Host", "x", /"Host" is set by the connection/],
    ["content-length", "1", /is set by the connection/],
    ["Transfer-Encoding", "chunked", /is set by the connection/],
    ["connection", "close", /is set by the connection/],
    ["proxy-anything", "1", /is set by the connection/],
    ["Webhook-Signature", "v1,x", /is set by Signalbox to sign/],
    ["webhook-id", "x", /is set by Signalbox to sign/],
    ["webhook-timestamp", "1", /is set by Signalbox to sign/],
    ["bad name", "x", /is not a valid header name/],
    ["", "x", /is not a valid header name/],
    ["x-split", "a\r\nInjected: 1", /control characters/],
    ["x-euro", "€", /beyond Latin-1/],
  ])("refuses %s", (name, value, problem) => {
    const problems = destinationHeaderProblems({ [name]: value, "x-fine": "1" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });
});

describe("newDestinationSecret", () => {
  it("is whsec_ and 24 random bytes in base64, different every time", () => {
    const secrets = Array.from({ length: 20 }, () => newDestinationSecret());
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it("is read by the Standard Webhooks library as it is shown: a receiver pastes it in, nothing to convert or rotate", () => {
    const secret = newDestinationSecret();
    const request = buildOutgoingRequest(delivery(), destination({ secret }), new Date());
    expect(() => verify(secret, request.body, request.headers)).not.toThrow();
    expect(signWebhook({ id: "msg_1", timestamp: 1, body: Buffer.from("x"), secret })).toBe(
      new Webhook(secret).sign("msg_1", new Date(1000), "x"),
    );
  });
});
