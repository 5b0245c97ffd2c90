import { ApiClientError } from "@/lib/client/api-client";
import { getWebhookEndpointContract } from "@/lib/contracts/webhooks";
import type { ListenOptions } from "./command-line";
import { DeliveryQueue } from "./delivery-queue";
import { followDeliveries } from "./follow-deliveries";
import { forwardDeliveries } from "./forward-deliveries";
import { serviceClient, type RelayContext } from "./relay-context";

/**
 * Runs the relay until `signal` aborts (resolves) or a failure ends it (throws: the key refused, the endpoint
 * unknown, the service unreachable at start). Two loops share one queue: one fills it from the event stream and
 * listings, the other forwards from it; when either fails the other is stopped too.
 */
export async function runRelay(
  options: ListenOptions,
  io: Pick<RelayContext, "print" | "notice"> & { signal: AbortSignal; random?: () => number },
): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  io.signal.addEventListener("abort", onSignal, { once: true });
  if (io.signal.aborted) stop.abort();
  const relay: RelayContext = {
    options,
    api: serviceClient(options, stop.signal),
    signal: stop.signal,
    print: io.print,
    notice: io.notice,
    random: io.random ?? Math.random,
  };
  try {
    // A mistyped endpoint id would otherwise list nothing and wait forever.
    if (options.endpointId !== null)
      await relay.api.call(getWebhookEndpointContract, { params: { id: options.endpointId } }).catch((error) => {
        if (stop.signal.aborted) return;
        if (error instanceof ApiClientError && error.status === 404)
          throw new Error(`No webhook endpoint ${options.endpointId} in the API key's workspace (404).`);
        throw error;
      });
    let failure: { error: unknown } | undefined;
    const run = (loop: Promise<void>) =>
      loop.catch((error: unknown) => {
        failure ??= { error };
        stop.abort();
      });
    const queue = new DeliveryQueue();
    await Promise.all([run(forwardDeliveries(relay, queue)), run(followDeliveries(relay, queue))]);
    if (failure && !io.signal.aborted) throw failure.error;
  } finally {
    io.signal.removeEventListener("abort", onSignal);
  }
}
