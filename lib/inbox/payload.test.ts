import { describe, expect, it } from "vitest";
import { isJsonContentType, toRawPayload } from "./payload";

const bytes = (text: string) => Buffer.from(text, "utf8");

describe("isJsonContentType", () => {
  it.each([
    "application/json",
    "Application/JSON; charset=utf-8",
    "application/vnd.api+json",
    "application/cloudevents+json; charset=UTF-8",
  ])("accepts %s", (type) => expect(isJsonContentType(type)).toBe(true));
  it.each([
    "text/json",
    "application/jsonl",
    "application/json-patch",
    "text/plain",
    "application/x-www-form-urlencoded",
    "",
    null,
  ])("rejects %s", (type) => expect(isJsonContentType(type)).toBe(false));
});

describe("toRawPayload", () => {
  it("parses JSON of any top-level kind", () => {
    expect(toRawPayload(bytes('{"a":[1,{"b":null}]}'), "application/json")).toEqual({ a: [1, { b: null }] });
    expect(toRawPayload(bytes("[1,2]"), "application/json")).toEqual([1, 2]);
    expect(toRawPayload(bytes('"text"'), "application/json")).toBe("text");
    expect(toRawPayload(bytes("null"), "application/json")).toBeNull();
  });

  it("keeps everything else as text, losslessly for valid UTF-8", () => {
    expect(toRawPayload(bytes("a=1&b=2"), "application/x-www-form-urlencoded")).toEqual({ raw: "a=1&b=2" });
    expect(toRawPayload(bytes('{"looks":"json"}'), null)).toEqual({ raw: '{"looks":"json"}' });
    expect(toRawPayload(bytes("{not json"), "application/json")).toEqual({ raw: "{not json" });
    expect(toRawPayload(bytes(""), "application/json")).toEqual({ raw: "" });
    expect(toRawPayload(bytes("Grüße 👋"), "text/plain")).toEqual({ raw: "Grüße 👋" });
  });

  it("falls back to text where jsonb would refuse the value", () => {
    expect(toRawPayload(bytes('{"a":"x\\u0000y"}'), "application/json")).toEqual({ raw: '{"a":"x\\u0000y"}' });
    expect(toRawPayload(bytes('{"\\u0000":1}'), "application/json")).toMatchObject({ raw: expect.any(String) });
    expect(toRawPayload(bytes('["\\ud800"]'), "application/json")).toEqual({ raw: '["\\ud800"]' });
    const deep = `${"[".repeat(1000)}${"]".repeat(1000)}`;
    expect(toRawPayload(bytes(deep), "application/json")).toEqual({ raw: deep });
  });

  it("keeps numbers beyond a double's range as text instead of turning them into null", () => {
    // Regression (test/hostile/ingest-fuzz): JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as null.
    expect(toRawPayload(bytes('{"n":1e400}'), "application/json")).toEqual({ raw: '{"n":1e400}' });
    expect(toRawPayload(bytes("[-1e400]"), "application/json")).toEqual({ raw: "[-1e400]" });
    expect(toRawPayload(bytes('{"n":1e308,"tiny":1e-400}'), "application/json")).toEqual({ n: 1e308, tiny: 0 });
  });

  it("keeps literal backslash sequences that only look like escapes", () => {
    expect(toRawPayload(bytes('{"path":"C:\\\\ud800"}'), "application/json")).toEqual({ path: "C:\\ud800" });
  });

  it("replaces what text columns cannot hold: NUL and invalid UTF-8", () => {
    expect(toRawPayload(Buffer.from([0x61, 0x00, 0x62]), "text/plain")).toEqual({ raw: "a\uFFFDb" });
    expect(toRawPayload(Buffer.from([0x61, 0xff, 0x62]), "application/octet-stream")).toEqual({ raw: "a\uFFFDb" });
  });
});
