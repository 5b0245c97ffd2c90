import { isJsonContentType, isRawWrapper } from "./payload-kind";
import type { Delivery } from "./types";

/**
 * POSIX shell quoting: the whole word in single quotes, each `'` written as `'\''`. Inside single quotes the shell
 * expands nothing ($, `, \, !, newlines all stay literal), so any string survives the round trip.
 */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The body to re-send. The inbox stores JSON bodies parsed and everything else as `{ "raw": "<text>" }` (also JSON
 * that did not parse). With a JSON content type, `{ raw: s }` is the text fallback exactly when `s` itself does not
 * parse (had it parsed, the payload would be the parsed value); otherwise it is the sender's own JSON object.
 * Parsed JSON is re-serialised, so whitespace may differ from the original bytes (the raw download is byte-exact).
 */
export function replayBody(delivery: Pick<Delivery, "rawPayload" | "contentType">): string {
  const payload = delivery.rawPayload;
  const rawText = isRawWrapper(payload) ? payload.raw : null;
  if (!isJsonContentType(delivery.contentType)) return rawText ?? JSON.stringify(payload);
  if (rawText !== null && !parses(rawText)) return rawText;
  return JSON.stringify(payload);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The URL a replay goes to: the endpoint's ingest URL with the delivery's original query string. */
export function replayUrl(ingestUrl: string, query: string): string {
  return query ? `${ingestUrl}${ingestUrl.includes("?") ? "&" : "?"}${query}` : ingestUrl;
}

function curlCommand(url: string, contentType: string | null, body: string): string {
  // `--data-raw`, not `-d`/`--data-binary`: a body starting with `@` must not make curl read a file.
  // `Content-Type:` with no value makes curl send none, as the original request did.
  const header = contentType ? `Content-Type: ${contentType}` : "Content-Type:";
  return [`curl -X POST ${shellQuote(url)}`, `-H ${shellQuote(header)}`, `--data-raw ${shellQuote(body)}`].join(
    " \\\n  ",
  );
}

/**
 * "Copy as curl": re-sends the delivery's payload to its endpoint with the same content type and query string.
 * `exactBody` is the original body as text when it is known (the raw route); otherwise the stored payload is used.
 */
export function buildReplayCurl(
  delivery: Pick<Delivery, "rawPayload" | "contentType" | "query">,
  ingestUrl: string,
  exactBody?: string | null,
): string {
  return curlCommand(replayUrl(ingestUrl, delivery.query), delivery.contentType, exactBody ?? replayBody(delivery));
}

/** The empty state's example: a first webhook to an ingest URL. */
export function buildFirstWebhookCurl(ingestUrl: string): string {
  return curlCommand(
    ingestUrl,
    "application/json",
    JSON.stringify({ type: "hello.world", data: { message: "My first webhook" } }),
  );
}

/** The ingest URL of an endpoint id, for when the endpoint itself is not loaded. */
export function fallbackIngestUrl(origin: string, endpointId: string): string {
  return `${origin}/webhooks/ingest/${encodeURIComponent(endpointId)}`;
}
