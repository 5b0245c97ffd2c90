import { describe, expect, it } from "vitest";
import { formatAttemptLine, formatSkippedLine, formatTime } from "./output-lines";

const time = new Date(2026, 10, 28, 9, 3, 7); // local time, as printed
const id = "0b7c6f0e-6a5e-4a0e-9a8e-3d2b1c0f9e8d";

describe("output lines", () => {
  it("prints a forwarded delivery as time, status, event type, latency and id", () => {
    expect(
      formatAttemptLine({ time, deliveryId: id, eventType: "invoice.paid", outcome: { status: 200 }, latencyMs: 12.4 }),
    ).toBe(`2026-11-28 09:03:07  [200]  invoice.paid  12 ms  ${id}`);
  });

  it("prints a failure with its cause and the wait before the next attempt", () => {
    expect(
      formatAttemptLine({
        time,
        deliveryId: id,
        eventType: null,
        outcome: { status: 500 },
        latencyMs: 3,
        retry: { failures: 2, inMs: 1_500 },
      }),
    ).toBe(`2026-11-28 09:03:07  [500]  -  3 ms  ${id}  failure 2, retrying in 1.5 s`);
    expect(
      formatAttemptLine({
        time,
        deliveryId: id,
        eventType: "push",
        outcome: { error: "connect ECONNREFUSED 127.0.0.1:4000" },
        latencyMs: 1,
        retry: { failures: 1, inMs: 250 },
      }),
    ).toBe(
      `2026-11-28 09:03:07  [ERR]  push  1 ms  ${id}  connect ECONNREFUSED 127.0.0.1:4000  failure 1, retrying in 0.3 s`,
    );
  });

  it("prints a skipped delivery with the reason", () => {
    expect(formatSkippedLine(time, id, "deleted")).toBe(`2026-11-28 09:03:07  [---]  -  -  ${id}  deleted`);
  });

  it("pads every field of the time", () => {
    expect(formatTime(new Date(2027, 0, 2, 3, 4, 5))).toBe("2027-01-02 03:04:05");
  });
});
