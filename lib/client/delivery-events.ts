import { deliveryEventSchema, streamDeliveryEventsContract } from "@/lib/contracts/webhooks";
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

/**
 * Follows the workspace's delivery events until `signal` aborts. Uses fetch rather than EventSource so the request
 * carries the same headers as every other dashboard call (EventSource cannot send headers). Resolves when the stream
 * ends; the caller reconnects (and polls meanwhile).
 */
export async function followDeliveryEvents(options: {
  /** Origin of the API; empty for same-origin calls from the dashboard. */
  baseUrl?: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  onEvent: (event: DeliveryEventMessage) => void;
}): Promise<void> {
  const response = await fetch(`${options.baseUrl ?? ""}${streamDeliveryEventsContract.path}`, {
    headers: { accept: "text/event-stream", ...options.headers },
    signal: options.signal,
  });
  if (!response.ok || !response.body) throw new Error(`Event stream answered ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
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
}
