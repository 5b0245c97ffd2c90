import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "@/lib/api/error-response";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { enforceIngestRateLimit } from "@/lib/ratelimit/limits";
import { ingestDelivery } from "@/lib/inbox/ingest-delivery";
import { MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { resolveSourceIp, trustedProxies } from "@/lib/inbox/source-ip";
import { BodyTooSlowError, ingestBody, RequestAbortedError } from "./ingest-body";

const INGEST_PATH = /^\/webhooks\/ingest\/([^/?#]+)\/?(?:\?(.*))?$/;

/** The endpoint id when `url` is an ingest address (`/webhooks/ingest/:hookId[?query]`), else null. */
export function matchIngestPath(url: string): { hookId: string; query: string } | null {
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

// After refusing a body, the rest of it is read and discarded (within these bounds) before the response ends: Node
// closes a connection as soon as a response ends when the sender asked for `Connection: close`, and closing with unread
// input sends a TCP reset that can reach the sender before our answer. Past the bounds the sender is abusive and the
// connection is cut.
const DRAIN_MAX_BYTES = 8 * 1024 * 1024;
const DRAIN_MAX_MS = 5_000;

/** Sends the whole answer now; ends the response only once the request is fully read (or cut past the bounds). */
function answerAfterDraining(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  response.write(body);
  let drained = 0;
  let finished = false;
  const finish = (cut: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (cut) request.destroy();
    else response.end();
  };
  const timer = setTimeout(() => finish(true), DRAIN_MAX_MS);
  timer.unref();
  request.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) finish(true);
  });
  request.once("end", () => finish(false));
  request.once("close", () => finish(false));
  request.resume();
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
 * the socket's peer and the headers exactly as sent, and the hot path skips the framework. Same error body as the API.
 */
export async function handleIngestRequest(
  request: IncomingMessage,
  response: ServerResponse,
  target: { hookId: string; query: string },
): Promise<void> {
  let answer: Response;
  let refusedBody = false;
  const body = ingestBody(request, MAX_DELIVERY_BYTES, {
    minBytesPerSecond: env().INGEST_MIN_BYTES_PER_SECOND,
    graceMs: env().INGEST_BODY_RATE_GRACE_MS,
  });
  try {
    if (request.method !== "POST") {
      throw new ApiError("method_not_allowed", `${request.method} is not allowed here. Senders POST to this address.`, {
        headers: { allow: "POST" },
      });
    }
    const headers = receivedHeaders(request.rawHeaders);
    const { deliveryId } = await ingestDelivery({
      hookId: target.hookId,
      headers,
      // Called once the endpoint is known and enabled, so only real endpoints are counted (429 before any body is read).
      readBody: async () => {
        await enforceIngestRateLimit(target.hookId);
        return body.read();
      },
      sourceIp: resolveSourceIp(
        request.socket.remoteAddress ?? "",
        headers["x-forwarded-for"] ?? null,
        trustedProxies(),
      ),
      query: target.query,
    }).finally(body.release);
    // The hot path answers directly: building a fetch Response and reading it back costs more than the answer itself.
    const answerBody = Buffer.from(JSON.stringify({ received: true, deliveryId }));
    response.writeHead(200, { "content-type": "application/json", "content-length": String(answerBody.length) });
    response.end(answerBody);
    return;
  } catch (error) {
    if (error instanceof RequestAbortedError) return; // nobody left to answer, nothing stored
    // As Node answers a request that outlives HTTP_REQUEST_TIMEOUT_MS; the rest of a body this slow is not awaited.
    if (error instanceof BodyTooSlowError) {
      response.writeHead(408, { connection: "close", "content-length": "0" }).end();
      return;
    }
    refusedBody = !request.readableEnded;
    answer = errorResponse(error);
  }
  await send(request, response, answer, refusedBody);
}
