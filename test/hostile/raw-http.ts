import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { recordExchange } from "@/test/openapi-conformance/record";

/*
 * A deliberately small HTTP/1.1 client over a raw socket, for requests that fetch and node:http refuse to send or
 * quietly repair: `../` and `%2e%2e` left in the path, header values with control characters or bytes that are not
 * UTF-8, thousands of headers, bodies whose bytes are not valid UTF-8. Every request is `Connection: close`; the
 * answer is read to the end (or up to its headers for an event stream) and parsed here.
 */

export interface RawRequest {
  method: string;
  /** The request target exactly as written on the wire, e.g. `/v1/webhook-endpoints/..%2f..%2fetc`. */
  target: string;
  /**
   * Names and values written as given, each byte of a value as one latin1 character (so `\xff` is the byte 0xff). A
   * `Host` here replaces the default one.
   */
  headers?: [string, string][];
  body?: Uint8Array;
  /** Leave out `Content-Length` (and send no body framing at all). */
  omitContentLength?: boolean;
}

export interface RawAnswer {
  status: number;
  /** Lower-cased names; repeats joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** Set when the server closed the connection without sending any answer. */
  noAnswer?: boolean;
}

const TIMEOUT_MS = 20_000;

/** A chunked body: what arrived so far, and whether its last chunk did. */
function decodeChunked(data: Buffer): { body: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1").split(";")[0] ?? "", 16);
    if (!Number.isFinite(size)) break;
    if (size === 0) return { body: Buffer.concat(parts), complete: true };
    if (data.length < lineEnd + 2 + size + 2) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return { body: Buffer.concat(parts), complete: false };
}

function parseHead(head: string): Pick<RawAnswer, "status" | "headers"> {
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`Unparseable status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status, headers };
}

/**
 * The answer at the start of `data` once all of it arrived (its Content-Length, or its last chunk), else null. A
 * server may keep the connection open after a complete answer (to drain a body it refused).
 */
export function completeAnswer(data: Buffer): RawAnswer | null {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd === -1) return null;
  const { status, headers } = parseHead(data.subarray(0, headEnd).toString("latin1"));
  const rest = data.subarray(headEnd + 4);
  if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
    const { body, complete } = decodeChunked(rest);
    return complete ? { status, headers, body } : null;
  }
  const length = headers["content-length"];
  if (length === undefined || rest.length < Number(length)) return null;
  return { status, headers, body: rest.subarray(0, Number(length)) };
}

/** Whatever answer arrived before the connection closed. */
function parseAnswer(data: Buffer): RawAnswer {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd === -1) {
    if (data.length === 0) return { status: 0, headers: {}, body: Buffer.alloc(0), noAnswer: true };
    throw new Error(`Unparseable answer: ${JSON.stringify(data.subarray(0, 200).toString("latin1"))}`);
  }
  const { status, headers } = parseHead(data.subarray(0, headEnd).toString("latin1"));
  const rest = data.subarray(headEnd + 4);
  const body = /chunked/i.test(headers["transfer-encoding"] ?? "")
    ? decodeChunked(rest).body
    : headers["content-length"] !== undefined
      ? rest.subarray(0, Number(headers["content-length"]))
      : rest;
  return { status, headers, body };
}

/**
 * The body as a client that asked for the encoding reads it. Next.js compresses large answers for any Accept-Encoding
 * that names gzip, deflate or `*` (hostile headers do), and the conformance check reads the JSON inside; the answer
 * itself keeps the bytes as they came.
 */
function decoded(answer: RawAnswer): Buffer {
  const encoding = (answer.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(answer.body);
  if (encoding === "deflate") return inflateSync(answer.body);
  if (encoding === "br") return brotliDecompressSync(answer.body);
  return answer.body;
}

/**
 * Sends one request to `baseUrl` (`http://host:port`) and resolves with the parsed answer, which is also checked
 * against the app's OpenAPI document (test/openapi-conformance).
 */
export async function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const answer = await sendRawRequest(baseUrl, request);
  if (!answer.noAnswer) {
    const eventStream = (answer.headers["content-type"] ?? "").startsWith("text/event-stream");
    const { status, headers } = answer;
    const { method, target } = request;
    recordExchange(baseUrl, { method, target, status, headers, body: eventStream ? null : decoded(answer) });
  }
  return answer;
}

function sendRawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const body = request.body ?? new Uint8Array(0);
  const hasHost = (request.headers ?? []).some(([name]) => name.toLowerCase() === "host");
  const lines = [
    `${request.method} ${request.target} HTTP/1.1`,
    ...(hasHost ? [] : [`Host: ${url.host}`]),
    "Connection: close",
  ];
  for (const [name, value] of request.headers ?? []) lines.push(`${name}: ${value}`);
  if (!request.omitContentLength && (body.length > 0 || !["GET", "HEAD", "DELETE"].includes(request.method)))
    lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");

  return new Promise<RawAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      // A reset after a complete answer (the server refused a body it did not read) is still an answer.
      if (error && data.length === 0) return reject(error);
      try {
        resolve(parseAnswer(data));
      } catch (parseError) {
        reject(error ?? parseError);
      }
    };
    const timer = setTimeout(
      () => finish(new Error(`No answer within ${TIMEOUT_MS} ms to ${request.method} ${request.target.slice(0, 200)}`)),
      TIMEOUT_MS,
    );
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      const data = Buffer.concat(chunks);
      const headEnd = data.indexOf("\r\n\r\n");
      if (headEnd === -1) return;
      // An event stream never ends by itself: its status and headers are the answer. A complete answer is one too,
      // also when the server keeps the connection open to drain a body it refused.
      const head = data.subarray(0, headEnd).toString("latin1");
      if (/\r\ncontent-type:\s*text\/event-stream/i.test(head)) finish();
      else if (request.method !== "HEAD" && completeAnswer(data)) finish();
    });
    socket.once("end", () => finish());
    socket.once("close", () => finish());
    socket.once("error", (error) => finish(error));
    socket.write(head);
    if (body.length > 0) socket.write(body);
  });
}
