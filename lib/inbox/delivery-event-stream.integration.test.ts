import { describe, expect, it } from "vitest";
import { dbPool } from "@/lib/db/client";
import { createDeliveryEventStream } from "./delivery-event-stream";
import { countDeliverySubscriptions } from "./delivery-events";

// The stream's lifetime in this process, on the real LISTEN connection: however early or late its request is
// dropped (before the stream is made, while it subscribes, while it streams) or its reader cancels, it unsubscribes
// and gives its place back exactly once. test/hostile/event-streams.integration.test.ts does the same over HTTP.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream whose request aborts `abortAfterMs` after it is made (negative: before) or whose reader cancels. */
async function churn(options: { abortAfterMs: number; cancelInstead: boolean; onClose: () => void }) {
  const request = new AbortController();
  if (options.abortAfterMs < 0) request.abort();
  const stream = createDeliveryEventStream({
    workspaceId: "ws_churn",
    signal: request.signal,
    isStillAllowed: async () => true,
    onClose: options.onClose,
  });
  const reader = stream.getReader();
  void reader.read().catch(() => {});
  await sleep(Math.max(0, options.abortAfterMs));
  if (options.cancelInstead) await reader.cancel().catch(() => {});
  else request.abort();
}

describe("createDeliveryEventStream", () => {
  it("leaves no subscription behind when 3,000 streams end within 0–10 ms of being made", async () => {
    let closed = 0;
    await Promise.all(
      Array.from({ length: 3_000 }, (_, index) =>
        churn({
          abortAfterMs: (index % 12) - 1,
          cancelInstead: index % 5 === 0,
          onClose: () => (closed += 1),
        }),
      ),
    );
    await expect.poll(() => countDeliverySubscriptions()).toBe(0);
    expect(closed).toBe(3_000);

    // The control: a stream left open stays subscribed.
    const request = new AbortController();
    createDeliveryEventStream({ workspaceId: "ws_open", signal: request.signal, isStillAllowed: async () => true });
    await expect.poll(() => countDeliverySubscriptions()).toBe(1);
    request.abort();
    expect(countDeliverySubscriptions()).toBe(0);
  });

  it("says `connected` only once it hears the workspace's events, and ends when the LISTEN connection is lost", async () => {
    const request = new AbortController();
    let closed = 0;
    const stream = createDeliveryEventStream({
      workspaceId: "ws_lost",
      signal: request.signal,
      isStillAllowed: async () => true,
      onClose: () => (closed += 1),
    });
    const reader = stream.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain(": connected");
    // Announced right after `connected`: heard.
    await dbPool().query(
      `SELECT pg_notify('signalbox_deliveries', json_build_object('type', 'delivery.created', 'workspaceId', 'ws_lost',
         'endpointId', 'we_x', 'deliveryId', '00000000-0000-4000-8000-000000000001')::text)`,
    );
    let text = "";
    while (!text.includes("delivery.created")) text += new TextDecoder().decode((await reader.read()).value);

    await dbPool().query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN signalbox_deliveries'`,
    );
    for (;;) if ((await reader.read()).done) break;
    expect(closed).toBe(1);
    expect(countDeliverySubscriptions()).toBe(0);
  });
});
