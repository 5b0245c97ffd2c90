import { describe, expect, it } from "vitest";
import { deliveryStatus, STATUS_LABELS, unacknowledgedParam } from "./delivery-status";

describe("deliveryStatus", () => {
  it("is pending while acknowledgedAt is null", () => {
    expect(deliveryStatus({ acknowledgedAt: null })).toBe("pending");
    expect(STATUS_LABELS[deliveryStatus({ acknowledgedAt: null })]).toBe("Pending");
  });

  it("is acknowledged once acknowledgedAt is set", () => {
    expect(deliveryStatus({ acknowledgedAt: "2025-01-02T03:04:05.678Z" })).toBe("acknowledged");
    expect(STATUS_LABELS.acknowledged).toBe("Acknowledged");
  });
});

describe("unacknowledgedParam", () => {
  it("maps the status filter to the API's query value", () => {
    expect(unacknowledgedParam("all")).toBeUndefined();
    expect(unacknowledgedParam("pending")).toBe("true");
    expect(unacknowledgedParam("acknowledged")).toBe("false");
  });
});
