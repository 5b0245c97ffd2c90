import { isPrincipalActive } from "@/lib/api/authenticate";
import { route } from "@/lib/api/route";
import { streamDeliveryEventsContract } from "@/lib/contracts/webhooks";
import { subscribeToDeliveries } from "@/lib/inbox/delivery-events";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

// GET /v1/webhook-endpoints/deliveries/events — server-sent events for new and acknowledged deliveries.
export const GET = route(streamDeliveryEventsContract, async ({ auth, request }) => {
  const encoder = new TextEncoder();
  let stop = () => {};
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // the client went away between two events
        }
      };
      // The stream outlives the request's authentication: a key revoked or a session signed out meanwhile ends it
      // before anything more is sent. Every text waits for a check that began after it arrived; texts arriving while
      // a check runs share the next one, so a burst of deliveries costs one check, not one per event. Order is kept.
      // The client then reconnects and is refused.
      let pending: string[] = [];
      let checking = false;
      const flush = async () => {
        if (checking) return;
        checking = true;
        while (pending.length > 0 && !closed) {
          const batch = pending;
          pending = [];
          if (!(await isPrincipalActive(auth).catch(() => false))) close();
          else for (const text of batch) send(text);
        }
        checking = false;
      };
      const sendIfStillAllowed = (text: string) => {
        pending.push(text);
        void flush();
      };
      send("retry: 3000\n: connected\n\n");
      const unsubscribe = await subscribeToDeliveries(auth.workspace.id, (event) =>
        sendIfStillAllowed(`event: ${event.type}\ndata: ${JSON.stringify({ endpointId: event.endpointId, deliveryId: event.deliveryId })}\n\n`),
      );
      const heartbeat = setInterval(() => sendIfStillAllowed(": keep-alive\n\n"), HEARTBEAT_MS);
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", close);
    },
    cancel() {
      closed = true;
      stop();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
});
