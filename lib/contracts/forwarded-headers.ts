/*
 * Which of a webhook's headers travel when it is sent on, by forwarding (lib/forwarding/outgoing-request.ts) and by the
 * relay (lib/relay): not the hop-by-hop and framing ones (RFC 9110 §7.6.1, RFC 9112), which described the sender's
 * connection to us — those below, every `proxy-*` header, and any the sender's `Connection` header named. `expect`
 * goes too (a `100-continue` asked the first hop), and `http2-settings` (an h2c upgrade offer). `content-type` and
 * `content-encoding` stay: the body goes on byte for byte as it was sent.
 */

const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "expect",
  "http2-settings",
]);

/** Whether a header (lower-case name) belongs to one connection rather than to the webhook. */
export function isHopByHopHeader(name: string): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith("proxy-");
}

/** The sender's headers as stored (lower-cased names, values as received) that travel on, names lower-cased. */
export function headersToForward(stored: Readonly<Record<string, string>>): Record<string, string> {
  const namedByConnection = new Set(
    (stored.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored)) {
    const lower = name.toLowerCase();
    if (isHopByHopHeader(lower) || namedByConnection.has(lower)) continue;
    forwarded[lower] = value;
  }
  return forwarded;
}
