import { describe, expect, it } from "vitest";
import { decodeUtf8, rawBodyFileName, rawBodyUrl } from "./raw-body";

describe("raw body download", () => {
  it("uses the contract's path", () => {
    expect(rawBodyUrl("0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d")).toBe(
      "/v1/webhook-endpoints/deliveries/0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d/raw",
    );
    expect(rawBodyUrl("a/b")).toBe("/v1/webhook-endpoints/deliveries/a%2Fb/raw");
  });

  it.each([
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["application/cloudevents+json", "json"],
    ["application/xml", "xml"],
    ["text/plain; charset=utf-8", "txt"],
    ["application/x-www-form-urlencoded", "txt"],
    ["application/octet-stream", "bin"],
    [null, "bin"],
  ])("names a %s body *.%s", (contentType, extension) => {
    expect(rawBodyFileName("abc-123", contentType)).toBe(`delivery-abc-123.${extension}`);
  });

  it("keeps the file name safe", () => {
    expect(rawBodyFileName("../../etc/passwd", null)).toBe("delivery-etcpasswd.bin");
  });

  it("decodes UTF-8 strictly, refusing bytes a shell argument cannot carry", () => {
    expect(decodeUtf8(new TextEncoder().encode('{"b": 1, "a": "ü ✓"}'))).toBe('{"b": 1, "a": "ü ✓"}');
    expect(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe("\ufeffa");
    expect(decodeUtf8(new Uint8Array([0xff, 0xfe, 0x00]))).toBeNull();
    expect(decodeUtf8(new Uint8Array([0x61, 0x00, 0x62]))).toBeNull();
  });
});
