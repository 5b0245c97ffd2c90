import type { Server, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { ArraySet } from "@/lib/array-set";

/**
 * Closes a server the way a rolling restart needs: no new connections, every request in flight answered (an ingest
 * request cut off mid-body makes its sender retry, and some never do), each keep-alive connection closed as soon as it
 * is idle, and live event streams ended at once (their clients reconnect elsewhere and catch up). Whatever is still
 * open after `graceMs` is closed. Returns the function that starts the close; install before the server listens.
 */
export function gracefulClose(server: Server): (graceMs: number) => Promise<void> {
  // An ArraySet, not a Set: a Set churned at the request rate kept finished requests alive (lib/array-set.ts).
  const inFlight = new ArraySet<ServerResponse>();
  let closing = false;
  server.on("request", (_request, response: ServerResponse) => {
    // A request that arrives on a kept connection while closing is answered, and its connection closed after.
    if (closing) response.shouldKeepAlive = false;
    inFlight.add(response);
    response.once("close", () => inFlight.delete(response));
  });

  return async (graceMs) => {
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sweep = () => {
      server.closeIdleConnections();
      for (const response of inFlight) if (isEventStream(response)) response.destroy();
    };
    sweep();
    const sweeper = setInterval(sweep, 50);
    const drained = await Promise.race([closed.then(() => true), delay(graceMs).then(() => false)]);
    clearInterval(sweeper);
    if (!drained) {
      server.closeAllConnections();
      await closed;
    }
  };
}

function isEventStream(response: ServerResponse): boolean {
  return String(response.getHeader("content-type") ?? "").startsWith("text/event-stream");
}
