import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { keepHeaderBytes } from "./header-bytes";

function flushes(url: string): boolean {
  let flushed = false;
  const response = { flushHeaders: () => (flushed = true) } as unknown as ServerResponse;
  keepHeaderBytes({ url } as IncomingMessage, response);
  response.flushHeaders();
  return flushed;
}

describe("keepHeaderBytes", () => {
  const id = "0b7f6c39-7d3e-4f2a-9c1e-2f3a4b5c6d7e";

  it.each([
    `/v1/webhook-endpoints/deliveries/${id}/raw`,
    `/v1/webhook-endpoints/deliveries/${id}/raw/`,
    `/v1/webhook-endpoints/deliveries/${id}/raw?download=1`,
  ])("holds the header block of %s back for the body", (url) => {
    expect(flushes(url)).toBe(false);
  });

  it.each([
    `/v1/webhook-endpoints/deliveries/${id}`,
    "/v1/webhook-endpoints/deliveries/events",
    `/v1/webhook-endpoints/deliveries/${id}/rawx`,
    `/v1/webhook-endpoints/deliveries/${id}/raw/more`,
    "/",
  ])("leaves %s alone (the event stream needs its headers early)", (url) => {
    expect(flushes(url)).toBe(true);
  });
});
