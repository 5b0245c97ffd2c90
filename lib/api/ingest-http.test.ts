import { describe, expect, it } from "vitest";
import { matchIngestPath, receivedHeaders } from "./ingest-http";

describe("matchIngestPath", () => {
  it("matches ingest addresses with or without a query or trailing slash", () => {
    expect(matchIngestPath("/webhooks/ingest/we_abc")).toEqual({ hookId: "we_abc", query: "" });
    expect(matchIngestPath("/webhooks/ingest/we_abc/?a=1&b")).toEqual({ hookId: "we_abc", query: "a=1&b" });
    expect(matchIngestPath("/webhooks/ingest/we%5Fabc")).toEqual({ hookId: "we_abc", query: "" });
  });

  it("leaves every other path to Next.js", () => {
    for (const url of [
      "/webhooks/ingest/",
      "/webhooks/ingest",
      "/webhooks/ingest/a/b",
      "/v1/webhooks/ingest/we_a",
      "/docs",
    ]) {
      expect(matchIngestPath(url)).toBeNull();
    }
  });

  it("does not throw on broken percent-encoding", () => {
    expect(matchIngestPath("/webhooks/ingest/we_%E0%A4%A")).toEqual({ hookId: "we_%E0%A4%A", query: "" });
  });
});

describe("receivedHeaders", () => {
  it("lower-cases names, keeps values exactly, and joins repeats in order", () => {
    expect(
      receivedHeaders([
        "Content-Type",
        "Application/JSON;  charset=UTF-8",
        "X-Tag",
        "a",
        "x-tag",
        " b ",
        "Stripe-Signature",
        "t=1,v1=ab",
      ]),
    ).toEqual({
      "content-type": "Application/JSON;  charset=UTF-8",
      "x-tag": "a,  b ",
      "stripe-signature": "t=1,v1=ab",
    });
  });
});
