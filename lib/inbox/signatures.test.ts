import { createHmac } from "node:crypto";
import { sign as signGitHub } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  SIGNATURE_SCHEMES,
  secretProblem,
  verifySignature,
  type SignatureFailure,
  type SignatureScheme,
  type VerifySignatureOptions,
} from "./signatures";

const NOW = new Date("2026-03-01T12:00:00Z");
const NOW_SECONDS = NOW.getTime() / 1000;
const PAYLOAD = '{"id":"evt_1","type":"invoice.paid","amount":4200,"note":"café ✓"}';
const BODY = Buffer.from(PAYLOAD);
// Not UTF-8 (a lone continuation byte, 0xff, a broken two-byte and a truncated three-byte sequence): any decode to a
// string would replace these bytes, so only a byte-exact verifier accepts a signature over them.
const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0xe2, 0x82]);

/** The body with its first byte changed. */
function tampered(body: Buffer): Buffer {
  const copy = Buffer.from(body);
  copy.writeUInt8(copy.readUInt8(0) ^ 0x01, 0);
  return copy;
}

function hmac(key: string | Buffer, ...parts: (string | Buffer)[]): Buffer {
  const mac = createHmac("sha256", key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function verify(scheme: SignatureScheme, options: Omit<VerifySignatureOptions, "scheme">) {
  return verifySignature({ scheme, now: NOW, ...options });
}

function passed(scheme: SignatureScheme) {
  return { scheme, valid: true, reason: null };
}

function failed(scheme: SignatureScheme, reason: SignatureFailure) {
  return { scheme, valid: false, reason };
}

describe("standard-webhooks", () => {
  const scheme = "standard-webhooks";
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const otherSecret = "whsec_Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0";
  const messageId = "msg_2Lk3ZnGmCZpWTxYUeDvbWzYrQ9a";

  function headers(prefix: "webhook-" | "svix-", signature: string, timestamp = NOW_SECONDS) {
    return { [`${prefix}id`]: messageId, [`${prefix}timestamp`]: String(timestamp), [`${prefix}signature`]: signature };
  }
  function signed(options: { secret?: string; at?: Date; prefix?: "webhook-" | "svix-" } = {}) {
    const at = options.at ?? NOW;
    const signature = new Webhook(options.secret ?? secret).sign(messageId, at, PAYLOAD);
    return headers(options.prefix ?? "webhook-", signature, at.getTime() / 1000);
  }

  it("accepts a signature made by the standardwebhooks library", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed() })).toEqual(passed(scheme));
  });

  it("accepts the svix- header names", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed({ prefix: "svix-" }) })).toEqual(passed(scheme));
  });

  it("accepts a secret without the whsec_ prefix", () => {
    const bare = secret.slice("whsec_".length);
    expect(verify(scheme, { secret: bare, body: BODY, headers: signed() })).toEqual(passed(scheme));
  });

  it("rejects a body changed by one byte", () => {
    expect(verify(scheme, { secret, body: tampered(BODY), headers: signed() })).toEqual(failed(scheme, "mismatch"));
  });

  it("rejects a signature made with another secret", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed({ secret: otherSecret }) })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"])("reports a missing %s", (name) => {
    const incomplete: Record<string, string> = signed();
    delete incomplete[name];
    expect(verify(scheme, { secret, body: BODY, headers: incomplete })).toEqual(failed(scheme, "missing_header"));
  });

  it("does not complete webhook- headers with svix- ones", () => {
    const mixed = { ...signed({ prefix: "svix-" }), "webhook-id": messageId };
    expect(verify(scheme, { secret, body: BODY, headers: mixed })).toEqual(failed(scheme, "missing_header"));
  });

  it.each([
    ["a signature without a version", "garbage"],
    ["a v1 signature that is not base64", "v1,not*base64*at*all"],
    ["a v1 signature of the wrong length", "v1,AAAA"],
    ["only versions we cannot check", `v1a,${Buffer.alloc(64).toString("base64")}`],
  ])("reports %s as malformed", (_, signature) => {
    expect(verify(scheme, { secret, body: BODY, headers: headers("webhook-", signature) })).toEqual(
      failed(scheme, "malformed_header"),
    );
  });

  it("reports a timestamp that is not unix seconds as malformed", () => {
    const badTimestamp = { ...signed(), "webhook-timestamp": "2026-03-01T12:00:00Z" };
    expect(verify(scheme, { secret, body: BODY, headers: badTimestamp })).toEqual(failed(scheme, "malformed_header"));
  });

  it("accepts any v1 entry and ignores other versions", () => {
    const right = signed()["webhook-signature"];
    const wrong = signed({ secret: otherSecret })["webhook-signature"];
    const list = `v1a,${Buffer.alloc(64, 7).toString("base64")} ${wrong} ${right}`;
    expect(verify(scheme, { secret, body: BODY, headers: headers("webhook-", list) })).toEqual(passed(scheme));
  });

  it("applies the tolerance both ways, inclusive at 300 s by default", () => {
    const at = (offset: number) => signed({ at: new Date(NOW.getTime() + offset * 1000) });
    expect(verify(scheme, { secret, body: BODY, headers: at(-300) })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: BODY, headers: at(300) })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: BODY, headers: at(-301) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
    expect(verify(scheme, { secret, body: BODY, headers: at(301) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
    expect(verify(scheme, { secret, body: BODY, headers: at(-301), toleranceSeconds: 600 })).toEqual(passed(scheme));
  });

  it("reports a forged signature as a mismatch even when it is also stale", () => {
    const stale = signed({ secret: otherSecret, at: new Date(NOW.getTime() - 3_600_000) });
    expect(verify(scheme, { secret, body: BODY, headers: stale })).toEqual(failed(scheme, "mismatch"));
  });

  it("verifies a body that is not UTF-8 byte for byte", () => {
    // The library's sign() turns a Buffer into a string (UTF-8 decode) first, so sign the bytes per the spec:
    // HMAC-SHA256(base64-decoded secret, `${id}.${timestamp}.` + body), base64.
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const signature = `v1,${hmac(key, `${messageId}.${NOW_SECONDS}.`, BINARY).toString("base64")}`;
    const binaryHeaders = headers("webhook-", signature);
    expect(verify(scheme, { secret, body: BINARY, headers: binaryHeaders })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: tampered(BINARY), headers: binaryHeaders })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it.each(["whsec_not base64!", "whsec_", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS"])(
    "refuses the unusable secret %j",
    (bad) => {
      expect(verify(scheme, { secret: bad, body: BODY, headers: signed() })).toEqual(failed(scheme, "invalid_secret"));
    },
  );
});

describe("stripe", () => {
  const scheme = "stripe";
  const secret = "whsec_8a3bK2pQ9xR4tL7mN1vC6zY0wE5uH3jF";
  const otherSecret = "whsec_0000000000000000000000000000000";

  function signed(options: { secret?: string; timestamp?: number } = {}) {
    const header = Stripe.webhooks.generateTestHeaderString({
      payload: PAYLOAD,
      secret: options.secret ?? secret,
      timestamp: options.timestamp ?? NOW_SECONDS,
    });
    return { "stripe-signature": header };
  }
  function v1Of(header: { "stripe-signature": string }): string {
    return header["stripe-signature"].replace(/^t=\d+,v1=/, "");
  }

  it("accepts a header made by the stripe library", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed() })).toEqual(passed(scheme));
  });

  it("rejects a body changed by one byte", () => {
    expect(verify(scheme, { secret, body: tampered(BODY), headers: signed() })).toEqual(failed(scheme, "mismatch"));
  });

  it("rejects a signature made with another secret", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed({ secret: otherSecret }) })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it("uses the whsec_ secret verbatim, not base64-decoded", () => {
    const signature = hmac(Buffer.from(secret.slice("whsec_".length), "base64"), `${NOW_SECONDS}.`, BODY).toString(
      "hex",
    );
    const decodedKey = { "stripe-signature": `t=${NOW_SECONDS},v1=${signature}` };
    expect(verify(scheme, { secret, body: BODY, headers: decodedKey })).toEqual(failed(scheme, "mismatch"));
  });

  it("reports a missing Stripe-Signature header", () => {
    expect(verify(scheme, { secret, body: BODY, headers: {} })).toEqual(failed(scheme, "missing_header"));
  });

  it.each([
    ["no timestamp", () => `v1=${v1Of(signed())}`],
    ["a timestamp that is not a number", () => `t=soon,v1=${v1Of(signed())}`],
    ["two timestamps", () => `t=${NOW_SECONDS},t=${NOW_SECONDS - 1},v1=${v1Of(signed())}`],
    ["no v1 signature", () => `t=${NOW_SECONDS},v0=${v1Of(signed())}`],
    ["a v1 signature that is not hex", () => `t=${NOW_SECONDS},v1=${"z".repeat(64)}`],
    ["garbage", () => "not a stripe header"],
  ])("reports %s as malformed", (_, header) => {
    expect(verify(scheme, { secret, body: BODY, headers: { "stripe-signature": header() } })).toEqual(
      failed(scheme, "malformed_header"),
    );
  });

  it("accepts any v1 signature and ignores v0", () => {
    const header = `t=${NOW_SECONDS},v1=${v1Of(signed({ secret: otherSecret }))},v1=${v1Of(signed())},v0=${"0".repeat(64)}`;
    expect(verify(scheme, { secret, body: BODY, headers: { "stripe-signature": header } })).toEqual(passed(scheme));
  });

  it("applies the tolerance both ways", () => {
    // Stripe's own verifier only rejects old timestamps; a far-future one is just as much a replay risk.
    expect(verify(scheme, { secret, body: BODY, headers: signed({ timestamp: NOW_SECONDS - 300 }) })).toEqual(
      passed(scheme),
    );
    expect(verify(scheme, { secret, body: BODY, headers: signed({ timestamp: NOW_SECONDS - 301 }) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
    expect(verify(scheme, { secret, body: BODY, headers: signed({ timestamp: NOW_SECONDS + 301 }) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
  });

  it("verifies a body that is not UTF-8 byte for byte", () => {
    // generateTestHeaderString interpolates the payload into a string, so sign the bytes per Stripe's docs:
    // HMAC-SHA256(secret, `${t}.` + body), hex.
    const header = `t=${NOW_SECONDS},v1=${hmac(secret, `${NOW_SECONDS}.`, BINARY).toString("hex")}`;
    expect(verify(scheme, { secret, body: BINARY, headers: { "stripe-signature": header } })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: tampered(BINARY), headers: { "stripe-signature": header } })).toEqual(
      failed(scheme, "mismatch"),
    );
  });
});

describe("github", () => {
  const scheme = "github";
  const secret = "It's a Secret to Everybody";

  async function signed(options: { secret?: string } = {}) {
    return { "x-hub-signature-256": await signGitHub(options.secret ?? secret, PAYLOAD) };
  }

  it("accepts a signature made by @octokit/webhooks-methods", async () => {
    expect(verify(scheme, { secret, body: BODY, headers: await signed() })).toEqual(passed(scheme));
  });

  it("matches GitHub's documented test values", () => {
    // docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
    const headers = {
      "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    };
    expect(verify(scheme, { secret, body: Buffer.from("Hello, World!"), headers })).toEqual(passed(scheme));
  });

  it("rejects a body changed by one byte", async () => {
    expect(verify(scheme, { secret, body: tampered(BODY), headers: await signed() })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it("rejects a signature made with another secret", async () => {
    expect(verify(scheme, { secret, body: BODY, headers: await signed({ secret: "another" }) })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it("reports a missing X-Hub-Signature-256 even when the legacy SHA-1 header is there", () => {
    const legacyOnly = { "x-hub-signature": `sha1=${createHmac("sha1", secret).update(BODY).digest("hex")}` };
    expect(verify(scheme, { secret, body: BODY, headers: legacyOnly })).toEqual(failed(scheme, "missing_header"));
  });

  it.each([
    ["a bare digest", "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"],
    ["another algorithm", "sha1=0123456789abcdef0123456789abcdef01234567"],
    ["a digest that is not hex", `sha256=${"g".repeat(64)}`],
    ["a truncated digest", "sha256=757107ea"],
  ])("reports %s as malformed", (_, value) => {
    expect(verify(scheme, { secret, body: BODY, headers: { "x-hub-signature-256": value } })).toEqual(
      failed(scheme, "malformed_header"),
    );
  });

  it("verifies a body that is not UTF-8 byte for byte", () => {
    // sign() only takes a string payload, so sign the bytes per GitHub's docs: HMAC-SHA256(secret, body), hex.
    const headers = { "x-hub-signature-256": `sha256=${hmac(secret, BINARY).toString("hex")}` };
    expect(verify(scheme, { secret, body: BINARY, headers })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: tampered(BINARY), headers })).toEqual(failed(scheme, "mismatch"));
  });
});

// Shopify publishes no signing helper that works offline. Per shopify.dev/docs/apps/build/webhooks/subscribe/https
// ("Validate the origin of your webhook"): X-Shopify-Hmac-SHA256 = base64(HMAC-SHA256(client secret, raw body)).
describe("shopify", () => {
  const scheme = "shopify";
  const secret = "shpss_0123456789abcdef0123456789abcdef";
  const order = Buffer.from('{"id":820982911946154508,"email":"jon@example.com","total_price":"199.00"}');
  // Worked example computed outside Node: printf '%s' "$order" | openssl dgst -sha256 -hmac "$secret" -binary | base64
  const orderHeaders = { "x-shopify-hmac-sha256": "pUCI8IuXPwFY9ev57jC7O3/ZQxv0AkjUJm6R5D169DE=" };

  it("accepts the worked example", () => {
    expect(verify(scheme, { secret, body: order, headers: orderHeaders })).toEqual(passed(scheme));
  });

  it("rejects a body changed by one byte", () => {
    expect(verify(scheme, { secret, body: tampered(order), headers: orderHeaders })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it("rejects a signature made with another secret", () => {
    const headers = { "x-shopify-hmac-sha256": hmac("shpss_another", order).toString("base64") };
    expect(verify(scheme, { secret, body: order, headers })).toEqual(failed(scheme, "mismatch"));
  });

  it("reports a missing X-Shopify-Hmac-SHA256 header", () => {
    expect(verify(scheme, { secret, body: order, headers: { "x-shopify-topic": "orders/create" } })).toEqual(
      failed(scheme, "missing_header"),
    );
  });

  it.each([
    ["a hex digest", hmac(secret, order).toString("hex")],
    ["text that is not base64", "not base64 at all"],
    ["a truncated digest", "pUCI8IuXPwFY9ev57jC7O3/Z"],
  ])("reports %s as malformed", (_, value) => {
    expect(verify(scheme, { secret, body: order, headers: { "x-shopify-hmac-sha256": value } })).toEqual(
      failed(scheme, "malformed_header"),
    );
  });

  it("verifies a body that is not UTF-8 byte for byte", () => {
    const headers = { "x-shopify-hmac-sha256": hmac(secret, BINARY).toString("base64") };
    expect(verify(scheme, { secret, body: BINARY, headers })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: tampered(BINARY), headers })).toEqual(failed(scheme, "mismatch"));
  });
});

// Slack's SDKs verify but do not sign. Per docs.slack.dev/authentication/verifying-requests-from-slack:
// X-Slack-Signature = "v0=" + hex(HMAC-SHA256(signing secret, `v0:${X-Slack-Request-Timestamp}:` + raw body)).
describe("slack", () => {
  const scheme = "slack";
  // The worked example from that page.
  const secret = "8f742231b10e8888abcd99yyyzzz85a5";
  const exampleTimestamp = 1531420618;
  const exampleBody = Buffer.from(
    "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar" +
      "&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com" +
      "%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
  );
  const exampleHeaders = {
    "x-slack-request-timestamp": String(exampleTimestamp),
    "x-slack-signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  };
  const exampleNow = new Date((exampleTimestamp + 10) * 1000);

  function signed(body: Buffer, timestamp = NOW_SECONDS, key = secret) {
    return {
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": `v0=${hmac(key, `v0:${timestamp}:`, body).toString("hex")}`,
    };
  }

  it("accepts Slack's worked example", () => {
    expect(verify(scheme, { secret, body: exampleBody, headers: exampleHeaders, now: exampleNow })).toEqual(
      passed(scheme),
    );
  });

  it("rejects a body changed by one byte", () => {
    expect(verify(scheme, { secret, body: tampered(exampleBody), headers: exampleHeaders, now: exampleNow })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it("rejects a signature made with another secret", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed(BODY, NOW_SECONDS, "another") })).toEqual(
      failed(scheme, "mismatch"),
    );
  });

  it.each(["x-slack-signature", "x-slack-request-timestamp"])("reports a missing %s", (name) => {
    const incomplete: Record<string, string> = signed(BODY);
    delete incomplete[name];
    expect(verify(scheme, { secret, body: BODY, headers: incomplete })).toEqual(failed(scheme, "missing_header"));
  });

  it.each([
    ["another version", { "x-slack-signature": exampleHeaders["x-slack-signature"].replace("v0=", "v1=") }],
    ["a bare digest", { "x-slack-signature": exampleHeaders["x-slack-signature"].slice(3) }],
    ["a timestamp that is not a number", { "x-slack-request-timestamp": "yesterday" }],
  ])("reports %s as malformed", (_, change) => {
    const headers = { ...exampleHeaders, ...change };
    expect(verify(scheme, { secret, body: exampleBody, headers, now: exampleNow })).toEqual(
      failed(scheme, "malformed_header"),
    );
  });

  it("applies the tolerance both ways", () => {
    expect(verify(scheme, { secret, body: BODY, headers: signed(BODY, NOW_SECONDS + 300) })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: BODY, headers: signed(BODY, NOW_SECONDS - 301) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
    expect(verify(scheme, { secret, body: BODY, headers: signed(BODY, NOW_SECONDS + 301) })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
    // Slack's example is from 2018: authentic, but far outside the window today.
    expect(verify(scheme, { secret, body: exampleBody, headers: exampleHeaders })).toEqual(
      failed(scheme, "timestamp_out_of_tolerance"),
    );
  });

  it("verifies a body that is not UTF-8 byte for byte", () => {
    expect(verify(scheme, { secret, body: BINARY, headers: signed(BINARY) })).toEqual(passed(scheme));
    expect(verify(scheme, { secret, body: tampered(BINARY), headers: signed(BINARY) })).toEqual(
      failed(scheme, "mismatch"),
    );
  });
});

describe("hostile input", () => {
  const headerNames = [
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "stripe-signature",
    "x-hub-signature-256",
    "x-shopify-hmac-sha256",
    "x-slack-signature",
    "x-slack-request-timestamp",
  ];
  const garbage = [
    " ",
    "=,=,= , ,,",
    "v1,".repeat(100_000),
    "t=1,".repeat(100_000),
    `sha256=${"a".repeat(1_000_000)}`,
    "A".repeat(1_000_000),
    "\u0000\uffff\ud800 🙃",
    "9".repeat(400),
  ];

  it.each(SIGNATURE_SCHEMES)("%s fails without throwing on garbled headers", (scheme) => {
    for (const value of garbage) {
      const headers = Object.fromEntries(headerNames.map((name) => [name, value]));
      const result = verify(scheme, { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", body: BODY, headers });
      expect(result.valid).toBe(false);
      expect(["missing_header", "malformed_header"]).toContain(result.reason);
    }
  });

  it.each(SIGNATURE_SCHEMES)("%s refuses an empty secret", (scheme) => {
    expect(verify(scheme, { secret: "", body: BODY, headers: {} })).toEqual(failed(scheme, "invalid_secret"));
  });
});

describe("secretProblem", () => {
  it.each<[SignatureScheme, string]>([
    ["standard-webhooks", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["standard-webhooks", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    ["stripe", "whsec_8a3bK2pQ9xR4tL7mN1vC6zY0wE5uH3jF"],
    ["github", "It's a Secret to Everybody"],
    ["shopify", "shpss_0123456789abcdef0123456789abcdef"],
    ["shopify", "6f1e5c2b9a8d7e4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9e8d7c6b5a4f3e2d1c0b"],
    ["slack", "8f742231b10e8888abcd99yyyzzz85a5"],
  ])("accepts a %s secret %j", (scheme, secret) => {
    expect(secretProblem(scheme, secret)).toBeNull();
  });

  it.each<[SignatureScheme, string, RegExp]>([
    ["github", "", /empty/],
    ["slack", "8f742231b10e8888abcd99yyyzzz85a5\n", /whitespace/],
    ["shopify", " shpss_0123456789abcdef", /whitespace/],
    ["standard-webhooks", "whsec_not base64!", /base64/],
    ["standard-webhooks", "whsec_", /base64/],
    ["stripe", "sk_test_51HxYzAbCdEf", /whsec_/],
  ])("refuses a %s secret %j", (scheme, secret, message) => {
    expect(secretProblem(scheme, secret)).toMatch(message);
  });

  it.each(SIGNATURE_SCHEMES)("refuses an empty %s secret", (scheme) => {
    expect(secretProblem(scheme, "")).not.toBeNull();
  });
});
