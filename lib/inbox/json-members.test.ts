import { describe, expect, it } from "vitest";
import { jsonElement, jsonMembers, jsonRoot, jsonString, type JsonSpan } from "./json-members";

const text = (json: string) => Buffer.from(json, "utf8");

/** The members' values as text (or null for no object), for readable expectations. */
function members(json: string, keys: string[]) {
  const buffer = text(json);
  const root = jsonRoot(buffer);
  const found = root && jsonMembers(buffer, root, keys);
  return found && found.map((span) => span && buffer.toString("utf8", span.start, span.end));
}

describe("jsonMembers", () => {
  it("finds top-level members and steps over nested values whole", () => {
    expect(members('{"a":{"type":"inner"},"b":[1,{"type":"x"}],"type":"outer"}', ["type", "a", "b"])).toEqual([
      '"outer"',
      '{"type":"inner"}',
      '[1,{"type":"x"}]',
    ]);
    expect(members(' { "n" : -1.5e+3 , "t" : true , "z" : null } ', ["z", "n", "t"])).toEqual([
      "null",
      "-1.5e+3",
      "true",
    ]);
    expect(members("{}", ["a"])).toEqual([undefined]);
  });

  it("is not fooled by brackets, quotes and backslashes inside strings", () => {
    expect(members('{"a":"}]\\"{[","b":{"c":"\\\\"},"type":"x"}', ["type"])).toEqual(['"x"']);
    expect(members('{"a":"\\\\\\"}","type":"y"}', ["type"])).toEqual(['"y"']);
  });

  it("stops once the first name has a string, or every name is found", () => {
    // Past the string `type` the text is not read: the fault after it goes unseen.
    expect(members('{"type":"x","event":"e", oops', ["type", "event"])).toEqual(['"x"', undefined]);
    expect(members('{"event":"e","type":"x"', ["type", "event"])).toEqual(['"x"', '"e"']);
    // A `type` that is not a string reads on, for the later names.
    expect(members('{"type":1,"event":"e"}', ["type", "event"])).toEqual(["1", '"e"']);
    expect(members('{"type":1,"event":"e", oops', ["type", "event", "other"])).toBeNull();
  });

  it("takes the first of repeated names", () => {
    expect(members('{"type":"first","type":"second"}', ["type"])).toEqual(['"first"']);
  });

  it.each([
    ["an array", "[1]"],
    ["a bad scalar", '{"a":nul,"type":"x"}'],
    ["a leading zero", '{"a":01,"type":"x"}'],
    ["an unquoted key", '{a:1,"type":"x"}'],
    ["a missing comma", '{"a":1 "type":"x"}'],
    ["a trailing comma", '{"a":1,}'],
    ["an unclosed object", '{"a":{"b":1,"type":"x"}'],
    ["a key with a bad escape", '{"\\q":1,"type":"x"}'],
  ])("is null for %s before the member", (_name, json) => {
    expect(members(json, ["type"])).toBeNull();
  });
});

describe("jsonElement and jsonString", () => {
  const span = (buffer: Buffer): JsonSpan => jsonRoot(buffer)!;

  it("indexes arrays, stepping over nested elements", () => {
    const buffer = text('[ {"a":[1,2]} , "two" ,3 ]');
    const element = (index: number) => {
      const found = jsonElement(buffer, span(buffer), index);
      return found && buffer.toString("utf8", found.start, found.end);
    };
    expect([element(0), element(1), element(2), element(3)]).toEqual(['{"a":[1,2]}', '"two"', "3", null]);
    expect(jsonElement(text("[]"), span(text("[]")), 0)).toBeNull();
    expect(jsonElement(text('{"0":1}'), span(text('{"0":1}')), 0)).toBeNull();
  });

  it("decodes strings with escapes, and refuses what JSON does not allow", () => {
    const decode = (json: string) => jsonString(text(json), span(text(json)));
    expect(decode('"plain é"')).toBe("plain é");
    expect(decode('"\\u00e9\\n\\"q\\""')).toBe('é\n"q"');
    expect(decode('"tab\there"')).toBeNull(); // a raw control character
    expect(decode("17")).toBeNull();
  });
});
