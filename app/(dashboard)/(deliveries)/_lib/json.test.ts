import { describe, expect, it } from "vitest";
import {
  jsonChildren,
  jsonKind,
  jsonLeaf,
  jsonSummary,
  parseJsonText,
  payloadJsonText,
  prettyJson,
  type JsonText,
} from "./json";

const SENT = '{"action":"edited","zeta":1,"amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';
const tree = (text: string) => parseJsonText(text)!;
const labelsAndLeaves = (value: JsonText, limit = 100) =>
  jsonChildren(value, limit).entries.map(([label, child]) => [label, jsonLeaf(child)]);

describe("JSON tree helpers", () => {
  it("tells kinds apart", () => {
    expect(["{}", "[]", '"s"', "1", "true", "null"].map((text) => jsonKind(tree(text)))).toEqual([
      "object",
      "array",
      "string",
      "number",
      "boolean",
      "null",
    ]);
  });

  it("keeps key order, duplicate keys and number text as sent", () => {
    expect(labelsAndLeaves(tree(SENT))).toEqual([
      ['"action"', '"edited"'],
      ['"zeta"', "1"],
      ['"amount"', "12345678901234567890"],
      ['"price"', "1.10"],
      ['"dup"', "1"],
      ['"dup"', "2"],
      ['"10"', "0"],
      ['"2"', "0"],
    ]);
    expect(jsonSummary(tree(SENT))).toBe("8 keys");
  });

  it("lists array items by index, with a limit", () => {
    expect(jsonChildren(tree('["x","y","z"]'), 2).hidden).toBe(1);
    expect(labelsAndLeaves(tree('["x","y","z"]'), 2)).toEqual([
      ["0", '"x"'],
      ["1", '"y"'],
    ]);
    expect(jsonChildren(tree('"leaf"'), 10)).toEqual({ entries: [], hidden: 0 });
  });

  it("summarises collapsed branches", () => {
    expect(jsonSummary(tree('{"a":1}'))).toBe("1 key");
    expect(jsonSummary(tree('{"a":1,"b":2}'))).toBe("2 keys");
    expect(jsonSummary(tree("[1]"))).toBe("1 item");
    expect(jsonSummary(tree("[]"))).toBe("0 items");
  });

  it("prints leaves and keys with their escapes as written", () => {
    expect(labelsAndLeaves(tree('{"k\\u00e9":"say \\"hi\\"\\n","n":-0,"e":1e400}'))).toEqual([
      ['"k\\u00e9"', '"say \\"hi\\"\\n"'],
      ['"n"', "-0"],
      ['"e"', "1e400"],
    ]);
  });

  it("reads strict JSON only", () => {
    expect(parseJsonText('{"a":1,}')).toBeNull();
    expect(parseJsonText('{"a":1 /* c */}')).toBeNull();
    expect(parseJsonText("")).toBeNull();
  });
});

describe("prettyJson", () => {
  it("indents without touching a token", () => {
    expect(prettyJson('{"b":[1.10,{"x":12345678901234567890}],"b":"two  spaces"}')).toBe(
      '{\n  "b": [\n    1.10,\n    {\n      "x": 12345678901234567890\n    }\n  ],\n  "b": "two  spaces"\n}',
    );
  });
});

describe("payloadJsonText", () => {
  it("is the exact body for a JSON payload once it is loaded", () => {
    expect(payloadJsonText(JSON.parse(SENT), "application/json", SENT)).toBe(SENT);
    expect(payloadJsonText(JSON.parse(SENT), "application/vnd.x+json; charset=utf-8", `\n${SENT}\n`)).toBe(
      `\n${SENT}\n`,
    );
  });

  it("is the payload written out otherwise", () => {
    const parsed: unknown = JSON.parse(SENT);
    expect(payloadJsonText(parsed, "application/json", undefined)).toBe(JSON.stringify(parsed));
    expect(payloadJsonText(parsed, "application/json", null)).toBe(JSON.stringify(parsed)); // not UTF-8
    expect(payloadJsonText({ raw: "a=1" }, "application/x-www-form-urlencoded", "a=1")).toBe('{"raw":"a=1"}');
    expect(payloadJsonText({ raw: "{bad" }, "application/json", "{bad")).toBe('{"raw":"{bad"}');
  });
});
