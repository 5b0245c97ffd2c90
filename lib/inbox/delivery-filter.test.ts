import { describe, expect, it } from "vitest";
import { asciiLowerCase, deliveryFilterScope, scanBounded } from "./delivery-filter";

describe("asciiLowerCase", () => {
  it("lower-cases ASCII letters only, as PostgreSQL's lower under the C collation", () => {
    expect(asciiLowerCase("NeEdLe %_\\ CAFÉ ÄÖ İ ẞ")).toBe("needle %_\\ cafÉ ÄÖ İ ẞ");
  });
});

describe("scanBounded", () => {
  it("is true for content filters only", () => {
    expect(scanBounded({})).toBe(false);
    expect(scanBounded({ endpointId: "we_1", unacknowledged: true, since: "2026-01-01T00:00:00Z" })).toBe(false);
    expect(scanBounded({ q: "abc" })).toBe(true);
    expect(scanBounded({ payload: "{}" })).toBe(true);
  });
});

describe("deliveryFilterScope", () => {
  it("binds q exactly and payload whatever its spelling, by digest (a cursor has a length limit)", () => {
    const scope = (filter: { q?: string; payload?: string }) => deliveryFilterScope(filter);
    expect(scope({ q: "abc" }).q).not.toBe(scope({ q: "abd" }).q);
    expect(scope({ q: "x".repeat(200) }).q).toHaveLength(22);
    expect(scope({ payload: '{"a":1,"b":[1,2]}' }).payload).toBe(scope({ payload: '{ "b":[1,2] ,"a":1 }' }).payload);
    expect(scope({ payload: '{"a":1}' }).payload).not.toBe(scope({ payload: '{"a":2}' }).payload);
    // Absent when not given, so cursors issued before these filters existed stay valid.
    expect(Object.keys(scope({}))).not.toContain("q");
    expect(Object.keys(scope({}))).not.toContain("payload");
  });
});
