import { subscribeToDeliveries } from "./delivery-events";
import { onHeartbeat } from "./heartbeat";
import { inWriteTurn } from "./write-turns";

export interface DeliveryEventStreamOptions {
  workspaceId: string;
  /** Aborted when the client goes away (also before the stream is made): the stream closes and unsubscribes. */
  signal: AbortSignal;
  /**
   * Whether the caller may still receive events (its key not revoked, its session not signed out). The stream outlives
   * the request's authentication, so it asks again before sending anything more. Called by every open stream of the
   * caller at once on each burst: it should share one check among them (see isPrincipalActive).
   */
  isStillAllowed: () => Promise<boolean>;
  /** Called once when the stream ends, for whatever reason. */
  onClose?: () => void;
}

/**
 * The workspace's new and acknowledged deliveries as server-sent events (`event: delivery.created|acknowledged`,
 * `data: {endpointId, deliveryId}`), with a heartbeat comment every 15 s and `retry: 3000` for the client's reconnects.
 */
export function createDeliveryEventStream(options: DeliveryEventStreamOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // Ends the subscription and the heartbeat whenever the stream ends, even while it is still subscribing.
  const lifetime = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = () => {
    if (lifetime.signal.aborted) return false;
    lifetime.abort();
    options.onClose?.();
    return true;
  };
  const close = () => {
    if (!end()) return;
    try {
      controller.close();
    } catch {
      // already closed or cancelled
    }
  };
  const send = (text: string) => {
    if (lifetime.signal.aborted) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close(); // the client went away between two events
    }
  };
  // A caller no longer allowed ends the stream before anything more is sent. Every text waits for a check that began
  // after it arrived; texts arriving while a check runs share the next one, so a burst of deliveries costs one check,
  // not one per event. Order is kept. The client then reconnects and is refused.
  let pending: string[] = [];
  let checking = false;
  const flush = async () => {
    if (checking) return;
    checking = true;
    while (pending.length > 0 && !lifetime.signal.aborted) {
      const batch = pending;
      pending = [];
      if (!(await options.isStillAllowed().catch(() => false))) close();
      else inWriteTurn(() => send(batch.join(""))); // one write per stream per burst, in turn with other streams
    }
    checking = false;
  };
  const sendIfStillAllowed = (text: string) => {
    pending.push(text);
    void flush();
  };

  return new ReadableStream<Uint8Array>({
    async start(streamController) {
      controller = streamController;
      options.signal.addEventListener("abort", close, { once: true });
      if (options.signal.aborted) return close();
      // A client that read nothing between two heartbeats is gone (or hopelessly stuck), and the server may never be
      // told: a request dropped just before its answer began is neither aborted nor cancelled. Such a stream ends.
      let unreadAtLastBeat = false;
      onHeartbeat(() => {
        const unread = (controller.desiredSize ?? 1) <= 0;
        if (unread && unreadAtLastBeat) return close();
        unreadAtLastBeat = unread;
        sendIfStillAllowed(": keep-alive\n\n");
      }, lifetime.signal);
      await subscribeToDeliveries(
        options.workspaceId,
        (event) =>
          sendIfStillAllowed(
            `event: ${event.type}\ndata: ${JSON.stringify({ endpointId: event.endpointId, deliveryId: event.deliveryId })}\n\n`,
          ),
        lifetime.signal,
        // The LISTEN connection was lost: nothing more would arrive, so the stream ends and the client reconnects.
        close,
      ).catch((error: unknown) => {
        end();
        throw error; // errors the stream: the client reconnects
      });
      // Only now: a client that waits for this line before it lists what it missed misses nothing in between.
      send("retry: 3000\n: connected\n\n");
    },
    cancel() {
      close();
    },
  });
}
