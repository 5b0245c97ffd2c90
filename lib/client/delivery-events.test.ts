import { describe, expect, it } from "vitest";
import { parseEventStream } from "./delivery-events";

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
