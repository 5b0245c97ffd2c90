import { describe, expect, it } from "vitest";
import { canonicalPayloadFilter, payloadFilterProblem } from "./payload-filter";

describe("payloadFilterProblem", () => {
  it.each([
    '{"type":"invoice.paid"}',
    '{"data":{"object":{"id":"in_1","amount":12345678901234567890,"price":1.10}},"tags":["a",{"b":null}]}',
    "{}",
    '{"e":1e300,"text":"say \\u00e9"}',
  ])("accepts %s", (text) => {
    expect(payloadFilterProblem(text)).toBeNull();
  });

  it.each([
    ["not JSON", "{type:1}", /JSON text/],
    ["empty", "", /JSON text/],
    ["an array", "[1]", /JSON object/],
    ["a string", '"x"', /JSON object/],
    ["null", "null", /JSON object/],
    ["a NUL escape in a value", '{"a":"x\\u0000"}', /u0000/],
    ["a NUL escape in a nested key", '{"a":[{"\\u0000":1}]}', /u0000/],
    ["a lone surrogate", '{"a":"\\ud800"}', /surrogate/],
    ["a huge exponent", '{"a":1e100000}', /out of range/],
    ["a huge negative exponent", '{"a":[1.5E-000020000]}', /out of range/],
    ["an infinite number", '{"a":1e400}', /out of range/],
  ])("refuses %s", (_name, text, message) => {
    expect(payloadFilterProblem(text)).toMatch(message);
  });
});

describe("canonicalPayloadFilter", () => {
  it("is the same whatever the key order, whitespace and duplicates", () => {
    expect(canonicalPayloadFilter('{ "b": {"y":1, "x":[{"d":1,"c":2}]}, "a": 1.10 }')).toBe(
      canonicalPayloadFilter('{"a":1.1,"b":{"x":[{"c":2,"d":1}],"y":1}}'),
    );
    expect(canonicalPayloadFilter('{"a":1,"a":2}')).toBe('{"a":2}');
  });

  it("keeps array order and values apart", () => {
    expect(canonicalPayloadFilter('{"a":[1,2]}')).not.toBe(canonicalPayloadFilter('{"a":[2,1]}'));
    expect(canonicalPayloadFilter('{"a":"1"}')).not.toBe(canonicalPayloadFilter('{"a":1}'));
  });
});
