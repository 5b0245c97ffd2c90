import { describe, expect, it } from "vitest";
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
});
