import { describe, expect, it } from "vitest";
import type { Destination } from "@/app/(dashboard)/_hooks/use-destination-list";
import { describeFailure, describeLastSuccess, describeSeconds, destinationStateLabel } from "./destination-status";

const UTC = { locale: "en-US", timeZone: "UTC" };
const healthy: Destination["health"] = {
  failing: false,
  consecutiveFailures: 0,
  lastAttemptAt: "2026-11-28T05:00:00.000Z",
  lastSuccessAt: "2026-11-28T05:00:00.000Z",
  lastFailureAt: null,
  lastError: null,
};

describe("destinationStateLabel", () => {
  it("tells enabled, disabled by the user and disabled by the service (410) apart", () => {
    expect(destinationStateLabel({ enabled: true, disabledReason: null })).toEqual({ label: "Enabled", tone: "on" });
    expect(destinationStateLabel({ enabled: false, disabledReason: null })).toEqual({ label: "Disabled", tone: "off" });
    expect(destinationStateLabel({ enabled: false, disabledReason: "gone" })).toEqual({
      label: "Disabled: gone (410)",
      tone: "gone",
    });
  });
});

describe("describeFailure", () => {
  it("is null while the latest attempt succeeded", () => {
    expect(describeFailure(healthy, UTC)).toBeNull();
  });

  it("gives the last error, when, and a streak", () => {
    const failing = {
      ...healthy,
      failing: true,
      consecutiveFailures: 3,
      lastAttemptAt: "2026-11-28T05:06:00.000Z",
      lastFailureAt: "2026-11-28T05:06:00.000Z",
      lastError: "HTTP 503",
    };
    expect(describeFailure(failing, UTC)).toBe("HTTP 503 (Nov 28, 2026, 5:06 AM, 3 failures in a row)");
    expect(describeFailure({ ...failing, consecutiveFailures: 1 }, UTC)).toBe("HTTP 503 (Nov 28, 2026, 5:06 AM)");
  });

  it("has words for a failure without a message or a time", () => {
    const bare = { ...healthy, failing: true, consecutiveFailures: 2, lastAttemptAt: null, lastFailureAt: null };
    expect(describeFailure(bare, UTC)).toBe("the last attempt failed (2 failures in a row)");
    expect(describeFailure({ ...bare, consecutiveFailures: 1 }, UTC)).toBe("the last attempt failed");
  });
});

describe("describeLastSuccess", () => {
  it("names the last success of a healthy destination only", () => {
    expect(describeLastSuccess(healthy, UTC)).toBe("Last forwarded Nov 28, 2026, 5:00 AM");
    expect(describeLastSuccess({ ...healthy, lastSuccessAt: null }, UTC)).toBeNull();
    expect(describeLastSuccess({ ...healthy, failing: true }, UTC)).toBeNull();
  });
});

describe("describeSeconds", () => {
  it("uses the largest whole unit", () => {
    expect(describeSeconds(86_400)).toBe("1 day");
    expect(describeSeconds(604_800)).toBe("7 days");
    expect(describeSeconds(7_200)).toBe("2 hours");
    expect(describeSeconds(60)).toBe("1 minute");
    expect(describeSeconds(90)).toBe("90 seconds");
  });
});
