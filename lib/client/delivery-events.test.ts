import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiClientError } from "./api-client";
import { EventStreamIdleError, followDeliveryEvents, parseEventStream } from "./delivery-events";

describe("parseEventStream", () => {
  it("splits complete events and keeps the unfinished rest", () => {
    const { events, rest } = parseEventStream(
      'retry: 3000\n: connected\n\nevent: delivery.created\ndata: {"a":1}\n\nevent: delivery.ack',
    );
    expect(events).toEqual([{ event: "delivery.created", data: '{"a":1}' }]);
    expect(rest).toBe("event: delivery.ack");
  });

  it("joins multi-line data, defaults the event name, and ignores comment-only blocks", () => {
    expect(parseEventStream("data: one\ndata: two\n\n: keep-alive\n\n").events).toEqual([
      { event: "message", data: "one\ntwo" },
    ]);
  });

  it("accepts CRLF line endings", () => {
    expect(parseEventStream("event: x\r\ndata: y\r\n\r\n").events).toEqual([{ event: "x", data: "y" }]);
  });
});

describe("parseEventStream across chunks", () => {
  it("gives the same events however the text is cut", () => {
    const text =
      'retry: 3000\n: connected\n\nevent: delivery.created\ndata: {"endpointId":"we_1","deliveryId":"d1"}\n\n' +
      'event: delivery.acknowledged\ndata: {"endpointId":"we_1","deliveryId":"d1"}\n\n';
    const whole = parseEventStream(text).events;
    for (let cut = 1; cut < text.length; cut += 1) {
      const first = parseEventStream(text.slice(0, cut));
      const second = parseEventStream(first.rest + text.slice(cut));
      expect([...first.events, ...second.events], `cut at ${cut}`).toEqual(whole);
    }
  });
});

describe("followDeliveryEvents", () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A fetch that answers with `status` and a body made of `chunks`, then stays open (or ends with `end`). */
  function answerWith(status: number, chunks: string[], end = false, body?: string) {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        if (body !== undefined) return new Response(body, { status, headers: { "content-type": "application/json" } });
        const encoder = new TextEncoder();
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
            if (end) controller.close();
            init.signal?.addEventListener("abort", () => controller.error(init.signal?.reason));
          },
        });
        return new Response(stream, { status, headers: { "content-type": "text/event-stream" } });
      }),
    );
  }

  it("says when the stream is open and passes on the events it carries, cut anywhere", async () => {
    answerWith(
      200,
      [
        "retry: 3000\n: connected\n\nevent: delivery.cre",
        'ated\ndata: {"endpointId":"we_1",',
        '"deliveryId":"d1"}\n\n',
      ],
      true,
    );
    const seen: string[] = [];
    await followDeliveryEvents({
      headers: {},
      signal: new AbortController().signal,
      onOpen: () => seen.push("open"),
      onEvent: (event) => seen.push(`${event.type} ${event.deliveryId}`),
    });
    expect(seen).toEqual(["open", "delivery.created d1"]);
  });

  it("throws the API's error, with its status, when the stream is refused", async () => {
    answerWith(
      401,
      [],
      false,
      JSON.stringify({ success: false, error: { code: "unauthorized", message: "Bad key." } }),
    );
    const following = followDeliveryEvents({ headers: {}, signal: new AbortController().signal, onEvent: () => {} });
    await expect(following).rejects.toBeInstanceOf(ApiClientError);
    await expect(following).rejects.toMatchObject({ status: 401, code: "unauthorized", message: "Bad key." });
  });

  it("gives up on a stream that goes quiet for longer than idleTimeoutMs", async () => {
    answerWith(200, ["retry: 3000\n: connected\n\n"]);
    let opened = false;
    const following = followDeliveryEvents({
      headers: {},
      signal: new AbortController().signal,
      idleTimeoutMs: 20,
      onOpen: () => (opened = true),
      onEvent: () => {},
    });
    await expect(following).rejects.toBeInstanceOf(EventStreamIdleError);
    expect(opened).toBe(true);
  });
});
