import { describe, expect, it, vi } from "vitest";
import {
  describeIngestAnswer,
  randomEventId,
  sampleTestEvent,
  sendTestDelivery,
  testDeliveryUrl,
  type TestDeliveryTarget,
} from "./test-delivery";

const endpoint: TestDeliveryTarget = {
  id: "we_123",
  name: "Stripe production",
  ingestUrl: "https://hooks.example.com/webhooks/ingest/we_123",
  enabled: true,
  signing: null,
};

describe("sampleTestEvent", () => {
  it("is a signalbox.test event naming the endpoint", () => {
    const event = sampleTestEvent(endpoint, "evt_test_1", new Date("2025-03-04T05:06:07.000Z"));
    expect(event).toMatchObject({
      type: "signalbox.test",
      id: "evt_test_1",
      createdAt: "2025-03-04T05:06:07.000Z",
      data: { endpoint: { id: "we_123", name: "Stripe production" } },
    });
  });
});

describe("randomEventId", () => {
  it("is prefixed and differs each time", () => {
    const id = randomEventId();
    expect(id).toMatch(/^evt_test_[0-9a-f]{24}$/);
    expect(randomEventId()).not.toBe(id);
  });
});

describe("testDeliveryUrl", () => {
  it("uses the ingest URL as is on the same origin", () => {
    expect(testDeliveryUrl("http://localhost:3000/webhooks/ingest/we_1", "http://localhost:3000")).toBe(
      "http://localhost:3000/webhooks/ingest/we_1",
    );
  });

  it("posts to the same path on the page's origin when the public address differs", () => {
    expect(testDeliveryUrl("https://hooks.example.com/webhooks/ingest/we_1", "http://10.0.0.5:3000")).toBe(
      "http://10.0.0.5:3000/webhooks/ingest/we_1",
    );
  });
});

describe("describeIngestAnswer", () => {
  it("reports the stored delivery", () => {
    expect(describeIngestAnswer(endpoint, 200, { received: true, deliveryId: "d-1" })).toEqual({
      ok: true,
      deliveryId: "d-1",
      message: expect.stringContaining("d-1"),
    });
  });

  it("warns that an unsigned test fails the signature check of a signing endpoint", () => {
    const signing = { ...endpoint, signing: { scheme: "stripe" as const, rejectInvalid: false } };
    expect(describeIngestAnswer(signing, 200, { received: true, deliveryId: "d-1" }).message).toMatch(
      /Stripe signature check failed/,
    );
  });

  it("explains 404 for a disabled endpoint and 401 for a strict signing endpoint", () => {
    expect(describeIngestAnswer({ ...endpoint, enabled: false }, 404, {}).message).toMatch(/disabled/);
    expect(describeIngestAnswer(endpoint, 404, {}).message).toMatch(/no longer exists/);
    expect(describeIngestAnswer(endpoint, 401, {}).message).toMatch(/valid signature/);
  });

  it("passes on the error message of any other answer", () => {
    const body = { success: false, error: { code: "service_unavailable", message: "Try again shortly." } };
    expect(describeIngestAnswer(endpoint, 503, body)).toEqual({
      ok: false,
      message: "Refused with 503: Try again shortly.",
    });
    expect(describeIngestAnswer(endpoint, 500, "not json")).toEqual({ ok: false, message: "Refused with 500." });
  });
});

describe("sendTestDelivery", () => {
  it("POSTs the sample as JSON, without cookies, and reads the answer", async () => {
    const fetch = vi.fn(async () => Response.json({ received: true, deliveryId: "d-9" }));
    const result = await sendTestDelivery(
      { ...endpoint, ingestUrl: "http://localhost:3000/webhooks/ingest/we_123" },
      { fetch, origin: "http://localhost:3000", eventId: "evt_test_x", now: new Date("2025-01-01T00:00:00.000Z") },
    );
    expect(result).toMatchObject({ ok: true, deliveryId: "d-9" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://localhost:3000/webhooks/ingest/we_123");
    expect(init).toMatchObject({
      method: "POST",
      headers: { "content-type": "application/json" },
      credentials: "omit",
    });
    expect(JSON.parse(String(init.body))).toMatchObject({ type: "signalbox.test", id: "evt_test_x" });
  });

  it("reports a network failure", async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await sendTestDelivery(endpoint, { fetch, origin: "https://hooks.example.com" })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/could not reach/i),
    });
  });
});
