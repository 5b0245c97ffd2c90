import type { IncomingMessage, ServerResponse } from "node:http";
import { env } from "@/lib/env";
import { MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { resolveSourceIp, trustedProxies } from "@/lib/inbox/source-ip";
import { ingestBody } from "./ingest-body";
import { drainRequest } from "./request-drain";
import { acknowledgement, ingestRequest, type IngestTarget } from "./ingest-request";

const INGEST_PATH = /^\/webhooks\/ingest\/([^/?#]+)\/?(?:\?(.*))?$/;

/** The endpoint id when `url` is an ingest address (`/webhooks/ingest/:hookId[?query]`), else null. */
export function matchIngestPath(url: string): IngestTarget | null {
  const match = INGEST_PATH.exec(url);
  if (!match?.[1]) return null;
  let hookId: string;
  try {
    hookId = decodeURIComponent(match[1]);
  } catch {
    hookId = match[1];
  }
  return { hookId, query: match[2] ?? "" };
}

/**
 * Headers exactly as the sender wrote them: names lower-cased, values untouched, repeated headers joined with ", ".
 * Built from `rawHeaders` because Node's parsed `headers` drop repeats of some headers (content-type, user-agent, …).
 */
export function receivedHeaders(rawHeaders: string[]): Record<string, string> {
  const headers = Object.create(null) as Record<string, string>; // no inherited "constructor" or "__proto__"
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    const value = rawHeaders[index + 1]!;
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

/** Sends the whole answer now; ends the response only once the request is fully read (or cut past the bounds). */
function answerAfterDraining(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  response.write(body);
  drainRequest(request, (cut) => (cut ? request.destroy() : response.end()));
}

async function send(
  request: IncomingMessage,
  response: ServerResponse,
  answer: Response,
  bodyStillArriving: boolean,
): Promise<void> {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers: Record<string, string> = { "content-length": String(body.length) };
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  if (bodyStillArriving) answerAfterDraining(request, response, body);
  else response.end(body);
}

/**
 * POST /webhooks/ingest/:hookId, served by the launcher on plain node:http rather than by Next.js: the handler sees
 * the socket's peer and the headers exactly as sent, and the hot path skips the framework. The same requests reach
 * app/webhooks/ingest/[hookId]/route.ts when the launcher is not in front or INGEST_FAST_PATH=false.
 */
export async function handleIngestRequest(
  request: IncomingMessage,
  response: ServerResponse,
  target: IngestTarget,
): Promise<void> {
  const headers = receivedHeaders(request.rawHeaders);
  const outcome = await ingestRequest({
    method: request.method ?? "",
    target,
    headers,
    sourceIp: resolveSourceIp(request.socket.remoteAddress ?? "", headers["x-forwarded-for"] ?? null, trustedProxies()),
    body: ingestBody(request, MAX_DELIVERY_BYTES, {
      minBytesPerSecond: env().INGEST_MIN_BYTES_PER_SECOND,
      graceMs: env().INGEST_BODY_RATE_GRACE_MS,
    }),
  });
  switch (outcome.kind) {
    case "stored": {
      // The hot path answers directly: building a fetch Response and reading it back costs more than the answer itself.
      const answerBody = acknowledgement(outcome.deliveryId); // ASCII: its length is its byte count
      response.writeHead(200, ["content-type", "application/json", "content-length", String(answerBody.length)]);
      response.end(answerBody);
      return;
    }
    case "too_slow":
      // As Node answers a request that outlives HTTP_REQUEST_TIMEOUT_MS; the rest of a body this slow is not awaited.
      response.writeHead(408, { connection: "close", "content-length": "0" }).end();
      return;
    case "aborted":
      return;
    case "refused":
      await send(request, response, outcome.answer, !request.readableEnded);
  }
}
