/**
 * The one way Signalbox fetches anything from the internet: every first-party collector and vendor adapter goes
 * through an `OutboundClient`. It refuses private, loopback, link-local and metadata addresses after DNS resolution
 * and on every redirect, and connects to exactly the address it checked (no second lookup to rebind), caps bytes,
 * time and redirects, sends an honest User-Agent, limits concurrency per host and, when asked, honours robots.txt.
 */

export interface OutboundRequest {
  method?: "GET" | "HEAD" | "POST";
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Bytes of body kept at most; more is cut off (`truncated: true`) or refused, see `overflow`. Default: the client's. */
  maxBytes?: number;
  /** What to do with a body over `maxBytes`: keep the first `maxBytes` (crawling) or throw (APIs). Default "truncate". */
  overflow?: "truncate" | "error";
  /** Whole request, redirects included. Default: the client's. */
  timeoutMs?: number;
  /** Redirects followed at most; 0 returns the 3xx itself. Default: the client's. */
  maxRedirects?: number;
  /** Check the origin's robots.txt for our user agent first (crawling); APIs leave it off. */
  robots?: boolean;
}

export interface OutboundResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
  /** The body was longer than `maxBytes` and was cut. */
  truncated: boolean;
  /** Every URL visited, the first one included. */
  chain: string[];
  text(): string;
  /** Parses the body as JSON; throws `OutboundError` ("invalid_body") when it is not. */
  json(): unknown;
}

export interface OutboundClient {
  request(url: string | URL, init?: OutboundRequest): Promise<OutboundResponse>;
  readonly userAgent: string;
  /** The robots.txt rules of an origin ("https://example.com"), from the same cache `robots: true` uses. */
  robotsFor?(origin: string, signal?: AbortSignal): Promise<RobotsRules>;
}

/** An origin's robots.txt as it applies to our user agent. */
export interface RobotsRules {
  /** Whether we may fetch `url` (a URL on that origin). */
  isAllowed(url: string): boolean;
  /** The `Sitemap:` URLs the file lists. */
  sitemaps: string[];
}

export type OutboundRefusal =
  /** The host resolved to (or was) a private, loopback, link-local, metadata or otherwise non-public address. */
  | "blocked_address"
  /** Only http and https are fetched, and only on the ports the client allows. */
  | "blocked_url"
  /** robots.txt disallows this path for our user agent. */
  | "robots"
  | "too_many_redirects";

export type OutboundFailure =
  | "dns"
  | "connect"
  /** The TLS handshake failed: a certificate that is expired, self-signed or for another name, or no common cipher. */
  | "tls"
  | "timeout"
  | "aborted"
  | "too_large"
  | "invalid_body"
  | "protocol";

/** We would not make the request. Messages name the reason, never an internal address. */
export class OutboundRefusedError extends Error {
  readonly reason: OutboundRefusal;
  constructor(reason: OutboundRefusal, message: string) {
    super(message);
    this.name = "OutboundRefusedError";
    this.reason = reason;
  }
}

/** We tried and it failed. */
export class OutboundError extends Error {
  readonly reason: OutboundFailure;
  constructor(reason: OutboundFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundError";
    this.reason = reason;
  }
}

/** Resolves a host name to its addresses (A and AAAA). Injected so tests can map test domains to loopback. */
export type HostResolver = (hostname: string, signal?: AbortSignal) => Promise<string[]>;
