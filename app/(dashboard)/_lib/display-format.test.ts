import { describe, expect, it } from "vitest";
import {
  formatCents,
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatLatency,
  formatShare,
} from "./display-format";

const en = { locale: "en-US", timeZone: "UTC" };
// ICU puts a narrow no-break space before AM/PM; compare with ordinary spaces.
const plain = (text: string) => text.replace(/\s/g, " ");

describe("formatCents", () => {
  it("formats cents as dollars", () => {
    expect(formatCents(1234, en)).toBe("$12.34");
    expect(formatCents(0, en)).toBe("$0.00");
    expect(formatCents(5, en)).toBe("$0.05");
    expect(formatCents(123456789, en)).toBe("$1,234,567.89");
    expect(formatCents(-250, en)).toBe("-$2.50");
    expect(formatCents(-0, en)).toBe("$0.00");
  });

  it("signs credits on request", () => {
    expect(formatCents(1000, { ...en, signed: true })).toBe("+$10.00");
    expect(formatCents(-1000, { ...en, signed: true })).toBe("-$10.00");
    expect(formatCents(0, { ...en, signed: true })).toBe("$0.00");
  });

  it("follows the locale", () => {
    expect(plain(formatCents(1234, { locale: "de-DE", currency: "EUR" }))).toBe("12,34 €");
  });
});

describe("formatShare", () => {
  it("gives a percentage to at most one decimal", () => {
    expect(formatShare(1, 4, en)).toBe("25%");
    expect(formatShare(1, 3, en)).toBe("33.3%");
    expect(formatShare(3, 3, en)).toBe("100%");
    expect(formatShare(0, 7, en)).toBe("0%");
  });

  it("shows a dash when there is nothing to share", () => {
    expect(formatShare(0, 0, en)).toBe("—");
  });
});

describe("formatCount", () => {
  it("groups thousands", () => {
    expect(formatCount(12345, en)).toBe("12,345");
  });
});

describe("dates", () => {
  it("formats an instant as date and time in the given zone", () => {
    expect(plain(formatDateTime("2025-03-04T05:06:07.000Z", en))).toBe("Mar 4, 2025, 5:06 AM");
    expect(plain(formatDateTime("2025-03-04T05:06:07.000Z", { locale: "en-US", timeZone: "America/New_York" }))).toBe(
      "Mar 4, 2025, 12:06 AM",
    );
    expect(formatDate("2025-03-04T05:06:07.000Z", en)).toBe("Mar 4, 2025");
  });

  it("formats a UTC day without shifting it into the local zone", () => {
    expect(formatDay("2025-03-04", { locale: "en-US" })).toBe("Mar 4");
    expect(formatDay("2025-12-31", { locale: "en-US", withYear: true })).toBe("Dec 31, 2025");
  });

  it("returns text it cannot parse unchanged", () => {
    expect(formatDateTime("yesterday", en)).toBe("yesterday");
    expect(formatDay("not-a-day", en)).toBe("not-a-day");
  });
});

describe("formatLatency", () => {
  it("uses milliseconds below a second and seconds above", () => {
    expect(formatLatency(85, en)).toBe("85 ms");
    expect(formatLatency(1234, en)).toBe("1.2 s");
    expect(formatLatency(null, en)).toBe("—");
  });
});
