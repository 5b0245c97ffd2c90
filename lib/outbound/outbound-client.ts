import { type IncomingMessage } from "node:http";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";
import { classifyAddress } from "@/lib/outbound/address-policy";
import { createDnsResolver } from "@/lib/outbound/dns-resolver";
import { createHostLimiter, type HostLimiter } from "@/lib/outbound/host-limiter";
import {
  asOutboundError,
  bareHostname,
  checkScheme,
  effectivePort,
  FRAMING_HEADERS,
  resolveTargets,
  sendPinned,
  startDeadline,
  type PinnedTarget,
} from "@/lib/outbound/pinned-request";
import { createRobotsCache, type RobotsCache } from "@/lib/outbound/robots";
import {
  type HostResolver,
  type OutboundClient,
  OutboundError,
  OutboundRefusedError,
  type OutboundResponse,
} from "@/lib/outbound/types";

/*
 * The OutboundClient on node:http/https (not fetch: fetch resolves names itself, so what we checked need not be what it
 * connects to). Each hop: check scheme and port, resolve the name once, keep only allowed addresses, connect to exactly
 * one of those by IP (Host header and TLS server name carry the name; lib/outbound/pinned-request.ts), and read at
 * most `maxBytes` of the decoded body. Redirects are followed by hand so every hop is checked again.
 */

export const DEFAULT_USER_AGENT = "SignalboxBot/0.1 (+company data collector; honours robots.txt)";

const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_PER_HOST_CONCURRENCY = 2;
const ALLOWED_PORTS = new Set([80, 443, 8080, 8443]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Caller headers that are harmless to carry to another origin; everything else (credentials above all) is dropped. */
const CROSS_ORIGIN_HEADERS = new Set(["accept", "accept-language"]);
/** Headers the client owns: framing and hop-by-hop ones would desynchronise the connection, the rest we set honestly. */
const CLIENT_HEADERS = new Set([...FRAMING_HEADERS, "user-agent", "accept-encoding"]);

export interface OutboundClientOptions {
  userAgent?: string;
  /** Default: DNS through `createDnsResolver()`. */
  resolver?: HostResolver;
  /**
   * Tests only: also connect to 127/8 and ::1 (nothing else private), on any port (`true`) or only on the listed ports,
   * so a test can reach its fake site and still prove that a redirect to another loopback port is refused.
   */
  allowLoopback?: boolean | { ports: number[] };
  /** Tests only: where a URL without an explicit port connects instead of 80/443 (fake sites on a random port). */
  portOverrides?: { http?: number; https?: number };
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  perHostConcurrency?: number;
  /** Tests only: extra CA certificates for https fakes. */
  ca?: string | Buffer | (string | Buffer)[];
}

interface Hop {
  url: URL;
  method: "GET" | "HEAD" | "POST";
  headers: Record<string, string>;
  body: string | undefined;
}

export function createOutboundClient(
  options: OutboundClientOptions = {},
): OutboundClient & Required<Pick<OutboundClient, "robotsFor">> {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const resolver = options.resolver ?? createDnsResolver().resolveHost;
  const loopbackPorts = typeof options.allowLoopback === "object" ? new Set(options.allowLoopback.ports) : undefined;
  const allowLoopback = options.allowLoopback === true || loopbackPorts !== undefined;
  const loopbackAllowedFor = (url: URL) =>
    allowLoopback && (loopbackPorts === undefined || loopbackPorts.has(connectPort(url)));
  const limiter: HostLimiter = createHostLimiter(options.perHostConcurrency ?? DEFAULT_PER_HOST_CONCURRENCY);
  const robots: RobotsCache = createRobotsCache({ fetch: (url, init) => client.request(url, init) });

  /** Scheme, credentials and port, checked before any DNS. */
  function checkUrl(url: URL): void {
    checkScheme(url);
    if (!allowLoopback && !ALLOWED_PORTS.has(effectivePort(url)))
      throw new OutboundRefusedError("blocked_url", `port ${effectivePort(url)} is not allowed`);
  }

  /** The addresses we may connect to for this URL, in the order to try them. */
  async function targetsFor(url: URL, signal: AbortSignal): Promise<PinnedTarget[]> {
    const targets = await resolveTargets(url, {
      resolver,
      signal,
      isAllowed: (address) => {
        const kind = classifyAddress(address);
        return kind === "public" || (kind === "loopback" && loopbackAllowedFor(url));
      },
      require: "any",
    });
    // Loopback targets (tests) may use any port; public ones only the usual web ports.
    if (
      !ALLOWED_PORTS.has(effectivePort(url)) &&
      targets.some(({ address }) => classifyAddress(address) !== "loopback")
    )
      throw new OutboundRefusedError("blocked_url", `port ${effectivePort(url)} is not allowed`);
    return targets;
  }

  function connectPort(url: URL): number {
    if (url.port !== "") return Number(url.port);
    const override = url.protocol === "https:" ? options.portOverrides?.https : options.portOverrides?.http;
    return override ?? effectivePort(url);
  }

  function send(hop: Hop, targets: PinnedTarget[], signal: AbortSignal): Promise<IncomingMessage> {
    const headers: Record<string, string> = {
      ...hop.headers,
      "user-agent": userAgent,
      "accept-encoding": "gzip, deflate, br",
    };
    if (headers.accept === undefined) headers.accept = "*/*";
    return sendPinned({ ...hop, headers, port: connectPort(hop.url), ca: options.ca }, targets, signal);
  }

  const client: OutboundClient & Required<Pick<OutboundClient, "robotsFor">> = {
    userAgent,
    robotsFor: (origin, signal) => robots.robotsFor(origin, signal),
    async request(input, init = {}) {
      const maxBytes = init.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
      const maxRedirects = init.maxRedirects ?? options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
      const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const overflow = init.overflow ?? "truncate";

      let url: URL;
      try {
        url = new URL(input);
      } catch {
        throw new OutboundRefusedError("blocked_url", "the URL is not valid");
      }

      // One deadline for the whole request: the total timeout and the caller's signal both end it.
      const deadline = startDeadline(timeoutMs, init.signal);
      const signal = deadline.signal;

      let hop: Hop = { url, method: init.method ?? "GET", headers: callerHeaders(init.headers), body: init.body };
      const chain: string[] = [];

      try {
        for (let redirects = 0; ; redirects++) {
          throwIfEnded(signal);
          chain.push(hop.url.href);
          checkUrl(hop.url);
          if (init.robots === true) {
            const rules = await robots.robotsFor(hop.url.origin, signal);
            if (!rules.isAllowed(hop.url.href))
              throw new OutboundRefusedError("robots", `robots.txt of ${hop.url.host} disallows this URL for us`);
          }
          const targets = await targetsFor(hop.url, signal);
          const release = await limiter.acquire(bareHostname(hop.url), signal);
          try {
            const response = await send(hop, targets, signal);
            const status = response.statusCode ?? 0;
            const location = response.headers.location;
            if (REDIRECT_STATUSES.has(status) && location !== undefined && maxRedirects > 0) {
              response.destroy();
              if (redirects >= maxRedirects)
                throw new OutboundRefusedError("too_many_redirects", `more than ${maxRedirects} redirects`);
              hop = nextHop(hop, status, location);
              continue;
            }
            const { body, truncated } = await readBody(response, hop.method, maxBytes, overflow);
            return buildResponse(hop.url.href, status, response, body, truncated, chain);
          } finally {
            release();
          }
        }
      } catch (error) {
        throw asOutboundError(error, deadline.ended, hop.url);
      } finally {
        deadline.dispose();
      }
    },
  };
  return client;
}

function callerHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!CLIENT_HEADERS.has(lower)) kept[lower] = value;
  }
  return kept;
}

/** The request a redirect asks for: same method and body only for 307/308 and for GET/HEAD. */
function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new OutboundError("protocol", "a redirect pointed to an invalid URL");
  }
  url.hash = "";
  const becomesGet =
    (status === 303 && hop.method !== "HEAD") || ((status === 301 || status === 302) && hop.method === "POST");
  let headers = hop.headers;
  if (url.origin !== hop.url.origin) {
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name)));
  }
  if (becomesGet) {
    headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith("content-")));
    return { url, method: "GET", headers, body: undefined };
  }
  return { url, method: hop.method, headers, body: hop.body };
}

/** The decoded body, at most `maxBytes` of it; never buffers more than that plus one chunk. */
async function readBody(
  response: IncomingMessage,
  method: string,
  maxBytes: number,
  overflow: "truncate" | "error",
): Promise<{ body: Buffer; truncated: boolean }> {
  const status = response.statusCode ?? 0;
  if (method === "HEAD" || status === 204 || status === 304) {
    response.destroy();
    return { body: Buffer.alloc(0), truncated: false };
  }
  const encoding = (response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const declared = Number(response.headers["content-length"]);
  if (overflow === "error" && encoding === "identity" && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new OutboundError("too_large", `the response is larger than ${maxBytes} bytes`);
  }

  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  // A pipeline passes one stream's error to all of them, so remember which side failed first: the connection
  // (a transport failure) or the decoder (the server sent a body that is not what its Content-Encoding says).
  let firstFailure: "transport" | "decode" | undefined;
  response.on("error", () => (firstFailure ??= "transport"));
  const source = decoded(response, encoding, () => (firstFailure ??= "decode"));
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        if (overflow === "error") throw new OutboundError("too_large", `the response is larger than ${maxBytes} bytes`);
        chunks.push(buffer.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } catch (error) {
    if (firstFailure === "decode")
      throw new OutboundError("protocol", `the response body could not be decoded (${encoding})`);
    throw error;
  } finally {
    source.destroy();
    response.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** The body stream with its content-encoding undone; unknown or stacked encodings are passed through as they are. */
function decoded(response: IncomingMessage, encoding: string, onDecodeError: () => void): Readable {
  // Decoders are pulled through backpressure 64 KiB at a time, so a bomb never inflates far past maxBytes. A truncated
  // stream is decoded as far as it goes (sync flush), as browsers do.
  const zlibOptions = { chunkSize: 64 * 1024, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const watched = <T extends Readable>(decoder: T) => decoder.once("error", onDecodeError);
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return pipeline(response, watched(zlib.createGunzip(zlibOptions)), ignore);
    case "br":
      return pipeline(
        response,
        watched(
          zlib.createBrotliDecompress({
            chunkSize: zlibOptions.chunkSize,
            finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
          }),
        ),
        ignore,
      );
    case "deflate":
      return inflateEitherWay(response, zlibOptions, watched);
    default:
      return response;
  }
}

/** "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; the first byte tells them apart. */
function inflateEitherWay(
  response: IncomingMessage,
  zlibOptions: zlib.ZlibOptions,
  watched: <T extends Readable>(decoder: T) => T,
): Readable {
  const iterator = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  async function* chunks(): AsyncGenerator<Buffer> {
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      yield next.value;
    }
  }
  const output = new Readable({ read() {} });
  void (async () => {
    const first = await iterator.next();
    if (first.done === true) return output.push(null);
    // A zlib header's low nibble is 8 (the deflate method); raw deflate blocks almost never start that way.
    const wrapped = (first.value[0]! & 0x0f) === 8;
    const inflater = watched(wrapped ? zlib.createInflate(zlibOptions) : zlib.createInflateRaw(zlibOptions));
    const source = Readable.from(
      (async function* () {
        yield first.value;
        yield* chunks();
      })(),
    );
    pipeline(source, inflater, ignore);
    output._read = () => inflater.resume();
    inflater.on("data", (data: Buffer) => {
      if (!output.push(data)) inflater.pause();
    });
    inflater.on("end", () => output.push(null));
    inflater.on("error", (error) => output.destroy(error));
    output.on("close", () => {
      inflater.destroy();
      source.destroy();
    });
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/** Errors reach the consumer through the last stream of a pipeline; its callback has nothing left to do. */
function ignore(): void {}

function buildResponse(
  url: string,
  status: number,
  response: IncomingMessage,
  body: Buffer,
  truncated: boolean,
  chain: string[],
): OutboundResponse {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      // append, not set: several Set-Cookie (or Link) headers must all survive.
      headers.append(raw[index]!, raw[index + 1]!);
    } catch {
      // A header value Headers will not hold (control characters) is dropped rather than failing the whole answer.
    }
  }
  const text = () => decodeText(body, headers.get("content-type"));
  return {
    url,
    status,
    headers,
    body,
    truncated,
    chain,
    text,
    json() {
      try {
        return JSON.parse(text()) as unknown;
      } catch {
        throw new OutboundError("invalid_body", "the response body is not JSON");
      }
    },
  };
}

/** UTF-8 unless the content type names another charset TextDecoder knows (latin1 pages are still common). */
function decodeText(body: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? "")?.[1];
  if (charset !== undefined) {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // Unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder("utf-8").decode(body);
}

function throwIfEnded(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}
