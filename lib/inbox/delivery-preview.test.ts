import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DELIVERY_PREVIEW_CHARS } from "@/lib/contracts/webhooks";
import { deliveryPreview, PREVIEW_SOURCE_BYTES } from "./delivery-preview";

/** The preview of a whole stored body, from the slice SQL would read. */
function preview(body: string | Uint8Array, contentType: string | null, contentEncoding?: string): string {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  return deliveryPreview({
    head: bytes.subarray(0, PREVIEW_SOURCE_BYTES),
    sizeBytes: bytes.length,
    contentType,
    contentEncoding,
  });
}

const chars = (text: string) => Array.from(text).length;

describe("deliveryPreview", () => {
  it("shows JSON compacted, whitespace inside strings kept", () => {
    const body = JSON.stringify({ action: "opened", title: "two  spaces\tand a tab", n: [1, 2] }, null, 2);
    expect(preview(body, "application/json")).toBe('{"action":"opened","title":"two  spaces\\tand a tab","n":[1,2]}');
    expect(preview('  [ 1 , "a b" ]\n', "application/vnd.api+json")).toBe('[1,"a b"]');
  });

  it("keeps escaped quotes inside strings and whitespace after them", () => {
    expect(preview('{ "q" : "say \\"hi  there\\"" , "b" : 1 }', "application/json")).toBe(
      '{"q":"say \\"hi  there\\"","b":1}',
    );
  });

  it("recognises JSON sent without a JSON content type", () => {
    expect(preview('{ "a": 1 }', "text/plain")).toBe('{"a":1}');
    expect(preview('{ "a": 1 }', null)).toBe('{"a":1}');
  });

  it(`cuts at ${DELIVERY_PREVIEW_CHARS} characters with an ellipsis`, () => {
    const long = preview(JSON.stringify({ text: "x".repeat(500) }), "application/json");
    expect(chars(long)).toBe(DELIVERY_PREVIEW_CHARS + 1);
    expect(long.endsWith("x…")).toBe(true);
  });

  it("marks a body longer than the slice as cut even when the preview is short", () => {
    // Pretty-printed: the slice holds only whitespace after the opening brace and the first key.
    const body = `{\n${" ".repeat(PREVIEW_SOURCE_BYTES)}"a": 1}`;
    expect(preview(body, "application/json")).toBe("{…");
  });

  it("shows form fields as name=value pairs, decoded", () => {
    expect(
      preview("token=abc&text=hello+world&user_name=J%C3%BCrgen&empty=", "application/x-www-form-urlencoded"),
    ).toBe("token=abc text=hello world user_name=Jürgen empty");
    expect(preview("a=1&b=2", "application/x-www-form-urlencoded; charset=utf-8")).toBe("a=1 b=2");
  });

  it("lists multipart field names, file parts with their filename, even when a part is binary", () => {
    const body = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n'),
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="photo"; filename="cat.png"\r\n'),
      Buffer.from("Content-Type: image/png\r\n\r\n"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe]),
      Buffer.from("\r\n--XyZ--\r\n"),
    ]);
    expect(preview(body, "multipart/form-data; boundary=XyZ")).toBe("fields: title, photo (cat.png)");
    expect(preview("not really multipart", "multipart/form-data; boundary=q")).toBe("multipart form");
  });

  it("calls binary bodies binary, with their size", () => {
    expect(preview(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), "image/png")).toBe("binary, 8 B");
    expect(preview(new Uint8Array(3200).fill(0), "application/octet-stream")).toBe("binary, 3.2 KB");
    expect(preview(new Uint8Array(1_500_000).fill(1), null)).toBe("binary, 1.5 MB");
  });

  it("calls invalid UTF-8 binary", () => {
    expect(preview(new Uint8Array([0x61, 0x62, 0xc3, 0x28, 0x63]), "text/plain")).toBe("binary, 5 B");
    // A lone continuation byte at the very end of a whole body is invalid too, not a cut character.
    expect(preview(new Uint8Array([0x61, 0x62, 0xe2, 0x82]), "text/plain")).toBe("binary, 4 B");
  });

  it("drops a multi-byte character the slice cuts in half", () => {
    // Each "€" is three bytes: after "ab", 340 of them fill 1,022 bytes of the slice and the 341st is cut after its
    // first two. Not binary, no replacement character.
    const body = "ab" + "€".repeat(400);
    expect(Buffer.from(body).subarray(0, PREVIEW_SOURCE_BYTES).toString()).toContain("\ufffd");
    expect(preview(body, "text/plain")).toBe(`ab${"€".repeat(DELIVERY_PREVIEW_CHARS - 2)}…`);
    // An emoji (four bytes, two UTF-16 units) at the 120th character is never split either.
    const emoji = preview("b".repeat(DELIVERY_PREVIEW_CHARS - 1) + "😀".repeat(5), "text/plain");
    expect(emoji).toBe(`${"b".repeat(DELIVERY_PREVIEW_CHARS - 1)}😀…`);
  });

  it("collapses whitespace of text", () => {
    expect(preview("  line one\n\n\tline two  ", "text/plain")).toBe("line one line two");
    expect(preview("<a>\n  <b>1</b>\n</a>", "application/xml")).toBe("<a> <b>1</b> </a>");
  });

  it("decodes compressed bodies (gzip, deflate either way, br), from a slice of a larger one too", () => {
    const json = JSON.stringify({
      event: "push",
      items: Array.from({ length: 2000 }, (_, i) => `item-${i}-${i * 7919}`),
    });
    const expected = `${json.slice(0, DELIVERY_PREVIEW_CHARS)}…`;
    for (const [encoding, compressed] of [
      ["gzip", gzipSync(json)],
      ["x-gzip", gzipSync(json)],
      ["deflate", deflateSync(json)],
      ["deflate", deflateRawSync(json)],
      ["br", brotliCompressSync(json)],
    ] as const) {
      expect(compressed.length, encoding).toBeGreaterThan(PREVIEW_SOURCE_BYTES);
      expect(preview(compressed, "application/json", encoding), encoding).toBe(expected);
    }
    expect(preview(gzipSync('{ "small": true }'), "application/json", "gzip")).toBe('{"small":true}');
  });

  it("labels compressed bodies it does not decode: corrupt, unknown or stacked codings, bombs", () => {
    expect(preview(new Uint8Array([1, 2, 3, 4]), "application/json", "gzip")).toBe("gzip, 4 B");
    expect(preview("plain", "text/plain", "zstd")).toBe("zstd, 5 B");
    const stacked = gzipSync(gzipSync("hello"));
    expect(preview(stacked, "text/plain", "gzip, gzip")).toBe(`gzip, gzip, ${stacked.length} B`);
    const bomb = gzipSync(Buffer.alloc(50_000_000));
    expect(preview(bomb, "application/json", "gzip")).toMatch(/^gzip, \d+\.\d KB$/);
  });

  it("is empty for an empty body", () => {
    expect(preview("", "application/json")).toBe("");
  });
});
