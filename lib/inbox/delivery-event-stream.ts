import { subscribeToDeliveries } from "./delivery-events";

const HEARTBEAT_MS = 15_000;

export interface DeliveryEventStreamOptions {
  workspaceId: string;
  /** Aborted when the client goes away: the stream closes and unsubscribes. */
  signal: AbortSignal;
  /**
   * Whether the caller may still receive events (its key not revoked, its session not signed out). The stream outlives
   * the request's authentication, so it asks again before sending anything more.
   */
  isStillAllowed: () => Promise<boolean>;
}

/**
 * The workspace's new and acknowledged deliveries as server-sent events (`event: delivery.created|acknowledged`,
 * `data: {endpointId, deliveryId}`), with a heartbeat comment every 15 s and `retry: 3000` for the client's reconnects.
 */
export function createDeliveryEventStream(options: DeliveryEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = () => {};
  let closed = false;
  return new ReadableStream<Uint8Array>({
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
      // A caller no longer allowed ends the stream before anything more is sent. Every text waits for a check that
      // began after it arrived; texts arriving while a check runs share the next one, so a burst of deliveries costs
      // one check, not one per event. Order is kept. The client then reconnects and is refused.
      let pending: string[] = [];
      let checking = false;
      const flush = async () => {
        if (checking) return;
        checking = true;
        while (pending.length > 0 && !closed) {
          const batch = pending;
          pending = [];
          if (!(await options.isStillAllowed().catch(() => false))) close();
          else for (const text of batch) send(text);
        }
        checking = false;
      };
      const sendIfStillAllowed = (text: string) => {
        pending.push(text);
        void flush();
      };
      send("retry: 3000\n: connected\n\n");
      const unsubscribe = await subscribeToDeliveries(options.workspaceId, (event) =>
        sendIfStillAllowed(
          `event: ${event.type}\ndata: ${JSON.stringify({ endpointId: event.endpointId, deliveryId: event.deliveryId })}\n\n`,
        ),
      );
      const heartbeat = setInterval(() => sendIfStillAllowed(": keep-alive\n\n"), HEARTBEAT_MS);
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      options.signal.addEventListener("abort", close);
    },
    cancel() {
      closed = true;
      stop();
    },
  });
}
