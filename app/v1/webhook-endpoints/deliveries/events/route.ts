import { route } from "@/lib/api/route";
import { streamDeliveryEventsContract } from "@/lib/contracts/webhooks";
import { subscribeToDeliveries } from "@/lib/inbox/delivery-events";

export const dynamic = "force-dynamic";

const HEARTBEAT_MS = 15_000;

// GET /v1/webhook-endpoints/deliveries/events — server-sent events for new and acknowledged deliveries.
export const GET = route(streamDeliveryEventsContract, async ({ auth, request }) => {
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // the client went away between two events
        }
      };
      send("retry: 3000\n: connected\n\n");
      const unsubscribe = await subscribeToDeliveries(auth.workspace.id, (event) =>
        send(`event: ${event.type}\ndata: ${JSON.stringify({ endpointId: event.endpointId, deliveryId: event.deliveryId })}\n\n`),
      );
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
});
