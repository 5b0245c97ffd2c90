import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse } from "@/lib/api/error-response";
import { ApiError } from "@/lib/errors";
import { enforceIngestRateLimit } from "@/lib/ratelimit/limits";
import { ingestDelivery } from "@/lib/inbox/ingest-delivery";
import { MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { resolveSourceIp, trustedProxies } from "@/lib/inbox/source-ip";

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

/** The sender's connection closed, or the server cut it (HTTP_REQUEST_TIMEOUT_MS), before the whole body arrived. */
class RequestAbortedError extends Error {}

/** Reads at most `limit` bytes; a declared or streamed body over it is refused without buffering the rest. */
function readIncomingBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new ApiError("payload_too_large", `Webhook bodies are limited to ${limit} bytes.`);
    // Cut while the endpoint was looked up or the body budget awaited: its "error" and "close" have fired already.
    if (request.destroyed) return reject(new RequestAbortedError());
    if (Number(request.headers["content-length"] ?? 0) > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.off("data", onData);
        request.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks, size)));
    // A sender that goes away mid-body must not hold its share of the body budget (or a batch slot) forever.
    const aborted = () => reject(new RequestAbortedError()); // after "end", a no-op
    request.once("error", aborted);
    request.once("close", aborted);
  });
}

/**
 * How many body bytes the process holds at once, for all requests together: a request waits for its share (its
 * Content-Length, or the whole 1 MiB limit for a chunked body) before reading its body, and gives it back once its
 * delivery is written or refused. Waiting senders are held back by TCP flow control, not by our memory, so 100
 * concurrent 1 MiB uploads cost a few dozen megabytes rather than several hundred (a body is held as bytes, text,
 * parsed JSON and a bind parameter while it is stored).
 */
const BODY_BYTES_IN_FLIGHT = 4 * 1024 * 1024;

function createByteBudget(capacity: number) {
  let available = capacity;
  const waiting: { bytes: number; grant: () => void }[] = [];
  const grantWaiting = () => {
    while (waiting.length && (waiting[0]!.bytes <= available || available === capacity)) {
      const next = waiting.shift()!;
      available -= next.bytes;
      next.grant();
    }
  };
  return {
    /** Resolves once `bytes` are reserved (a request larger than the capacity waits until it is alone). */
    acquire: (bytes: number) =>
      new Promise<void>((resolve) => {
        waiting.push({ bytes, grant: resolve });
        grantWaiting();
      }),
    release: (bytes: number) => {
      available += bytes;
      grantWaiting();
    },
  };
}

const BUDGET_SLOT = Symbol.for("signalbox.ingestBodyBudget");
function bodyBudget(): ReturnType<typeof createByteBudget> {
  const holder = globalThis as typeof globalThis & { [BUDGET_SLOT]?: ReturnType<typeof createByteBudget> };
  holder[BUDGET_SLOT] ??= createByteBudget(BODY_BYTES_IN_FLIGHT);
  return holder[BUDGET_SLOT];
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
  let reserved = 0;
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
        const declared =
          request.headers["content-length"] === undefined
            ? MAX_DELIVERY_BYTES
            : Number(request.headers["content-length"]);
        if (declared <= MAX_DELIVERY_BYTES) {
          reserved = Math.max(declared, 0);
          await bodyBudget().acquire(reserved);
        }
        // The sender may have gone away while this request waited for its share of the body budget.
        return readIncomingBody(request, MAX_DELIVERY_BYTES);
      },
      sourceIp: resolveSourceIp(
        request.socket.remoteAddress ?? "",
        headers["x-forwarded-for"] ?? null,
        trustedProxies(),
      ),
      query: target.query,
    }).finally(() => bodyBudget().release(reserved));
    // The hot path answers directly: building a fetch Response and reading it back costs more than the answer itself.
    const body = Buffer.from(JSON.stringify({ received: true, deliveryId }));
    response.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
    response.end(body);
    return;
  } catch (error) {
    if (error instanceof RequestAbortedError) return; // nobody left to answer, nothing stored
    refusedBody = !request.readableEnded;
    answer = errorResponse(error);
  }
  await send(request, response, answer, refusedBody);
}
