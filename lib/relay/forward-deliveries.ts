import { ApiClientError } from "@/lib/client/api-client";
import { acknowledgeDeliveryContract, getDeliveryContract, getDeliveryRawBodyContract } from "@/lib/contracts/webhooks";
import { backoffDelay, FORWARD_BACKOFF, sleep } from "./backoff";
import type { DeliveryHeading, DeliveryQueue, QueuedDelivery } from "./delivery-queue";
import { headersToForward } from "@/lib/contracts/forwarded-headers";
import { formatAttemptLine, formatSkippedLine } from "./output-lines";
import { postToReceiver } from "./post-to-receiver";
import type { RelayContext } from "./relay-context";
import { callService } from "./service-calls";

/**
 * Forwards the queued deliveries one at a time, in order, until the relay stops: a delivery is retried until the
 * receiver answers it with a 2xx, and only then acknowledged (with --ack) and the next one taken. Throws what ends
 * the relay (a revoked key, say); the service being away is waited out.
 */
export async function forwardDeliveries(relay: RelayContext, queue: DeliveryQueue): Promise<void> {
  for (;;) {
    const queued = await queue.take(relay.signal);
    if (!queued) return;
    try {
      await forwardDelivery(relay, queued);
    } catch (error) {
      if (!(error instanceof ApiClientError && error.status === 404)) throw error;
      relay.print(formatSkippedLine(new Date(), queued.id, "deleted from Signalbox meanwhile"));
    }
  }
}

async function forwardDelivery(relay: RelayContext, queued: QueuedDelivery): Promise<void> {
  const { api, signal, options } = relay;
  const retrying = (what: string) => ({
    what,
    serviceUrl: options.serviceUrl,
    signal,
    notice: relay.notice,
    random: relay.random,
  });
  const params = { id: queued.id };
  const heading: DeliveryHeading | undefined =
    queued.heading ??
    (await callService(
      async () => (await api.call(getDeliveryContract, { params })).data,
      retrying(`Reading delivery ${queued.id}`),
    ));
  if (!heading) return; // stopped
  if (heading.acknowledgedAt !== null) {
    relay.print(formatSkippedLine(new Date(), queued.id, "acknowledged elsewhere before its turn"));
    return;
  }
  const body = await callService(
    async () => new Uint8Array(await (await api.open(getDeliveryRawBodyContract, { params })).arrayBuffer()),
    retrying(`Reading the body of ${queued.id}`),
  );
  if (!body) return;
  const headers = headersToForward(heading.headers);

  for (let failures = 0; ;) {
    const { outcome, latencyMs } = await postToReceiver({ url: options.forwardTo, headers, body, signal });
    // Stopped mid-request: whatever the receiver answers, the delivery stays pending for the next run.
    if (signal.aborted) return;
    const line = { time: new Date(), deliveryId: queued.id, eventType: heading.eventType, outcome, latencyMs };
    if ("status" in outcome && outcome.status >= 200 && outcome.status < 300) {
      relay.print(formatAttemptLine(line));
      if (options.acknowledge)
        await callService(
          () => api.call(acknowledgeDeliveryContract, { params }),
          retrying(`Acknowledging ${queued.id}`),
        );
      return;
    }
    failures += 1;
    const delay = backoffDelay(failures, FORWARD_BACKOFF, relay.random);
    relay.print(formatAttemptLine({ ...line, retry: { failures, inMs: delay } }));
    await sleep(delay, signal);
    if (signal.aborted) return;
  }
}
