import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "./command-line";
import { DeliveryQueue, type DeliveryHeading } from "./delivery-queue";
import { followDeliveries } from "./follow-deliveries";
import { serviceClient, type RelayContext } from "./relay-context";

// The order of the relay's start, against a scripted service (fetch stubbed): the event stream is opened before the
// backlog is listed, an announcement that arrives during the listing is queued after what the listing found, and a
// dropped stream is reopened and the backlog listed again.

const command = parseCommandLine(["listen", "-f", "http://127.0.0.1:9/hook", "-e", "we_1"], {
  SIGNALBOX_API_KEY: "sk_live_x",
  SIGNALBOX_URL: "http://signalbox.test",
});
if (command.kind !== "listen") throw new Error("unreachable");
const options = command.options;

const heading = (id: string) => ({
  id,
  webhookEndpointId: "we_1",
  workspaceId: "ws_1",
  headers: {},
  sourceIp: "127.0.0.1",
  createdAt: "2026-11-28T00:00:00.000Z",
  acknowledgedAt: null,
  contentType: null,
  sizeBytes: 0,
  query: "",
  signature: null,
  preview: "",
  eventType: null,
});

/** A scripted service: each stream and each listing waits for the test to answer it. */
function scriptedService() {
  const requests: string[] = [];
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const listings: ((ids: string[]) => void)[] = [];
  const encoder = new TextEncoder();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const { pathname } = new URL(url);
      if (pathname.endsWith("/events")) {
        requests.push("stream");
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            streams.push(controller);
            controller.enqueue(encoder.encode("retry: 3000\n: connected\n\n"));
            init.signal?.addEventListener("abort", () => controller.error(new Error("aborted")));
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      requests.push("list");
      const ids = await new Promise<string[]>((resolve) => listings.push(resolve));
      const page = { success: true, data: { deliveries: ids.map(heading), nextCursor: null } };
      return new Response(JSON.stringify(page), { headers: { "content-type": "application/json" } });
    }),
  );
  return {
    requests,
    listings,
    announce: (deliveryId: string, endpointId = "we_1", type = "delivery.created") =>
      streams
        .at(-1)!
        .enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ endpointId, deliveryId })}\n\n`)),
    /** Ends the current stream as a restarting service would. */
    close: () => streams.at(-1)!.close(),
  };
}

function relayContext(signal: AbortSignal, notices: string[]): RelayContext {
  return {
    options,
    api: serviceClient(options, signal),
    signal,
    print: () => {},
    notice: (text) => notices.push(text),
    random: () => 0,
  };
}

/** A queue that records what reached it, so a test can wait for it rather than for time. */
class RecordingQueue extends DeliveryQueue {
  readonly calls: string[] = [];

  override announce(id: string): void {
    this.calls.push(`announce ${id}`);
    super.announce(id);
  }

  override async addListed(delivery: DeliveryHeading, signal: AbortSignal): Promise<void> {
    this.calls.push(`listed ${delivery.id}`);
    await super.addListed(delivery, signal);
  }

  override drop(id: string): void {
    this.calls.push(`drop ${id}`);
    super.drop(id);
  }
}

async function take(queue: DeliveryQueue, count: number): Promise<string[]> {
  const ids: string[] = [];
  const signal = new AbortController().signal;
  for (let index = 0; index < count; index += 1) ids.push((await queue.take(signal))!.id);
  return ids;
}

afterEach(() => vi.unstubAllGlobals());

describe("followDeliveries", () => {
  it("opens the stream before listing, and queues what is announced during the listing after what it found", async () => {
    const service = scriptedService();
    const stop = new AbortController();
    const queue = new RecordingQueue();
    const notices: string[] = [];
    const following = followDeliveries(relayContext(stop.signal, notices), queue);

    await vi.waitFor(() => expect(service.listings).toHaveLength(1));
    expect(service.requests).toEqual(["stream", "list"]);
    expect(notices[0]).toMatch(/^Ready: forwarding the deliveries of endpoint we_1/);
    service.announce("new-1"); // arrived after the listing began, so not in it
    service.announce("old-2"); // arrived as the listing began, and in it
    service.announce("elsewhere", "we_2"); // another endpoint's: not queued
    await vi.waitFor(() => expect(queue.calls).toEqual(["announce new-1", "announce old-2"]));
    service.listings[0]!(["old-1", "old-2"]);
    expect(await take(queue, 3)).toEqual(["old-1", "old-2", "new-1"]);

    service.announce("new-2"); // once caught up, announcements are queued as they come
    expect(await take(queue, 1)).toEqual(["new-2"]);
    stop.abort();
    await following;
  });

  it("drops a queued delivery acknowledged elsewhere", async () => {
    const service = scriptedService();
    const stop = new AbortController();
    const queue = new RecordingQueue();
    const following = followDeliveries(relayContext(stop.signal, []), queue);
    await vi.waitFor(() => expect(service.listings).toHaveLength(1));
    service.listings[0]!(["a", "b"]);
    await vi.waitFor(() => expect(queue.calls).toEqual(["listed a", "listed b"]));
    service.announce("a", "we_1", "delivery.acknowledged");
    await vi.waitFor(() => expect(queue.calls).toContain("drop a"));
    expect(await take(queue, 1)).toEqual(["b"]);
    stop.abort();
    await following;
  });

  it("reopens a dropped stream and lists again, finding what arrived in the gap", async () => {
    const service = scriptedService();
    const stop = new AbortController();
    const queue = new RecordingQueue();
    const notices: string[] = [];
    const following = followDeliveries(relayContext(stop.signal, notices), queue);
    await vi.waitFor(() => expect(service.listings).toHaveLength(1));
    service.listings[0]!(["a"]);
    expect(await take(queue, 1)).toEqual(["a"]);

    service.close();
    await vi.waitFor(() => expect(service.listings).toHaveLength(2), { timeout: 5_000 });
    expect(service.requests).toEqual(["stream", "list", "stream", "list"]);
    expect(notices.some((text) => text.startsWith("Lost the event stream (the service closed the event stream)"))).toBe(
      true,
    );
    service.listings[1]!(["a", "gap"]); // "a" is still pending (say, --no-ack): not queued twice
    expect(await take(queue, 1)).toEqual(["gap"]);
    stop.abort();
    await following;
  });

  it("fails at once when the first connection is refused", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        async () =>
          new Response(JSON.stringify({ success: false, error: { code: "unauthorized", message: "Bad key." } }), {
            status: 401,
            headers: { "content-type": "application/json" },
          }),
      ),
    );
    const following = followDeliveries(relayContext(new AbortController().signal, []), new RecordingQueue());
    await expect(following).rejects.toMatchObject({ status: 401 });
  });
});
