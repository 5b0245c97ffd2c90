import { describe, expect, it } from "vitest";
import { headersToForward } from "./forwarded-headers";

describe("headersToForward", () => {
  it("keeps the sender's headers as received, content-type and content-encoding included", () => {
    const stored = {
      "content-type": "application/json; charset=utf-8",
      "content-encoding": "gzip",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": "t=1,v1=abc",
      "x-repeated": "a, b",
      accept: "*/*",
    };
    expect(headersToForward(stored)).toEqual(stored);
  });

  it("drops hop-by-hop and framing headers, every proxy-* header, and those the Connection header names", () => {
    expect(
      headersToForward({
        connection: "keep-alive, X-Trace-Hop",
        "keep-alive": "timeout=5",
        te: "trailers",
        trailer: "expires",
        "transfer-encoding": "chunked",
        upgrade: "websocket",
        host: "signalbox.example.com",
        "content-length": "42",
        expect: "100-continue",
        "proxy-authorization": "Basic xyz",
        "proxy-connection": "keep-alive",
        "x-trace-hop": "1",
        "x-github-event": "push",
      }),
    ).toEqual({ "x-github-event": "push" });
  });

  it("lower-cases names, so a stored header in any case is matched", () => {
    expect(headersToForward({ Host: "a", "Content-Type": "text/plain" })).toEqual({ "content-type": "text/plain" });
  });

  it("does not change what it was given", () => {
    const stored = { host: "a", "x-a": "1" };
    headersToForward(stored);
    expect(stored).toEqual({ host: "a", "x-a": "1" });
  });
});
