import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { forwardingAddressCheck, type ForwardingAllowance } from "@/lib/outbound/address-policy";
import { createDnsResolver } from "@/lib/outbound/dns-resolver";
import {
  asOutboundError,
  checkScheme,
  effectivePort,
  resolveTargets,
  sendPinned,
  startDeadline,
} from "@/lib/outbound/pinned-request";
import { type HostResolver, OutboundError, type OutboundRefusal, OutboundRefusedError } from "@/lib/outbound/types";

/*
 * One forwarding attempt: POST the exact body bytes to a destination and report what came back. Built on the same
 * pinned requests as the collectors' client (resolve once, check every address, connect to a checked IP), with the
 * forwarding address policy (FORWARD_ALLOW_PRIVATE), any port, and no redirects: a 3xx is the destination's answer.
 *
 *   const sender = createWebhookSender({ allowance });      // or forwardClientFromEnv() (from-env.ts)
 *   const result = await sender.sendWebhook({ url, body, headers, timeoutMs });
 *   if (result.kind === "response") … result.status, result.bodyPrefix … else … result.error, result.message
 *
 * It never throws for what the destination or the network did; every attempt ends in a result to record.
 */

/** Bytes of the response body kept; the connection is closed once they are read. */
export const RESPONSE_PREFIX_BYTES = 4096;

export interface WebhookRequest {
  url: string;
  /** Sent as is, with `content-length`. */
  body: Buffer;
  /** Lower-case names; framing headers (host, content-length, connection, …) are the sender's own and dropped. */
  headers: Record<string, string>;
  /** The whole attempt: DNS, connect, sending, the response headers and the first RESPONSE_PREFIX_BYTES. */
  timeoutMs: number;
  /** Ends the attempt early (a worker shutting down): an `aborted` failure unless the answer had already come. */
  signal?: AbortSignal;
}

/** The destination answered (any status, 3xx included). */
export interface WebhookResponse {
  kind: "response";
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The response body's first bytes as they came (not decoded), at most RESPONSE_PREFIX_BYTES. */
  bodyPrefix: Buffer;
  /** More body followed, or the rest did not arrive (time ran out, the connection dropped) after the status did. */
  bodyTruncated: boolean;
  durationMs: number;
}

export type WebhookFailureKind =
  /** We would not send: the address policy or the URL (scheme, credentials). `refusal` says which. */
  | "refused"
  /** The name did not resolve, or the DNS servers failed. */
  | "dns"
  /** Refused or reset connection, unreachable network. */
  | "connection"
  /** The TLS handshake failed (certificate expired, self-signed, for another name). */
  | "tls"
  /** The destination answered with something that is not HTTP. */
  | "protocol"
  /** No status line within `timeoutMs`. */
  | "timeout"
  /** The caller's signal ended the attempt. */
  | "aborted";

/** No answer. `message` names the host at most, never an address. */
export interface WebhookFailure {
  kind: "failure";
  error: WebhookFailureKind;
  message: string;
  refusal?: OutboundRefusal;
  durationMs: number;
}

export type WebhookAttemptResult = WebhookResponse | WebhookFailure;

export interface WebhookSender {
  sendWebhook(request: WebhookRequest): Promise<WebhookAttemptResult>;
}

export interface WebhookSenderOptions {
  /** What FORWARD_ALLOW_PRIVATE opens besides public addresses. Default: nothing. */
  allowance?: ForwardingAllowance;
  /** Default: DNS through `createDnsResolver()`. */
  resolver?: HostResolver;
  /** Sent when the request has no User-Agent of its own (the original sender's is forwarded as it was). */
  userAgent?: string;
  /** Milliseconds for `durationMs`; default `performance.now`. */
  clock?: () => number;
  /** Tests only: extra CA certificates for https fakes. */
  ca?: string | Buffer | (string | Buffer)[];
}

export const DEFAULT_FORWARD_USER_AGENT = "Signalbox-Forward/0.1";
const IDLE_CONNECTION_MS = 4_000;

const FAILURE_KINDS: Record<OutboundError["reason"], WebhookFailureKind> = {
  dns: "dns",
  connect: "connection",
  tls: "tls",
  protocol: "protocol",
  timeout: "timeout",
  aborted: "aborted",
  // Not produced while sending; listed so a new reason has to be placed here.
  too_large: "protocol",
  invalid_body: "protocol",
};

export function createWebhookSender(options: WebhookSenderOptions = {}): WebhookSender {
  const resolver = options.resolver ?? createDnsResolver().resolveHost;
  const isAllowed = forwardingAddressCheck(options.allowance ?? { private: false, ranges: [] });
  const userAgent = options.userAgent ?? DEFAULT_FORWARD_USER_AGENT;
  const clock = options.clock ?? (() => performance.now());
  // Connections kept between attempts (pooled by the checked address they went to): a new connection per forward
  // halved what a destination could be sent (921 against 1,966 a second to a local receiver). An idle one closes after
  // 4 s, before the 5 s after which Node's own servers drop idle connections, so a kept one is rarely found dead.
  const agents = {
    http: new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
    https: new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  };

  return {
    async sendWebhook(request) {
      const started = clock();
      const elapsed = () => Math.max(0, Math.round(clock() - started));
      const deadline = startDeadline(request.timeoutMs, request.signal);
      let url: URL | undefined;
      try {
        url = parseUrl(request.url);
        checkScheme(url);
        const targets = await resolveTargets(url, {
          resolver,
          signal: deadline.signal,
          isAllowed,
          require: "every",
        });
        const headers: Record<string, string> = { "user-agent": userAgent, ...request.headers };
        // We read the answer ourselves and keep its first bytes as they come: ask for them uncompressed.
        headers["accept-encoding"] = "identity";
        const response = await sendPinned(
          { url, method: "POST", headers, body: request.body, port: effectivePort(url), ca: options.ca, agents },
          targets,
          deadline.signal,
        );
        const { prefix, truncated } = await readPrefix(response);
        return {
          kind: "response",
          status: response.statusCode ?? 0,
          headers: responseHeaders(response),
          bodyPrefix: prefix,
          bodyTruncated: truncated,
          durationMs: elapsed(),
        };
      } catch (error) {
        // Without a URL the error is parseUrl's refusal, already in its final form.
        return failure(url === undefined ? error : asOutboundError(error, deadline.ended, url), elapsed());
      } finally {
        deadline.dispose();
      }
    },
  };
}

function parseUrl(input: string): URL {
  try {
    return new URL(input);
  } catch {
    throw new OutboundRefusedError("blocked_url", "the URL is not valid");
  }
}

/**
 * The body's first RESPONSE_PREFIX_BYTES, then the connection is destroyed. Once the status line is in, the answer
 * stands: a body cut short by the deadline or a dropped connection is kept as far as it came, marked truncated.
 */
async function readPrefix(response: IncomingMessage): Promise<{ prefix: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of response) {
      const buffer = chunk as Buffer;
      const room = RESPONSE_PREFIX_BYTES - size;
      if (buffer.length > room) {
        chunks.push(buffer.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      size += buffer.length;
    }
  } catch {
    truncated = true;
  }
  // The rest is not read: the connection cannot carry another request. A whole answer leaves it for the next one.
  if (truncated) response.destroy();
  return { prefix: Buffer.concat(chunks, size), truncated };
}

function responseHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = response.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

function failure(error: unknown, durationMs: number): WebhookFailure {
  if (error instanceof OutboundRefusedError)
    return { kind: "failure", error: "refused", refusal: error.reason, message: error.message, durationMs };
  if (error instanceof OutboundError)
    return { kind: "failure", error: FAILURE_KINDS[error.reason], message: error.message, durationMs };
  return { kind: "failure", error: "connection", message: "the request failed", durationMs };
}
