import { describe, expect, it } from "vitest";
import { compareInstants, isInstant, millisecondCeiling } from "./instant";
import { listDeliveriesContract } from "./webhooks";

describe("isInstant", () => {
  it.each([
    "2026-01-01T00:00:00Z",
    "2026-01-01T00:00:00.123Z",
    "2026-01-01T00:00:00.123456+00:00",
    "2026-01-01T05:30:00+05:30",
    "2025-12-31T19:00:00-05:00",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999Z",
  ])("accepts %s", (text) => expect(isInstant(text)).toBe(true));

  it.each([
    "2026-01-01",
    "2026-01-01T00:00:00",
    "2026-01-01 00:00:00Z",
    "2026-01-01T00:00:00+0530",
    "1767225600000",
    "0000-12-31T23:59:59Z",
    "0001-01-01T00:30:00+01:00", // year 0 in UTC
    "9999-12-31T23:59:59.9991Z", // rounds up into year 10000
    "",
  ])("refuses %s", (text) => expect(isInstant(text)).toBe(false));
});

describe("compareInstants", () => {
  it("compares instants, not their spelling, to any precision", () => {
    expect(compareInstants("2026-01-01T01:00:00+01:00", "2026-01-01T00:00:00Z")).toBe(0);
    expect(compareInstants("2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00.500000Z")).toBe(0);
    expect(compareInstants("2026-01-01T00:00:00Z", "2026-01-01T00:00:00.001Z")).toBeLessThan(0);
    expect(compareInstants("2026-01-01T00:00:00.0002Z", "2026-01-01T00:00:00.0001Z")).toBeGreaterThan(0);
    expect(compareInstants("2026-01-01T00:00:00.00010Z", "2026-01-01T00:00:00.0001Z")).toBe(0);
    expect(compareInstants("2026-01-01T00:00:00+01:00", "2025-12-31T23:30:00Z")).toBeLessThan(0);
  });

  it("is null when either side is no instant", () => {
    expect(compareInstants("soon", "2026-01-01T00:00:00Z")).toBeNull();
    expect(compareInstants("2026-01-01T00:00:00Z", "2026-01-01")).toBeNull();
  });
});

describe("millisecondCeiling", () => {
  it("rounds a fraction finer than a millisecond up, and leaves whole milliseconds alone", () => {
    expect(millisecondCeiling("2026-01-01T00:00:00Z").toISOString()).toBe("2026-01-01T00:00:00.000Z");
    expect(millisecondCeiling("2026-01-01T00:00:00.123000Z").toISOString()).toBe("2026-01-01T00:00:00.123Z");
    expect(millisecondCeiling("2026-01-01T00:00:00.1230001Z").toISOString()).toBe("2026-01-01T00:00:00.124Z");
    expect(millisecondCeiling("2026-01-01T01:00:00.999999+01:00").toISOString()).toBe("2026-01-01T00:00:01.000Z");
    expect(millisecondCeiling("1969-12-31T23:59:59.9995Z").toISOString()).toBe("1970-01-01T00:00:00.000Z");
  });

  it("throws on text that is no instant", () => {
    expect(() => millisecondCeiling("2026-01-01")).toThrow(TypeError);
  });
});

describe("listDeliveriesContract: since and until", () => {
  const issues = (query: Record<string, string>) =>
    listDeliveriesContract.query.safeParse(query).error?.issues.map((issue) => [issue.path.join("."), issue.message]);

  it("accepts either, both, and an empty window", () => {
    expect(issues({ since: "2026-01-01T00:00:00Z" })).toBeUndefined();
    expect(issues({ until: "2026-01-01T00:00:00+02:00" })).toBeUndefined();
    expect(issues({ since: "2026-01-01T00:00:00Z", until: "2026-01-02T00:00:00Z" })).toBeUndefined();
    expect(issues({ since: "2026-01-01T00:00:00Z", until: "2026-01-01T01:00:00+01:00" })).toBeUndefined();
  });

  it("names the field once for a malformed time, and since for a window the wrong way round", () => {
    expect(issues({ since: "2026-01-01" })).toEqual([["since", expect.stringContaining("ISO 8601")]]);
    expect(issues({ until: "2026-01-01T00:00:00" })).toEqual([["until", expect.stringContaining("ISO 8601")]]);
    expect(issues({ since: "yesterday", until: "2026-01-01T00:00:00Z" })).toEqual([
      ["since", expect.stringContaining("ISO 8601")],
    ]);
    expect(issues({ since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" })).toEqual([
      ["since", "must not be after `until`"],
    ]);
    expect(issues({ since: "2026-01-01T00:00:00.0002Z", until: "2026-01-01T00:00:00.0001Z" })).toEqual([
      ["since", "must not be after `until`"],
    ]);
  });
});
