import type { IncomingMessage } from "node:http";

/*
 * The source address of a dashboard sign-in, for throttling per source (lib/auth/users.ts). next-auth's `authorize`
 * sees only headers, not the socket, so the launcher resolves the address (the socket peer, or X-Forwarded-For through
 * TRUSTED_PROXIES, as for deliveries) and writes it into this header of every request it hands to Next.js, replacing
 * whatever a client sent under that name. The ingest route handler records it as a delivery's source when the launcher
 * passed the request on (lib/api/ingest-route.ts).
 */
export const SOURCE_IP_HEADER = "x-signalbox-source-ip";

/** Sets the source header of a request about to be handed to Next.js. */
export function stampSourceIp(request: IncomingMessage, sourceIp: string): void {
  request.headers[SOURCE_IP_HEADER] = sourceIp;
}

/** The source address the launcher stamped, from next-auth's `req.headers`; "unknown" without one. */
export function signInSource(headers: Record<string, unknown> | undefined): string {
  const value = headers?.[SOURCE_IP_HEADER];
  return typeof value === "string" && value ? value : "unknown";
}
