import { describe, expect, it } from "vitest";
import { dedupKey } from "./dedup-key";
import type { SignatureResult } from "./signatures";

const verified: SignatureResult = { scheme: "github", valid: true, reason: null };
const forged: SignatureResult = { scheme: "github", valid: false, reason: "mismatch" };
const body = Buffer.from('{"action":"opened"}');
const headers = { "x-github-delivery": "d-1" };

describe("dedupKey", () => {
  it("is the sender's message id on an endpoint that checks no signature", () => {
    expect(dedupKey(headers, body, null)).toBe("x-github-delivery:d-1");
    expect(dedupKey({}, body, null)).toBeNull();
  });

  it("claims nothing for a delivery whose signature failed, whatever the reason", () => {
    expect(dedupKey(headers, body, forged)).toBeNull();
    expect(dedupKey(headers, body, { ...forged, reason: "timestamp_out_of_tolerance" })).toBeNull();
  });

  it("binds a verified delivery's message id to its body", () => {
    const key = dedupKey(headers, body, verified);
    expect(key).toMatch(/^verified:x-github-delivery:d-1:body-sha256:[0-9a-f]{64}$/);
    // A retry (same id, same bytes, signed again) makes the same claim.
    expect(dedupKey({ ...headers }, Buffer.from(body), verified)).toBe(key);
    // Another body under that id (a genuine body replayed with someone else's id) does not.
    expect(dedupKey(headers, Buffer.from('{"action":"closed"}'), verified)).not.toBe(key);
    expect(dedupKey({ "x-github-delivery": "d-2" }, body, verified)).not.toBe(key);
    expect(dedupKey({}, body, verified)).toBeNull();
  });

  it("never matches a claim made while the endpoint checked nothing", () => {
    const unsignedLookalike = dedupKey({ "x-github-delivery": "verified:x" }, body, null);
    expect(unsignedLookalike?.startsWith("verified:")).toBe(false);
  });
});
