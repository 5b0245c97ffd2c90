import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { type HostResolver, OutboundError, OutboundRefusedError } from "@/lib/outbound/types";

/*
 * One HTTP request to a checked address, the piece every outbound client shares (the collectors' OutboundClient and
 * the forwarding sender): resolve the name once, check the addresses, connect to exactly one checked IP (the Host
 * header and the TLS server name carry the name), and bound the whole of it by one deadline. What differs between
 * clients (which addresses and ports are allowed, redirects, how the body is read) stays with them.
 */

/** An address we checked and may connect to. */
export interface PinnedTarget {
  address: string;
  family: 4 | 6;
}

export interface PinnedRequest {
  url: URL;
  method: "GET" | "HEAD" | "POST";
  /** Lower-case names. Framing headers are the request's own: `FRAMING_HEADERS` given here are dropped. */
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** The TCP port to connect to (tests point names without a port at a fake's random port). */
  port: number;
  /** Tests only: extra CA certificates for https fakes. */
  ca?: string | Buffer | (string | Buffer)[];
  /**
   * Keeps connections for reuse (the agent of the request's protocol). Connections are made to the checked address,
   * so the agent pools them by that address and port: a reused one goes where a check allowed. Default: none.
   */
  agents?: { http: http.Agent; https: https.Agent };
}

/**
 * Hop-by-hop and framing headers (RFC 9110 §7.6.1, RFC 9112): they describe one connection, so a caller's values
 * would desynchronise ours; `host` and `content-length` are set from the URL and the body.
 */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-authorization",
  "proxy-connection",
]);

/** Connection errors that happen before anything was sent, so the next address may be tried safely. */
const NOT_CONNECTED_CODES = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"]);

/** OpenSSL and Node codes of a TLS handshake or certificate failure. */
const TLS_CODES = new Set([
  "EPROTO",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "HOSTNAME_MISMATCH",
]);

const DEFAULT_PORTS = { "http:": 80, "https:": 443 } as const;

/** The URL's port, or its scheme's default. */
export function effectivePort(url: URL): number {
  return url.port !== "" ? Number(url.port) : DEFAULT_PORTS[url.protocol as keyof typeof DEFAULT_PORTS];
}

/** The URL's host without IPv6 brackets or a trailing root dot. */
export function bareHostname(url: URL): string {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

/** Scheme and credentials, checked before any DNS. */
export function checkScheme(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OutboundRefusedError("blocked_url", `only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "")
    throw new OutboundRefusedError("blocked_url", "URLs with credentials are not fetched");
}

export interface ResolveOptions {
  resolver: HostResolver;
  signal: AbortSignal;
  isAllowed(address: string): boolean;
  /**
   * "any" keeps the allowed addresses of a name and drops the rest; "every" refuses a name with any address that is
   * not allowed (a name that points both outside and inside is a misconfiguration or a rebinding attempt).
   */
  require: "any" | "every";
}

/** The addresses we may connect to for this URL, in the order to try them. The name is resolved once. */
export async function resolveTargets(url: URL, options: ResolveOptions): Promise<PinnedTarget[]> {
  const host = bareHostname(url);
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  // RFC 6761: "localhost" names are loopback by definition, whatever a DNS server might say.
  else if (host === "localhost" || host.endsWith(".localhost")) addresses = ["127.0.0.1", "::1"];
  else addresses = await untilAborted(options.resolver(host, options.signal), options.signal);
  if (addresses.length === 0) throw new OutboundError("dns", `${host} has no addresses`);

  const allowed = addresses.filter((address) => options.isAllowed(address));
  // The message names the host only when it is a name: an address, even one from the URL, stays out of messages.
  if (allowed.length === 0 || (options.require === "every" && allowed.length < addresses.length))
    throw new OutboundRefusedError(
      "blocked_address",
      isIP(host) !== 0
        ? "the URL's address is not allowed"
        : allowed.length === 0
          ? `${host} does not resolve to an allowed address`
          : `${host} resolves to addresses that are not allowed`,
    );
  return allowed.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
}

/** Sends `request` to the first target that accepts a connection; the next one is tried only if nothing was sent. */
export async function sendPinned(
  request: PinnedRequest,
  targets: PinnedTarget[],
  signal: AbortSignal,
): Promise<IncomingMessage> {
  let lastError: unknown;
  for (const target of targets) {
    try {
      return await sendTo(request, target, signal);
    } catch (error) {
      lastError = error;
      if (!(error as { notConnected?: boolean }).notConnected) break;
    }
  }
  throw lastError;
}

function sendTo(request: PinnedRequest, target: PinnedTarget, signal: AbortSignal): Promise<IncomingMessage> {
  const { url } = request;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!FRAMING_HEADERS.has(name)) headers[name] = value;
  headers.host = url.host;
  if (request.body !== undefined) headers["content-length"] = String(Buffer.byteLength(request.body));
  const host = bareHostname(url);
  const requestOptions: https.RequestOptions = {
    host: target.address,
    family: target.family,
    port: request.port,
    path: `${url.pathname}${url.search}`,
    method: request.method,
    headers,
    agent: request.agents ? request.agents[url.protocol === "https:" ? "https" : "http"] : false,
    signal,
    // The certificate is checked against the name, not the address we connect to; IP literals send no SNI.
    ...(url.protocol === "https:" ? { servername: isIP(host) === 0 ? host : undefined, ca: request.ca } : {}),
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    let connected = false;
    const outgoing = transport.request(requestOptions, resolve);
    outgoing.on("socket", (socket) => {
      socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => {
        connected = true;
      });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      (error as NodeJS.ErrnoException & { notConnected?: boolean }).notConnected =
        !connected && NOT_CONNECTED_CODES.has(error.code ?? "");
      reject(error);
    });
    outgoing.end(request.body);
  });
}

/** One time limit for a whole request, which the caller's signal can also end. */
export interface Deadline {
  signal: AbortSignal;
  /** Why the signal fired, once it has. */
  readonly ended: "timeout" | "aborted" | undefined;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let ended: "timeout" | "aborted" | undefined;
  const end = (why: "timeout" | "aborted") => {
    ended ??= why;
    controller.abort(
      new OutboundError(ended, ended === "timeout" ? "the request timed out" : "the request was aborted"),
    );
  };
  const timer = setTimeout(() => end("timeout"), timeoutMs);
  const onCallerAbort = () => end("aborted");
  if (callerSignal?.aborted) end("aborted");
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get ended() {
      return ended;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

/** A resolver that ignores its signal must still not outlive the request's deadline. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Every failure as an OutboundError or OutboundRefusedError, worded without addresses or caller data. */
export function asOutboundError(error: unknown, ended: "timeout" | "aborted" | undefined, url: URL): Error {
  if (error instanceof OutboundRefusedError) return error;
  if (ended !== undefined)
    return new OutboundError(ended, ended === "timeout" ? "the request timed out" : "the request was aborted");
  if (error instanceof OutboundError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
  if (code.startsWith("HPE_") || code === "ERR_INVALID_HTTP_RESPONSE")
    return new OutboundError("protocol", `${url.host} answered with invalid HTTP (${code})`);
  if (TLS_CODES.has(code) || code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_"))
    return new OutboundError("tls", `the TLS connection to ${url.host} failed (${code})`);
  // Cause deliberately left off: Node's connection errors name the address and port we connected to.
  return new OutboundError("connect", `could not talk to ${url.host}${code ? ` (${code})` : ""}`);
}
