import { deliveryEventSchema, streamDeliveryEventsContract } from "@/lib/contracts/webhooks";
import { errorFromResponse } from "./api-client";
import type { z } from "zod";

export type DeliveryEventMessage = z.infer<typeof deliveryEventSchema>;

/** Splits an event-stream buffer into complete events; returns them and the unfinished rest. */
export function parseEventStream(buffer: string): { events: { event: string; data: string }[]; rest: string } {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? "";
  const events = blocks.flatMap((block) => {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    return data.length ? [{ event, data: data.join("\n") }] : [];
  });
  return { events, rest };
}

/** The stream went quiet for longer than `idleTimeoutMs`: the connection died without closing. */
export class EventStreamIdleError extends Error {
  constructor(idleTimeoutMs: number) {
    super(`no data on the event stream for ${Math.round(idleTimeoutMs / 1000)} s`);
    this.name = "EventStreamIdleError";
  }
}

/**
 * Follows the workspace's delivery events until `signal` aborts. Uses fetch rather than EventSource so the request
 * carries the same headers as every other dashboard call (EventSource cannot send headers). Resolves when the stream
 * ends; the caller reconnects (and polls meanwhile). A refusal throws `ApiClientError` with the answer's status.
 */
export async function followDeliveryEvents(options: {
  /** Origin of the API; empty for same-origin calls from the dashboard. */
  baseUrl?: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  onEvent: (event: DeliveryEventMessage) => void;
  /** Called once the server has accepted the stream (it subscribes the caller before it answers). */
  onOpen?: () => void;
  /**
   * Throw `EventStreamIdleError` when nothing, not even the server's keep-alive comment (every 15 s), arrives for this
   * long: a connection dropped by a NAT or a sleeping laptop may never be closed, and would otherwise wait forever.
   */
  idleTimeoutMs?: number;
}): Promise<void> {
  const { idleTimeoutMs } = options;
  const connection = new AbortController();
  const stop = () => connection.abort();
  options.signal.addEventListener("abort", stop, { once: true });
  let idle = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const watchIdle = () => {
    if (idleTimeoutMs === undefined) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idle = true;
      connection.abort();
    }, idleTimeoutMs);
  };
  try {
    if (options.signal.aborted) return;
    watchIdle();
    const response = await fetch(`${options.baseUrl ?? ""}${streamDeliveryEventsContract.path}`, {
      headers: { accept: "text/event-stream", ...options.headers },
      signal: connection.signal,
    });
    if (!response.ok) throw await errorFromResponse(response, "The event stream");
    if (!response.body) throw new Error("The event stream answered without a body");
    options.onOpen?.();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      watchIdle();
      const parsed = parseEventStream(buffer + value);
      buffer = parsed.rest;
      for (const { event, data } of parsed.events) {
        let fields: unknown;
        try {
          fields = JSON.parse(data);
        } catch {
          continue; // not one of ours
        }
        const message = deliveryEventSchema.safeParse({ ...(fields as object), type: event });
        if (message.success) options.onEvent(message.data);
      }
    }
  } catch (error) {
    if (idle && idleTimeoutMs !== undefined) throw new EventStreamIdleError(idleTimeoutMs);
    throw error;
  } finally {
    clearTimeout(idleTimer);
    options.signal.removeEventListener("abort", stop);
  }
}
