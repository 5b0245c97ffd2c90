import { describe, expect, it } from "vitest";
import { jsonChildren, jsonKind, jsonLeaf, jsonSummary } from "./json";

describe("JSON tree helpers", () => {
  it("tells kinds apart", () => {
    expect([{}, [], "s", 1, true, null].map(jsonKind)).toEqual([
      "object",
      "array",
      "string",
      "number",
      "boolean",
      "null",
    ]);
  });

  it("lists children with labels and a limit", () => {
    expect(jsonChildren({ a: 1, b: [2] }, 10)).toEqual({
      entries: [
        ["a", 1],
        ["b", [2]],
      ],
      hidden: 0,
    });
    expect(jsonChildren(["x", "y", "z"], 2)).toEqual({
      entries: [
        ["0", "x"],
        ["1", "y"],
      ],
      hidden: 1,
    });
    expect(jsonChildren("leaf", 10)).toEqual({ entries: [], hidden: 0 });
  });

  it("summarises collapsed branches", () => {
    expect(jsonSummary({ a: 1 })).toBe("1 key");
    expect(jsonSummary({ a: 1, b: 2 })).toBe("2 keys");
    expect(jsonSummary([1])).toBe("1 item");
    expect(jsonSummary([])).toBe("0 items");
  });

  it("prints leaves as JSON", () => {
    expect(jsonLeaf('say "hi"\n')).toBe('"say \\"hi\\"\\n"');
    expect(jsonLeaf(3.5)).toBe("3.5");
    expect(jsonLeaf(null)).toBe("null");
  });
});
