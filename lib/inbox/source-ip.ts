import { BlockList, isIP } from "node:net";
import { env } from "@/lib/env";

function normalize(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, "");
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

/** Parses TRUSTED_PROXIES: comma-separated IPs or CIDRs. Throws on an entry that is neither. */
export function parseTrustedProxies(text: string): BlockList {
  const list = new BlockList();
  for (const entry of text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = "", prefix] = entry.split("/");
    const family = isIP(address);
    if (!family) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** X-Forwarded-For's addresses, nearest hop last. */
function forwardedHops(forwardedFor: string): string[] {
  return forwardedFor
    .split(",")
    .map(normalize)
    .filter((hop) => isIP(hop) !== 0);
}

/** Walks the hops from the nearest one: the first that is not a trusted proxy, else the furthest (or `current`). */
function nearestUntrusted(current: string, hops: string[], trusted: BlockList): string {
  for (let index = hops.length - 1; index >= 0; index -= 1) {
    current = hops[index]!;
    if (!isTrusted(current, trusted)) return current;
  }
  return current;
}

/**
 * The sender's address: the socket peer, unless the peer is a trusted proxy; then the nearest address in
 * X-Forwarded-For that is not itself a trusted proxy (addresses further left could be forged by the client).
 */
export function resolveSourceIp(peer: string, forwardedFor: string | null, trusted: BlockList): string {
  const current = normalize(peer);
  if (!forwardedFor || !isTrusted(current, trusted)) return current;
  return nearestUntrusted(current, forwardedHops(forwardedFor), trusted);
}

/** What is recorded as a sender's address when nothing in the request can be believed. */
export const UNKNOWN_SOURCE = "unknown";

/**
 * The sender's address where the socket cannot be seen (a route handler under `next start`, which only passes
 * headers). With TRUSTED_PROXIES set, the app is taken to be reachable only through those proxies: X-Forwarded-For is
 * read as `resolveSourceIp` reads it behind a trusted peer. Without, any X-Forwarded-For may be the client's own
 * invention (Next.js adds the peer only when the client sent none), so nothing is believed.
 */
export function resolveForwardedSourceIp(forwardedFor: string | null, trusted: BlockList): string {
  if (trusted.rules.length === 0) return UNKNOWN_SOURCE;
  return nearestUntrusted(UNKNOWN_SOURCE, forwardedHops(forwardedFor ?? ""), trusted);
}

let parsed: { text: string; list: BlockList } | undefined;

/** TRUSTED_PROXIES, parsed once. */
export function trustedProxies(): BlockList {
  const text = env().TRUSTED_PROXIES;
  if (parsed?.text !== text) parsed = { text, list: parseTrustedProxies(text) };
  return parsed.list;
}
