import { RawJson } from "@/lib/contracts/raw-json";

/** Largest body the inbox accepts: exactly 1 MiB is stored, one byte more is refused. */
export const MAX_DELIVERY_BYTES = 1_048_576;

/** `application/json`, `application/*+json`, any parameters and case. */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType !== null && /^\s*application\/([\w.!#$&^-]+\+)?json\s*(;|$)/i.test(contentType);
}

/**
 * The `{ raw }` text has NUL characters and lone UTF-16 surrogates replaced (U+FFFD), as when it was kept in a jsonb
 * column (which cannot hold them): consumers that store it there still can. The exact bytes are served by `/raw`.
 */
function storableText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "\uFFFD");
}

/**
 * The `rawPayload` of a delivery: for JSON content types, the sender's JSON text as a `RawJson` (served verbatim,
 * whitespace outside strings removed) when it is valid JSON nested at most `MAX_RAW_JSON_DEPTH` deep; otherwise
 * `{ raw: <body as text> }`. The inbox never refuses a delivery for its content.
 */
export function toRawPayload(body: Uint8Array, contentType: string | null): RawJson | { raw: string } {
  const text = new TextDecoder("utf-8").decode(body); // invalid UTF-8 becomes U+FFFD; the bytes are kept anyway
  if (isJsonContentType(contentType)) {
    const json = RawJson.parse(text);
    if (json) return json;
  }
  return { raw: storableText(text) };
}
