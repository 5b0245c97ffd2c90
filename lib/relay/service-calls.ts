import { ApiClientError } from "@/lib/client/api-client";
import { EventStreamIdleError } from "@/lib/client/delivery-events";
import { backoffDelay, SERVICE_BACKOFF, sleep } from "./backoff";
import { describeNetworkError } from "./network-errors";
import { formatSeconds } from "./output-lines";

/** The service ended the event stream (a restart, a proxy's time limit): the relay reconnects. */
export class EventStreamClosedError extends Error {
  constructor() {
    super("the service closed the event stream");
    this.name = "EventStreamClosedError";
  }
}

/**
 * A failure that passes by itself: the service unreachable or overloaded (a network error, a 5xx, a 429, a stream
 * gone quiet). Anything else (401, 403, 404, an answer of the wrong shape) stays the same however often it is asked.
 */
export function isPassingFailure(error: unknown): boolean {
  if (error instanceof ApiClientError) return error.status >= 500 || error.status === 429 || error.status === 408;
  if (error instanceof EventStreamIdleError || error instanceof EventStreamClosedError) return true;
  return error instanceof TypeError; // fetch's "fetch failed": refused, reset, DNS
}

/** One line for the user: what the service said, or why it could not be reached. */
export function describeServiceFailure(error: unknown, serviceUrl: URL): string {
  if (error instanceof ApiClientError) {
    if (error.status === 401)
      return `The service refused the API key (401): ${error.message} Check SIGNALBOX_API_KEY and SIGNALBOX_URL.`;
    if (error.status === 403)
      return `The API key may not do this (403): ${error.message} The relay needs inbox:read, and inbox:ack unless --no-ack.`;
    return `The service answered ${error.status} (${error.code}): ${error.message}`;
  }
  if (error instanceof TypeError)
    return `Cannot reach Signalbox at ${serviceUrl.origin}: ${describeNetworkError(error)}. Is it running? (SIGNALBOX_URL)`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Calls the service until it answers, waiting between passing failures (printed through `notice`); other failures
 * are thrown. Undefined once `signal` aborts.
 */
export async function callService<T>(
  call: () => Promise<T>,
  options: { what: string; serviceUrl: URL; signal: AbortSignal; notice: (text: string) => void; random: () => number },
): Promise<T | undefined> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await call();
    } catch (error) {
      if (options.signal.aborted) return undefined;
      if (!isPassingFailure(error)) throw error;
      const delay = backoffDelay(failures, SERVICE_BACKOFF, options.random);
      options.notice(
        `${options.what} failed: ${describeServiceFailure(error, options.serviceUrl)}; retrying in ${formatSeconds(delay)}`,
      );
      await sleep(delay, options.signal);
      if (options.signal.aborted) return undefined;
    }
  }
}
