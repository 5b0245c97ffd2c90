/**
 * Headers that describe one connection or one message's framing rather than the webhook (RFC 9110 §7.6.1, RFC 9112):
 * the relay's own request to the receiver makes its own. `expect` too: a sender's `100-continue` asked the first hop.
 */
const CONNECTION_HEADERS = new Set([
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

/**
 * The sender's headers as stored (lower-cased names, values as received) without the hop-by-hop and framing ones:
 * those above, every `proxy-*` header, and any the sender's `Connection` header named. `content-type` and
 * `content-encoding` stay, since the body is forwarded byte for byte as it was sent.
 */
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
    if (CONNECTION_HEADERS.has(lower) || lower.startsWith("proxy-") || namedByConnection.has(lower)) continue;
    forwarded[lower] = value;
  }
  return forwarded;
}
