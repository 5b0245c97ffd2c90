import { describe, expect, it } from "vitest";
import { describeSignature, formatBytes, formatExactTime, formatRelativeTime, relativeTimeRefreshMs } from "./format";

const NOW = Date.parse("2025-06-15T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe("formatRelativeTime", () => {
  it.each([
    [0, "just now"],
    [4_999, "just now"],
    [-3_000, "just now"],
    [5_000, "5 seconds ago"],
    [59_999, "59 seconds ago"],
    [60_000, "1 minute ago"],
    [3 * 60_000 + 59_000, "3 minutes ago"],
    [3_600_000, "1 hour ago"],
    [23 * 3_600_000, "23 hours ago"],
    [24 * 3_600_000, "yesterday"],
    [3 * 86_400_000, "3 days ago"],
    [45 * 86_400_000, "last month"],
    [90 * 86_400_000, "3 months ago"],
    [800 * 86_400_000, "2 years ago"],
  ])("%d ms ago reads %s", (elapsed, text) => {
    expect(formatRelativeTime(ago(elapsed), NOW)).toBe(text);
  });

  it("does not crash on a bad timestamp", () => {
    expect(formatRelativeTime("not a date", NOW)).toBe("—");
  });

  it("refreshes every second at first, then less often", () => {
    expect(relativeTimeRefreshMs(ago(10_000), NOW)).toBe(1_000);
    expect(relativeTimeRefreshMs(ago(10 * 60_000), NOW)).toBe(15_000);
    expect(relativeTimeRefreshMs(ago(5 * 3_600_000), NOW)).toBe(60_000);
  });
});

describe("formatExactTime", () => {
  it("shows the date and the time to the second with the zone", () => {
    expect(formatExactTime("2025-06-15T09:08:07.123Z", "UTC")).toBe("15 Jun 2025, 09:08:07 UTC");
  });

  it("returns a bad timestamp as it is", () => {
    expect(formatExactTime("soon")).toBe("soon");
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [20_000, "20 KB"],
    [1_048_576, "1 MB"],
  ])("%d bytes is %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("describeSignature", () => {
  it("says when nothing was checked", () => {
    expect(describeSignature(null)).toMatchObject({ tone: "none", label: "Not checked" });
  });

  it("names the scheme of a valid signature", () => {
    expect(describeSignature({ scheme: "stripe", valid: true, reason: null })).toEqual({
      tone: "valid",
      label: "Valid",
      detail: "Stripe signature is valid.",
    });
  });

  it("gives the reason of an invalid one", () => {
    expect(describeSignature({ scheme: "github", valid: false, reason: "mismatch" })).toEqual({
      tone: "invalid",
      label: "Invalid",
      detail: "GitHub: signature mismatch.",
    });
  });
});
