import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "@/lib/outbound/retry-after";

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");

  it("reads delay-seconds, HTTP dates and ISO times as seconds from now", () => {
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:01:30 GMT", now)).toBe(90);
    expect(parseRetryAfter("2025-06-01T12:00:05Z", now)).toBe(5);
  });

  it("a time already past is no wait; nonsense is no answer", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
