import { describe, expect, it } from "vitest";
import { RawJson, serializeJson } from "@/lib/contracts/raw-json";
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

const served = (body: Uint8Array, type: string | null) => serializeJson(toRawPayload(body, type));

describe("toRawPayload", () => {
  it("serves JSON of any top-level kind as the sender's text", () => {
    const sent = '{"action":"edited","zeta":1,"amount":12345678901234567890,"price":1.10,"dup":1,"dup":2,"10":0,"2":0}';
    expect(toRawPayload(bytes(sent), "application/json")).toBeInstanceOf(RawJson);
    expect(served(bytes(sent), "application/json")).toBe(sent);
    expect(served(bytes('{ "a": [1, {"b": null}] }\n'), "application/vnd.api+json")).toBe('{"a":[1,{"b":null}]}');
    expect(served(bytes("[1,2]"), "application/json")).toBe("[1,2]");
    expect(served(bytes('"text"'), "application/json")).toBe('"text"');
    expect(served(bytes("null"), "application/json")).toBe("null");
  });

  it("keeps everything else as text, losslessly for valid UTF-8", () => {
    expect(toRawPayload(bytes("a=1&b=2"), "application/x-www-form-urlencoded")).toEqual({ raw: "a=1&b=2" });
    expect(toRawPayload(bytes('{"looks":"json"}'), null)).toEqual({ raw: '{"looks":"json"}' });
    expect(toRawPayload(bytes("{not json"), "application/json")).toEqual({ raw: "{not json" });
    expect(toRawPayload(bytes("[1 2]"), "application/json")).toEqual({ raw: "[1 2]" });
    expect(toRawPayload(bytes(""), "application/json")).toEqual({ raw: "" });
    expect(toRawPayload(bytes("Grüße 👋"), "text/plain")).toEqual({ raw: "Grüße 👋" });
  });

  it("serves escapes jsonb could not hold, and numbers beyond a double, as written", () => {
    // Regression (test/hostile/ingest-fuzz): JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as null.
    for (const text of [
      '{"a":"x\\u0000y"}',
      '{"\\u0000":1}',
      '["\\ud800"]',
      '{"n":1e400}',
      "[-1e400]",
      "[-0,1e-400]",
    ]) {
      expect(served(bytes(text), "application/json")).toBe(text);
    }
  });

  it("keeps nesting deeper than most clients parse as text", () => {
    const deep = `${"[".repeat(1000)}${"]".repeat(1000)}`;
    expect(toRawPayload(bytes(deep), "application/json")).toEqual({ raw: deep });
  });

  it("keeps literal backslash sequences that only look like escapes", () => {
    expect(served(bytes('{"path":"C:\\\\ud800"}'), "application/json")).toBe('{"path":"C:\\\\ud800"}');
  });

  it("replaces what text columns cannot hold: NUL and invalid UTF-8", () => {
    expect(toRawPayload(Buffer.from([0x61, 0x00, 0x62]), "text/plain")).toEqual({ raw: "a\uFFFDb" });
    expect(toRawPayload(Buffer.from([0x61, 0xff, 0x62]), "application/octet-stream")).toEqual({ raw: "a\uFFFDb" });
  });
});
