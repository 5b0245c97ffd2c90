import type * as Crypto from "node:crypto";
import { createHmac } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { decodeCursor, decodeOffsetCursor, encodeCursor, encodeOffsetCursor } from "@/lib/cursor";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { verifySignature, type SignatureScheme } from "@/lib/inbox/signatures";

/*
 * Every comparison of a secret goes through crypto.timingSafeEqual, for matches and (which is what matters) for
 * mismatches of the right length: a plain `===` stops at the first differing byte and tells a patient attacker how
 * much of a forgery was right. These tests watch timingSafeEqual being called; they do not measure time.
 * (API keys are compared in lib/auth/api-keys.ts after a lookup by hash: see test/security/secrets.integration.test.ts.)
 */

const spy = vi.hoisted(() => ({ calls: [] as [number, number][] }));

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  const timingSafeEqual: typeof actual.timingSafeEqual = (a, b) => {
    spy.calls.push([a.byteLength, b.byteLength]);
    return actual.timingSafeEqual(a, b);
  };
  return { ...actual, default: { ...actual, timingSafeEqual }, timingSafeEqual };
});

beforeAll(() => {
  process.env.SIGNALBOX_SECRET ??= "unit-test-secret-unit-test-secret-0123";
});

beforeEach(() => {
  spy.calls.length = 0;
});

/** The same text with one character changed, keeping its length. */
function flipLast(text: string, alphabet = "0123456789abcdef"): string {
  const last = text.at(-1)!;
  const replacement = alphabet[(alphabet.indexOf(last) + 1) % alphabet.length] ?? alphabet[0]!;
  return `${text.slice(0, -1)}${replacement}`;
}

function expectConstantTimeCompared(): void {
  expect(spy.calls.length, "crypto.timingSafeEqual was used").toBeGreaterThan(0);
  for (const [a, b] of spy.calls) expect(a).toBe(b);
}

describe("cursor signatures (lib/cursor.ts)", () => {
  const scope = { workspaceId: "ws_a", list: "deliveries" };
  const base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

  it("checks a keyset cursor's HMAC in constant time, accepted or refused", () => {
    const cursor = encodeCursor({ createdAt: new Date("2026-11-22T10:00:00.000Z"), id: "x" }, scope);
    expect(decodeCursor(cursor, scope).id).toBe("x");
    expectConstantTimeCompared();

    spy.calls.length = 0;
    expect(() => decodeCursor(flipLast(cursor, base64url), scope)).toThrow(/cursor/i);
    expectConstantTimeCompared();
  });

  it("checks an offset cursor's HMAC in constant time", () => {
    const cursor = encodeOffsetCursor(5, scope);
    expect(decodeOffsetCursor(cursor, scope)).toBe(5);
    spy.calls.length = 0;
    expect(() => decodeOffsetCursor(flipLast(cursor, base64url), scope)).toThrow(/cursor/i);
    expectConstantTimeCompared();
  });
});

describe("dashboard passwords (lib/auth/password.ts)", () => {
  it("compares the derived key in constant time, right or wrong", async () => {
    const stored = await hashPassword("correct horse battery staple");
    spy.calls.length = 0;
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expectConstantTimeCompared();
    spy.calls.length = 0;
    expect(await verifyPassword("correct horse battery stapLe", stored)).toBe(false);
    expectConstantTimeCompared();
  });
});

describe("webhook signatures (lib/inbox/signatures.ts)", () => {
  const body = Buffer.from('{"event":"paid"}');
  const now = new Date("2026-03-01T12:00:00Z");
  const ts = String(now.getTime() / 1000);
  const hmac = (key: string | Buffer, ...parts: (string | Buffer)[]) => {
    const mac = createHmac("sha256", key);
    for (const part of parts) mac.update(part);
    return mac.digest();
  };
  const standardKey = Buffer.from("standard-webhooks-key-material!!");

  // For each scheme: its secret, and the headers of a correctly signed request.
  const signed: Record<
    SignatureScheme,
    {
      secret: string;
      headers: Record<string, string>;
      forge: (headers: Record<string, string>) => Record<string, string>;
    }
  > = {
    "standard-webhooks": {
      secret: `whsec_${standardKey.toString("base64")}`,
      headers: {
        "webhook-id": "msg_1",
        "webhook-timestamp": ts,
        "webhook-signature": `v1,${hmac(standardKey, `msg_1.${ts}.`, body).toString("base64")}`,
      },
      forge: (headers) => ({ ...headers, "webhook-signature": `v1,${hmac("wrong", body).toString("base64")}` }),
    },
    stripe: {
      secret: "whsec_stripe_secret",
      headers: { "stripe-signature": `t=${ts},v1=${hmac("whsec_stripe_secret", `${ts}.`, body).toString("hex")}` },
      forge: () => ({ "stripe-signature": `t=${ts},v1=${hmac("whsec_other_secret", `${ts}.`, body).toString("hex")}` }),
    },
    github: {
      secret: "github-secret",
      headers: { "x-hub-signature-256": `sha256=${hmac("github-secret", body).toString("hex")}` },
      forge: (headers) => ({ "x-hub-signature-256": flipLast(headers["x-hub-signature-256"]!) }),
    },
    shopify: {
      secret: "shopify-secret",
      headers: { "x-shopify-hmac-sha256": hmac("shopify-secret", body).toString("base64") },
      forge: () => ({ "x-shopify-hmac-sha256": hmac("another-secret", body).toString("base64") }),
    },
    slack: {
      secret: "slack-secret",
      headers: {
        "x-slack-request-timestamp": ts,
        "x-slack-signature": `v0=${hmac("slack-secret", `v0:${ts}:`, body).toString("hex")}`,
      },
      forge: (headers) => ({ ...headers, "x-slack-signature": flipLast(headers["x-slack-signature"]!) }),
    },
  };

  for (const [scheme, { secret, headers, forge }] of Object.entries(signed) as [
    SignatureScheme,
    (typeof signed)[SignatureScheme],
  ][]) {
    it(`${scheme}: compares the HMAC in constant time, valid or forged`, () => {
      expect(verifySignature({ scheme, secret, body, headers, now })).toEqual({ scheme, valid: true, reason: null });
      expectConstantTimeCompared();
      spy.calls.length = 0;
      expect(verifySignature({ scheme, secret, body, headers: forge(headers), now })).toEqual({
        scheme,
        valid: false,
        reason: "mismatch",
      });
      expectConstantTimeCompared();
    });
  }
});
