import { brotliDecompressSync, constants, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from "node:zlib";
import { DELIVERY_PREVIEW_CHARS } from "@/lib/contracts/webhooks";
import { contentCodings, hasZlibHeader } from "./content-encoding";

/**
 * Bytes of the stored body a preview is made from: SQL reads only this slice (`substring(raw_body from 1 for …)`), so
 * a listing without payloads stays cheap. Enough for 120 characters of pretty-printed JSON or of a compressed body.
 */
export const PREVIEW_SOURCE_BYTES = 1024;

/** Bytes of the (decoded) start looked at for the preview's characters. */
const PREVIEW_TEXT_BYTES = 4096;

/** Most bytes a compressed slice may decode to: far more than a preview needs, and what a bomb stops at. */
const PREVIEW_DECODED_BYTES = 64 * 1024;

type PrefixDecoder = (body: Uint8Array, options: ZlibOptions) => Buffer;

/** Decoders that give what a truncated stream holds (a sync flush at its end) instead of failing on its end. */
const PREFIX_DECODERS: Record<string, { decode: PrefixDecoder; finishFlush: number }> = {
  gzip: { decode: gunzipSync, finishFlush: constants.Z_SYNC_FLUSH },
  "x-gzip": { decode: gunzipSync, finishFlush: constants.Z_SYNC_FLUSH },
  // zlib-wrapped or raw, told apart as content-encoding.ts does.
  deflate: {
    decode: (body, options) => (hasZlibHeader(body) ? inflateSync : inflateRawSync)(body, options),
    finishFlush: constants.Z_SYNC_FLUSH,
  },
  br: { decode: brotliDecompressSync, finishFlush: constants.BROTLI_OPERATION_FLUSH },
};

export interface PreviewSource {
  /** The first bytes of the stored body (at least PREVIEW_SOURCE_BYTES of it, or all of it when shorter). */
  head: Uint8Array;
  /** Bytes of the whole stored body. */
  sizeBytes: number;
  contentType: string | null;
  contentEncoding: string | undefined;
}

/** Sizes as the dashboard shows them: `512 B`, `3.2 KB`, `1.0 MB`. */
function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** At most DELIVERY_PREVIEW_CHARS characters (code points: a cut never splits a surrogate pair), `…` when cut. */
function clip(text: string, cut: boolean): string {
  const chars = Array.from(text.slice(0, DELIVERY_PREVIEW_CHARS * 2));
  if (chars.length > DELIVERY_PREVIEW_CHARS) return `${chars.slice(0, DELIVERY_PREVIEW_CHARS).join("")}…`;
  return cut ? `${chars.join("")}…` : chars.join("");
}

/**
 * The head as text, or null when it is not UTF-8 text. A head cut from a longer body may end inside a multi-byte
 * character: up to three trailing bytes are dropped for that. Control characters other than whitespace mean binary.
 */
function headText(head: Uint8Array, cut: boolean): string | null {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  for (let drop = 0; drop <= (cut ? 3 : 0) && drop < head.length + 1; drop++) {
    try {
      const text = decoder.decode(head.subarray(0, head.length - drop));
      return /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text) ? null : text;
    } catch {
      // Not UTF-8 up to here; try without one more trailing byte.
    }
  }
  return null;
}

/** JSON text without the whitespace outside its strings (a cut string or escape at the end is fine). */
function compactJson(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of text) {
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (!/\s/.test(char)) out += char;
  }
  return out;
}

/** `a=1 b=2` from an urlencoded head; a pair cut at the end shows what arrived of it. */
function formPreview(text: string): string {
  const pairs: string[] = [];
  for (const [name, value] of new URLSearchParams(text)) pairs.push(value === "" ? name : `${name}=${value}`);
  return pairs.join(" ").replace(/\s+/g, " ");
}

/** The field names of a multipart head, a file part as `name (filename)`: its values may be anything, even binary. */
function multipartPreview(text: string): string {
  const names: string[] = [];
  const disposition = /content-disposition:[^\r\n]*?\bname="([^"\r\n]*)"(?:[^\r\n]*?\bfilename="([^"\r\n]*)")?/gi;
  for (const match of text.matchAll(disposition)) names.push(match[2] ? `${match[1]} (${match[2]})` : match[1]!);
  return names.length > 0 ? `fields: ${names.join(", ")}` : "multipart form";
}

/** The head decoded by its Content-Encoding, as far as it goes; null when it does not decode (or is a bomb). */
function decodeHead(head: Uint8Array, contentEncoding: string | undefined): Uint8Array | null {
  const codings = contentCodings(contentEncoding);
  if (codings.length === 0) return head;
  // One coding only: a prefix of an outer stream does not end where the inner one would, so stacks are labelled.
  const decoder = codings.length === 1 ? PREFIX_DECODERS[codings[0]!] : undefined;
  if (!decoder) return null;
  try {
    return decoder.decode(head, { finishFlush: decoder.finishFlush, maxOutputLength: PREVIEW_DECODED_BYTES });
  } catch {
    return null;
  }
}

/**
 * A one-line preview of a delivery's body, from its first bytes only, so fifty deliveries of one endpoint are not
 * fifty identical rows: compact JSON, form fields as `a=1 b=2`, multipart field names, text with whitespace
 * collapsed, or `binary, 3.2 KB` (`gzip, 3.2 KB` for a compressed body that does not decode).
 */
export function deliveryPreview(source: PreviewSource): string {
  if (source.sizeBytes === 0) return "";
  const decoded = decodeHead(source.head, source.contentEncoding);
  if (decoded === null) return `${contentCodings(source.contentEncoding).join(", ")}, ${formatSize(source.sizeBytes)}`;
  // Only the start is looked at: a few KiB hold the preview's characters even with JSON's indentation.
  const start = decoded.subarray(0, PREVIEW_TEXT_BYTES);
  // Cut when the slice is not the whole body, or only part of what it decoded to is looked at.
  const cut = source.head.length < source.sizeBytes || decoded.length > start.length;
  const type = (source.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  // Before the text check: a file part makes the body binary, but its field names are what tells deliveries apart.
  if (type.startsWith("multipart/")) return clip(multipartPreview(new TextDecoder().decode(start)), false);
  const text = headText(start, cut);
  if (text === null) return `binary, ${formatSize(source.sizeBytes)}`;
  if (type === "application/x-www-form-urlencoded") return clip(formPreview(text), cut);
  const trimmed = text.trimStart();
  if (/^application\/(.+\+)?json$/.test(type) || trimmed.startsWith("{") || trimmed.startsWith("["))
    return clip(compactJson(text), cut);
  return clip(text.replace(/\s+/g, " ").trim(), cut);
}
