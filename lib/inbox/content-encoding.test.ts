import * as zlib from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_DECODED_BYTES } from "@/lib/contracts/webhooks";
import { contentCodings, decodeContent } from "./content-encoding";

// Every zlib call the module makes is watched, so a test can see what was allocated: a bomb must stop at the limit
// inside zlib, not be decoded whole and measured afterwards.
vi.mock("node:zlib", async (importOriginal) => {
  const original = await importOriginal<typeof zlib>();
  return {
    ...original,
    gunzipSync: vi.fn(original.gunzipSync),
    inflateSync: vi.fn(original.inflateSync),
    inflateRawSync: vi.fn(original.inflateRawSync),
    brotliDecompressSync: vi.fn(original.brotliDecompressSync),
  };
});

const DECODERS = [zlib.gunzipSync, zlib.inflateSync, zlib.inflateRawSync, zlib.brotliDecompressSync].map((fn) =>
  vi.mocked(fn),
);

afterEach(() => DECODERS.forEach((fn) => fn.mockClear()));

const JSON_TEXT = '{"event":"push","n":1.10,"dup":1,"dup":2}';
const sent = Buffer.from(JSON_TEXT);
const text = (body: Uint8Array) => Buffer.from(body).toString("utf8");

describe("decodeContent", () => {
  it.each([
    ["gzip", zlib.gzipSync(sent)],
    ["x-gzip", zlib.gzipSync(sent)],
    ["deflate", zlib.deflateSync(sent)],
    ["br", zlib.brotliCompressSync(sent)],
  ])("decodes %s", (encoding, body) => {
    const decoded = decodeContent(body, encoding);
    expect(text(decoded.body)).toBe(JSON_TEXT);
    expect(decoded.decoding).toEqual({ encoding, status: "decoded" });
    expect(decoded.spentBytes).toBe(sent.length);
  });

  it("decodes raw deflate (no zlib wrapper) as deflate too", () => {
    const raw = zlib.deflateRawSync(sent);
    const decoded = decodeContent(raw, "deflate");
    expect(text(decoded.body)).toBe(JSON_TEXT);
    expect(decoded.decoding).toEqual({ encoding: "deflate", status: "decoded" });
    // Several levels and sizes, so the check on the wrapper's header is not lucky on one first byte.
    for (const level of [0, 1, 6, 9]) {
      for (const data of [Buffer.alloc(0), Buffer.from("x"), Buffer.alloc(100_000, "ab")]) {
        const raw = decodeContent(zlib.deflateRawSync(data, { level }), "deflate").body;
        const wrapped = decodeContent(zlib.deflateSync(data, { level }), "deflate").body;
        expect(Buffer.from(raw).equals(data), `raw, level ${level}, ${data.length} bytes`).toBe(true);
        expect(Buffer.from(wrapped).equals(data), `zlib, level ${level}, ${data.length} bytes`).toBe(true);
      }
    }
  });

  it("undoes stacked codings last to first", () => {
    const body = zlib.brotliCompressSync(zlib.gzipSync(sent)); // `gzip, br`: gzipped, then brotli
    const decoded = decodeContent(body, "gzip, br");
    expect(text(decoded.body)).toBe(JSON_TEXT);
    expect(decoded.decoding).toEqual({ encoding: "gzip, br", status: "decoded" });
    // Both stages count: what brotli gave gzip, and what gzip gave.
    expect(decoded.spentBytes).toBe(zlib.gzipSync(sent).length + sent.length);
    // The other order is not the same body.
    expect(decodeContent(body, "br, gzip").decoding?.status).toBe("invalid");
  });

  it("reads the header case- and whitespace-insensitively, without identity", () => {
    const body = zlib.gzipSync(sent);
    for (const header of ["GZIP", " gzip ", "Gzip,identity", "identity, gzip", "gzip,\t", ", gzip"]) {
      const decoded = decodeContent(body, header);
      expect(text(decoded.body), header).toBe(JSON_TEXT);
      expect(decoded.decoding, header).toEqual({ encoding: "gzip", status: "decoded" });
    }
    expect(decodeContent(zlib.brotliCompressSync(zlib.gzipSync(sent)), " X-Gzip ,BR").decoding).toEqual({
      encoding: "x-gzip, br",
      status: "decoded",
    });
  });

  it.each([undefined, "", "identity", "IDENTITY", " identity , identity "])(
    "leaves the body alone without a coding (%j)",
    (header) => {
      expect(decodeContent(sent, header)).toEqual({ body: sent, decoding: null, spentBytes: 0 });
      DECODERS.forEach((fn) => expect(fn).not.toHaveBeenCalled());
    },
  );

  it.each(["compress", "zstd", "gzip, compress", "dcb"])("reports %s as unsupported, decoding nothing", (header) => {
    const body = zlib.gzipSync(sent);
    const decoded = decodeContent(body, header);
    expect(decoded.body).toBe(body);
    expect(decoded.decoding).toEqual({ encoding: header, status: "unsupported" });
    expect(decoded.spentBytes).toBe(0);
    DECODERS.forEach((fn) => expect(fn).not.toHaveBeenCalled());
  });

  it("does not take names from Object.prototype for codings", () => {
    expect(decodeContent(sent, "constructor").decoding).toEqual({ encoding: "constructor", status: "unsupported" });
    expect(decodeContent(sent, "__proto__").decoding).toEqual({ encoding: "__proto__", status: "unsupported" });
  });

  it.each([
    ["gzip", Buffer.from("not gzip at all")],
    ["gzip", Buffer.alloc(0)],
    ["deflate", Buffer.from([0xff, 0xff, 0xff, 0xff])],
    ["br", Buffer.from("not brotli at all")],
    ["gzip", corrupted(zlib.gzipSync(sent))],
  ])("reports corrupt %s data as invalid and keeps the stored bytes", (encoding, body) => {
    const decoded = decodeContent(body, encoding);
    expect(decoded.body).toBe(body);
    expect(decoded.decoding).toEqual({ encoding, status: "invalid" });
    expect(decoded.spentBytes).toBe(MAX_DECODED_BYTES);
  });

  it.each([
    ["gzip", zlib.gzipSync(sent)],
    ["deflate", zlib.deflateSync(sent)],
    ["deflate", zlib.deflateRawSync(sent)],
    ["br", zlib.brotliCompressSync(sent)],
  ])("reports truncated %s data as invalid", (encoding, body) => {
    const truncated = body.subarray(0, body.length - 5);
    expect(decodeContent(truncated, encoding).decoding).toEqual({ encoding, status: "invalid" });
  });

  it("decodes up to the limit exactly and refuses one byte more", () => {
    const body = zlib.gzipSync(Buffer.alloc(1000, "a"));
    expect(decodeContent(body, "gzip", 1000).decoding?.status).toBe("decoded");
    expect(decodeContent(body, "gzip", 999).decoding?.status).toBe("too_large");
    // Stacked: every stage counts against the same limit.
    const stacked = zlib.brotliCompressSync(body);
    expect(decodeContent(stacked, "gzip, br", 1000 + body.length).decoding?.status).toBe("decoded");
    expect(decodeContent(stacked, "gzip, br", 1000 + body.length - 1).decoding?.status).toBe("too_large");
    expect(decodeContent(body, "gzip", 0).decoding?.status).toBe("too_large");
  });

  it.each([
    ["gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", (data: Buffer) => zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })],
  ] as const)("refuses a %s bomb as too_large without allocating it", (encoding, compress) => {
    const bomb = compress(Buffer.alloc(64 * 1_048_576));
    expect(bomb.length).toBeLessThan(1_048_576); // a body ingest accepts
    DECODERS.forEach((fn) => fn.mockClear());

    const decoded = decodeContent(bomb, encoding);
    expect(decoded.body).toBe(bomb);
    expect(decoded.decoding).toEqual({ encoding, status: "too_large" });
    expect(decoded.spentBytes).toBe(MAX_DECODED_BYTES);
    // zlib itself stopped at the limit: every call was given it and none returned a buffer.
    const calls = DECODERS.flatMap((fn) =>
      fn.mock.calls.map((call, index) => ({ call, result: fn.mock.results[index] })),
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]!.call[1]).toEqual({ maxOutputLength: MAX_DECODED_BYTES });
    expect(calls[0]!.result).toMatchObject({ type: "throw", value: { code: "ERR_BUFFER_TOO_LARGE" } });
  });

  it("refuses a stacked bomb within the limit across its stages", () => {
    // 64 MiB of zeros gzipped (64 KiB) then brotli-compressed: the brotli stage is small, the gzip stage is the bomb.
    const bomb = zlib.brotliCompressSync(zlib.gzipSync(Buffer.alloc(64 * 1_048_576)));
    const decoded = decodeContent(bomb, "gzip, br");
    expect(decoded.decoding).toEqual({ encoding: "gzip, br", status: "too_large" });
    const gunzipLimit = vi.mocked(zlib.gunzipSync).mock.calls[0]![1]!.maxOutputLength!;
    const brotliOutput = (vi.mocked(zlib.brotliDecompressSync).mock.results[0]!.value as Buffer).length;
    expect(gunzipLimit).toBe(MAX_DECODED_BYTES - brotliOutput);
  });
});

describe("contentCodings", () => {
  it("lists the codings in the order applied, lower-cased, without identity or empty items", () => {
    expect(contentCodings(" GZIP , identity,, Br ")).toEqual(["gzip", "br"]);
    expect(contentCodings(undefined)).toEqual([]);
    expect(contentCodings("identity")).toEqual([]);
  });
});

/** The gzip member with one byte of its compressed data flipped: the CRC (or the data itself) no longer checks. */
function corrupted(gzip: Buffer): Buffer {
  const copy = Buffer.from(gzip);
  copy[12] = copy[12]! ^ 0xff;
  return copy;
}
