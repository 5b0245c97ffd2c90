import { describe, expect, it } from "vitest";
import { describeRejectionBody } from "./rejection-body";

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

describe("describeRejectionBody", () => {
  it("is null when no body was read", () => {
    expect(describeRejectionBody(null, 0)).toBeNull();
  });

  it("shows UTF-8 as text, and says when more was read than kept", () => {
    expect(describeRejectionBody(base64('{"a":"é"}'), 10)).toEqual({
      text: '{"a":"é"}',
      binary: false,
      truncated: false,
    });
    expect(describeRejectionBody(base64("abc"), 5_000)).toMatchObject({ text: "abc", truncated: true });
  });

  it("leaves out a character cut at the end of the preview", () => {
    const cut = Buffer.from("ab€").subarray(0, 4); // "ab" and the first two bytes of "€"
    expect(describeRejectionBody(base64(cut), 5)).toMatchObject({ text: "ab", binary: false });
  });

  it("shows other bytes in hex", () => {
    expect(describeRejectionBody(base64(new Uint8Array([0xff, 0x00, 0x10])), 3)).toEqual({
      text: "ff 00 10",
      binary: true,
      truncated: false,
    });
  });
});
