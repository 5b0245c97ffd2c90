// Retry-After (RFC 9110 §10.2.3) as answered by any server we call: vendors' APIs and forwarding destinations.

/**
 * A wait as seconds from now: delay-seconds or an HTTP date (RFC 9110 §10.2.3); any other date `Date.parse` reads
 * (such as an ISO 8601 reset time) is accepted too.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
