import { followDeliveryEvents } from "@/lib/client/delivery-events";
import { listDeliveriesContract } from "@/lib/contracts/webhooks";
import { backoffDelay, SERVICE_BACKOFF, sleep } from "./backoff";
import type { DeliveryQueue } from "./delivery-queue";
import { formatSeconds } from "./output-lines";
import { serviceBase, serviceClient, type RelayContext } from "./relay-context";
import { describeServiceFailure, EventStreamClosedError, isPassingFailure } from "./service-calls";

/** Three missed keep-alives (the service sends one every 15 s): the connection is dead even if never closed. */
const STREAM_IDLE_MS = 45_000;

/**
 * How often pending deliveries are listed again while the stream is up. The stream is the fast path; this is the
 * safety net for an announcement it never carried (the service's own database listener reconnecting, say).
 */
const SWEEP_INTERVAL_MS = 30_000;

/** Listing page size: the largest the API allows. */
const PAGE_SIZE = 100;

/**
 * Keeps the queue filled until the relay stops: opens the event stream first, then lists every pending delivery
 * (oldest first) while the stream's announcements are held, so nothing that arrives during the listing is missed or
 * put before an older one; then queues announcements as they come, and lists again every SWEEP_INTERVAL_MS. When the
 * stream drops (or goes quiet), reconnects with backoff and lists again: what arrived in the gap is found. Throws
 * when the first connection fails, or on a failure that does not pass (a revoked key).
 */
export async function followDeliveries(relay: RelayContext, queue: DeliveryQueue): Promise<void> {
  const { options } = relay;
  let connected = false;
  for (let failures = 0; !relay.signal.aborted;) {
    const connection = new AbortController();
    const stop = () => connection.abort();
    relay.signal.addEventListener("abort", stop, { once: true });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    queue.hold();
    const streamEnded = followDeliveryEvents({
      baseUrl: serviceBase(options),
      headers: { authorization: `Bearer ${options.apiKey}` },
      signal: connection.signal,
      idleTimeoutMs: STREAM_IDLE_MS,
      onOpen: opened,
      onEvent: (event) => {
        if (options.endpointId !== null && event.endpointId !== options.endpointId) return;
        if (event.type === "delivery.created") queue.announce(event.deliveryId);
        else queue.drop(event.deliveryId);
      },
    }).then(() => {
      throw new EventStreamClosedError();
    });
    streamEnded.catch(() => {}); // raced below; a rejection nobody awaits yet is not unhandled
    try {
      await Promise.race([open, streamEnded]);
      relay.notice(connected ? "Reconnected; catching up." : readyText(relay));
      connected = true;
      for (;;) {
        const found = await Promise.race([listPending(relay, queue, connection.signal), streamEnded]);
        queue.release();
        if (failures > 0 || found > 0)
          relay.notice(`Caught up: ${found} pending ${found === 1 ? "delivery" : "deliveries"} listed.`);
        failures = 0;
        await Promise.race([sleep(SWEEP_INTERVAL_MS, connection.signal), streamEnded]);
        queue.hold();
      }
    } catch (error) {
      connection.abort();
      if (relay.signal.aborted) return;
      if (!connected || !isPassingFailure(error)) throw error;
      failures += 1;
      const delay = backoffDelay(failures, SERVICE_BACKOFF, relay.random);
      relay.notice(
        `Lost the event stream (${describeServiceFailure(error, options.serviceUrl)}); reconnecting in ${formatSeconds(delay)}.`,
      );
      await sleep(delay, relay.signal);
    } finally {
      relay.signal.removeEventListener("abort", stop);
    }
  }
}

/** Queues every pending delivery in scope, oldest first, a page at a time; returns how many the listing held. */
async function listPending(relay: RelayContext, queue: DeliveryQueue, signal: AbortSignal): Promise<number> {
  const api = serviceClient(relay.options, signal);
  let found = 0;
  let cursor: string | undefined;
  do {
    const page = await api.call(listDeliveriesContract, {
      query: {
        ...(relay.options.endpointId !== null && { endpointId: relay.options.endpointId }),
        unacknowledged: "true",
        order: "asc",
        withPayload: "false",
        limit: PAGE_SIZE,
        cursor,
      },
    });
    for (const { id, eventType, headers, acknowledgedAt } of page.data.deliveries)
      await queue.addListed({ id, eventType, headers, acknowledgedAt }, signal);
    found += page.data.deliveries.length;
    cursor = page.data.nextCursor ?? undefined;
  } while (cursor !== undefined && !signal.aborted);
  return found;
}

function readyText({ options }: RelayContext): string {
  const scope = options.endpointId ? `endpoint ${options.endpointId}` : "every endpoint of the workspace";
  const ack = options.acknowledge ? "acknowledging each after a 2xx" : "acknowledging nothing (--no-ack)";
  return `Ready: forwarding the deliveries of ${scope} from ${options.serviceUrl.origin} to ${options.forwardTo.href}, ${ack}. Ctrl-C to stop.`;
}
