import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from "node:zlib";
import type { z } from "zod";
import { MAX_DECODED_BYTES, type contentDecodingSchema } from "@/lib/contracts/webhooks";

export type ContentDecoding = z.infer<typeof contentDecodingSchema>;

type Decoder = (body: Uint8Array, options: ZlibOptions) => Buffer;

/** `deflate` in the wild is zlib-wrapped (RFC 9110) or, from some servers, raw deflate: the wrapper's header tells. */
const inflateEither: Decoder = (body, options) => (hasZlibHeader(body) ? inflateSync : inflateRawSync)(body, options);

const DECODERS: Record<string, Decoder> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateEither,
  br: brotliDecompressSync,
};

/** RFC 1950: compression method 8 (deflate), a window of at most 32 KiB, and a header that is a multiple of 31. */
export function hasZlibHeader(body: Uint8Array): boolean {
  const [method, flags] = body;
  return (
    method !== undefined &&
    flags !== undefined &&
    (method & 0x0f) === 8 &&
    method >> 4 <= 7 &&
    ((method << 8) | flags) % 31 === 0
  );
}

/**
 * The codings a Content-Encoding header lists, in the order the sender applied them: lower-cased, trimmed, `identity`
 * and empty items left out. Empty when nothing was applied.
 */
export function contentCodings(header: string | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
}

export interface DecodedBody {
  /** The body for the parsed view: decoded, or the stored bytes when there was nothing to decode or it failed. */
  body: Uint8Array;
  /** What decoding did; null when the body had no Content-Encoding (or only `identity`). */
  decoding: ContentDecoding | null;
  /** Bytes decoding produced, kept or not (`maxBytes` when a stage failed): what a listing page counts. */
  spentBytes: number;
}

/**
 * A stored body decoded by its Content-Encoding for the parsed view, at read time only: ingest stores, and `/raw`
 * serves, the bytes exactly as sent. Never throws: data that does not decode (corrupt, truncated, an unknown coding,
 * more than `maxBytes`) leaves the stored bytes in place and says why. Every stage runs under zlib's
 * `maxOutputLength`, so a bomb (64 MiB of zeros is 64 KiB of gzip) stops once it has produced `maxBytes`, never
 * allocated whole.
 */
export function decodeContent(
  stored: Uint8Array,
  contentEncoding: string | undefined,
  maxBytes = MAX_DECODED_BYTES,
): DecodedBody {
  const codings = contentCodings(contentEncoding);
  if (codings.length === 0) return { body: stored, decoding: null, spentBytes: 0 };
  const encoding = codings.join(", ");
  const failed = (status: "too_large" | "invalid" | "unsupported", spentBytes: number): DecodedBody => ({
    body: stored,
    decoding: { encoding, status },
    spentBytes,
  });
  if (!codings.every((coding) => Object.hasOwn(DECODERS, coding))) return failed("unsupported", 0);

  let body = stored;
  let spent = 0;
  // `gzip, br` was gzipped, then brotli-compressed: undone last to first.
  for (const coding of codings.toReversed()) {
    const left = maxBytes - spent;
    // zlib refuses a limit below 1; with nothing left, any output is too much.
    if (left < 1) return failed("too_large", maxBytes);
    try {
      body = DECODERS[coding]!(body, { maxOutputLength: left });
    } catch (error) {
      // The limit throws ERR_BUFFER_TOO_LARGE once output passes it; zlib's own errors (bad header, checksum, early
      // end) are the data's fault. Either way as much as the limit may have been produced.
      const tooLarge = (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE";
      return failed(tooLarge ? "too_large" : "invalid", maxBytes);
    }
    spent += body.length;
  }
  return { body, decoding: { encoding, status: "decoded" }, spentBytes: spent };
}
