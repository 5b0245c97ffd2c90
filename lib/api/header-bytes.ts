import type { IncomingMessage, ServerResponse } from "node:http";

/*
 * Header values are kept as Node gives them: latin1 strings, one character per byte received (ingest stores the
 * Content-Type that way). Node writes a header block as latin1 when it goes out with a Buffer body chunk or with
 * `end()`, but as UTF-8 when `flushHeaders()` sends it alone — which Next.js does before the first chunk of every
 * streamed body. A Content-Type `…é…` (byte 0xE9) would go back out as 0xC3 0xA9.
 */

const RAW_BODY_PATH = /^\/v1\/webhook-endpoints\/deliveries\/[^/?#]+\/raw\/?(?:[?#]|$)/;

/**
 * For `GET …/deliveries/:id/raw`, whose Content-Type is the sender's bytes: the header block waits for the body (one
 * chunk, the exact bytes) or `end()`, and so goes out latin1, byte for byte as received. Other responses (the SSE
 * stream needs its headers early) are untouched.
 */
export function keepHeaderBytes(request: IncomingMessage, response: ServerResponse): void {
  if (!RAW_BODY_PATH.test(request.url ?? "")) return;
  response.flushHeaders = () => {};
}
