import { describe, expect, it } from "vitest";
import { compactJson, MAX_RAW_JSON_DEPTH, RawJson, serializeJson } from "./raw-json";

const SENT = '{"action":"edited","zeta":1,"amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';

describe("RawJson.parse", () => {
  it("keeps key order, number text and duplicate keys exactly", () => {
    expect(RawJson.parse(SENT)?.text).toBe(SENT);
    // What JSON.parse would have made of it: the reason this type exists.
    expect(JSON.stringify(JSON.parse(SENT))).not.toBe(SENT);
  });

  it.each([
    ["big integers", "[12345678901234567890,-98765432109876543210]"],
    ["trailing zeros and exponents", '{"a":1.10,"b":1.0e+2,"c":1E-7,"d":0.000}'],
    ["negative zero", '{"z":-0,"y":-0.0}'],
    ["numbers beyond a double", '{"n":1e400,"m":-1e400,"tiny":1e-400}'],
    ["integer-like keys after others", '{"b":1,"10":2,"2":3,"a":4}'],
    ["escapes as written", '{"nul":"\\u0000","lone":"\\ud800","pair":"\\ud83d\\udc4b","slash":"\\/","e":"\\u00e9é"}'],
    ["escaped quotes and backslashes", '{"q":"say \\"hi\\" \\\\","k\\"ey":"\\\\"}'],
    ["whitespace inside strings", '{"s":"  two  spaces\\n","t":"\\t tab"}'],
    ["literal non-ASCII and astral characters", '{"grüße":"👋","日本":"語"}'],
    ["every top-level kind", '"text"'],
    ["a bare number", "1.10"],
    ["null", "null"],
  ])("keeps %s", (_what, text) => {
    expect(RawJson.parse(text)?.text).toBe(text);
  });

  it.each([
    ["spaces and newlines", '{\n  "a": [1, 2],\n  "b": {"c": "d e"}\n}\n', '{"a":[1,2],"b":{"c":"d e"}}'],
    ["tabs and carriage returns", '\t{\r\n\t"a"\t:\r\n1}\r\n', '{"a":1}'],
    ["leading and trailing whitespace", "   [true , false , null]   ", "[true,false,null]"],
    ["whitespace right after a string", '{"a" : "x" , "b":"y"  }', '{"a":"x","b":"y"}'],
  ])("removes insignificant %s and nothing else", (_what, text, compact) => {
    expect(RawJson.parse(text)?.text).toBe(compact);
  });

  it.each([
    ["", "empty"],
    ["   ", "only whitespace"],
    ["{not json", "not JSON"],
    ["[1 2]", "tokens that compacting would merge"],
    ["- 1", "a sign split from its number"],
    ['{"a":1,}', "a trailing comma"],
    ["{'a':1}", "single quotes"],
    ['{"a":"x\u0000y"}', "a raw control character in a string"],
    ['"unterminated', "an unterminated string"],
    ['"\\', "a trailing backslash"],
    ["NaN", "NaN"],
    ["\u00a0[1]", "whitespace JSON does not allow"],
  ])("refuses %j (%s)", (text) => {
    expect(RawJson.parse(text)).toBeNull();
  });

  it("refuses nesting deeper than the bound, quickly and without recursion, also 10,000 levels deep", () => {
    const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    expect(RawJson.parse(nested(MAX_RAW_JSON_DEPTH))?.text).toBe(nested(MAX_RAW_JSON_DEPTH));
    expect(RawJson.parse(nested(MAX_RAW_JSON_DEPTH + 1))).toBeNull();
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    expect(RawJson.parse(objects(MAX_RAW_JSON_DEPTH + 1))).toBeNull();
    const started = performance.now();
    expect(RawJson.parse(nested(10_000))).toBeNull();
    expect(compactJson(` ${nested(10_000)} `, Infinity)).toBe(nested(10_000));
    expect(RawJson.parse(nested(10_000), Infinity)?.text).toBe(nested(10_000));
    expect(performance.now() - started).toBeLessThan(1_000);
    // Brackets inside strings do not count.
    const inString = `["${"[".repeat(MAX_RAW_JSON_DEPTH * 2)}"]`;
    expect(RawJson.parse(inString)?.text).toBe(inString);
  });

  it("compacts a megabyte of pretty JSON in linear time", () => {
    const big = JSON.stringify(
      Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a b", "c"] })),
      null,
      2,
    );
    const started = performance.now();
    const compact = RawJson.parse(big)!.text;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(compact).toBe(JSON.stringify(JSON.parse(big)));
    expect(compact).not.toMatch(/\n/);
  });
});

describe("serializeJson", () => {
  it("splices each RawJson's text verbatim where it stands", () => {
    const value = {
      id: "d1",
      rawPayload: RawJson.parse(SENT),
      list: [RawJson.parse("1.10"), { raw: "text" }, RawJson.parse('{"b":1,"a":2}')],
    };
    expect(serializeJson(value)).toBe(`{"id":"d1","rawPayload":${SENT},"list":[1.10,{"raw":"text"},{"b":1,"a":2}]}`);
  });

  it("is JSON.stringify when there is no RawJson", () => {
    const value = { a: [1, "two", null, { c: true }], "10": "x", s: 'quote " and \\ and \u2028' };
    expect(serializeJson(value)).toBe(JSON.stringify(value));
  });

  it("cannot be fooled by strings that look like a placeholder", () => {
    // A placeholder is `rawjson:<128 random bits, drawn once per process, in hex>:<n>`; a sender can write the shape, not the bits.
    const raw = RawJson.parse('{"real":true}')!;
    const forged = Array.from({ length: 3 }, (_, n) => `rawjson:${"0".repeat(32)}:${n}`);
    const out = serializeJson({ headers: { a: forged[0], b: forged[1] }, payload: raw, query: forged[2] });
    expect(out).toBe(
      `{"headers":{"a":"${forged[0]}","b":"${forged[1]}"},"payload":{"real":true},"query":"${forged[2]}"}`,
    );
  });

  it("without serializeJson, a RawJson serialises as its parsed value rather than {}", () => {
    expect(JSON.stringify({ p: RawJson.parse('{"a":[1,2]}') })).toBe('{"p":{"a":[1,2]}}');
  });

  it("keeps answers on one line, so an SSE data line or an NDJSON line never breaks", () => {
    const out = serializeJson({ rawPayload: RawJson.parse('{\n"a":\r\n"line\\nbreak"\n}') });
    expect(out).toBe('{"rawPayload":{"a":"line\\nbreak"}}');
    expect(out).not.toMatch(/[\r\n]/);
  });
});
