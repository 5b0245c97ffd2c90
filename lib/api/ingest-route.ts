import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { SOURCE_IP_HEADER } from "@/lib/auth/sign-in-source";
import { env } from "@/lib/env";
import { MAX_DELIVERY_BYTES } from "@/lib/inbox/payload";
import { resolveForwardedSourceIp, trustedProxies, UNKNOWN_SOURCE } from "@/lib/inbox/source-ip";
import { receivedHeaders } from "./ingest-http";
import { webIngestBody } from "./ingest-body";
import { ingestRequest, type IngestTarget } from "./ingest-request";

/*
 * POST /webhooks/ingest/:hookId as a Next.js route handler (app/webhooks/ingest/[hookId]/route.ts), for deployments
 * without the launcher (`next start`, a serverless platform) and for the launcher with INGEST_FAST_PATH=false. Same
 * domain code as the fast path (lib/api/ingest-request.ts); what differs is what a route handler can see of the request.
 *
 * Next.js hands the handler a fetch Request built from Node's parsed headers: repeats of some headers dropped
 * (content-type, user-agent, …), cookies joined with "; ", x-forwarded-host/-port/-proto/-for added when the sender sent
 * none, its internal headers removed, and the query string re-serialized from its parsed form. When the launcher
 * passes the request on, it hands over what it received (the header lines and the target as sent) beside the
 * request, in an AsyncLocalStorage no client can write to, and stamps the source address (lib/auth/sign-in-source.ts);
 * without the launcher, the handler stores what Next.js passes.
 */

/** What the launcher received, for the route handler of the request it passes on. */
interface LauncherHandoff {
  target: IngestTarget;
  headers: Record<string, string>;
}

// On globalThis: the launcher and the built route are separate module instances in one process.
const HANDOFF_SLOT = Symbol.for("signalbox.ingestHandoff");
function handoffs(): AsyncLocalStorage<LauncherHandoff> {
  const holder = globalThis as typeof globalThis & { [HANDOFF_SLOT]?: AsyncLocalStorage<LauncherHandoff> };
  holder[HANDOFF_SLOT] ??= new AsyncLocalStorage();
  return holder[HANDOFF_SLOT];
}

/** The methods the route file exports. */
const ROUTE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether the launcher may hand this ingest request to the route handler, else its fast path answers it: Next.js
 * answers other methods before any handler runs (a bare 400, TRACE a 500), and resolves an id of "." or ".." out of
 * the ingest path (a redirect).
 */
export function routeHandlerServes(method: string | undefined, target: IngestTarget): boolean {
  return ROUTE_METHODS.has(method ?? "") && target.hookId !== "." && target.hookId !== "..";
}

/**
 * The launcher: runs `pass` (Next.js's handler) with the ingest request's exact headers and target in reach. The
 * request is routed by its endpoint id alone, re-encoded: Next.js would redirect a trailing slash and fail on
 * percent-encoding that is not UTF-8 (a plain 500), which the fast path reads as an unknown endpoint (404).
 */
export function passIngestToNext(request: IncomingMessage, target: IngestTarget, pass: () => void): void {
  const headers = receivedHeaders(request.rawHeaders);
  request.url = `/webhooks/ingest/${encodeURIComponent(target.hookId)}`;
  handoffs().run({ target, headers }, pass);
}

/** Fetch headers as a delivery stores them: repeats (set-cookie, the only ones fetch keeps apart) joined with ", ". */
function storedHeaders(headers: Headers): Record<string, string> {
  const stored = Object.create(null) as Record<string, string>; // no inherited "constructor" or "__proto__"
  headers.forEach((value, name) => (stored[name] = name in stored ? `${stored[name]}, ${value}` : value));
  return stored;
}

/** The handler of every method; anything but POST answers 405 (Next.js would answer an empty 405). */
export async function handleIngestRoute(
  request: Request,
  context: { params: Promise<{ hookId: string }> },
): Promise<Response> {
  const handoff = handoffs().getStore();
  const target = handoff?.target ?? {
    hookId: (await context.params).hookId,
    query: new URL(request.url).search.slice(1),
  };
  // Only the launcher's stamp is believed: it replaced whatever a client sent under that name.
  const sourceIp = handoff
    ? (request.headers.get(SOURCE_IP_HEADER) ?? UNKNOWN_SOURCE)
    : resolveForwardedSourceIp(request.headers.get("x-forwarded-for"), trustedProxies());
  const body = webIngestBody(request.body, request.headers.get("content-length"), MAX_DELIVERY_BYTES, {
    minBytesPerSecond: env().INGEST_MIN_BYTES_PER_SECOND,
    graceMs: env().INGEST_BODY_RATE_GRACE_MS,
  });
  const outcome = await ingestRequest({
    method: request.method,
    target,
    headers: handoff?.headers ?? storedHeaders(request.headers),
    sourceIp,
    body,
  });
  switch (outcome.kind) {
    case "stored":
      return Response.json({ received: true, deliveryId: outcome.deliveryId });
    case "too_slow":
      return new Response(null, { status: 408, headers: { connection: "close" } });
    case "aborted":
      return new Response(null, { status: 400 }); // nobody is left to read it
    case "refused": {
      // The answer goes out at once and ends once the rest of the body is drained (lib/api/ingest-body.ts): ending it
      // with input unread would let Node reset the connection before the sender has read it.
      const bytes = new Uint8Array(await outcome.answer.arrayBuffer());
      const stream = new ReadableStream<Uint8Array>({
        start: (controller) => {
          controller.enqueue(bytes);
          void body.drain().then(() => controller.close());
        },
      });
      return new Response(stream, { status: outcome.answer.status, headers: outcome.answer.headers });
    }
  }
}
