import { describe, expect, it } from "vitest";
import { isJsonContentType, isRawWrapper } from "./payload-kind";

describe("isJsonContentType", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON", true],
    ["application/vnd.api+json", true],
    ["application/cloudevents+json; charset=utf-8", true],
    ["text/plain", false],
    ["application/x-www-form-urlencoded", false],
    [null, false],
  ])("%s → %s", (contentType, json) => {
    expect(isJsonContentType(contentType)).toBe(json);
  });
});

describe("isRawWrapper", () => {
  it.each([
    [{ raw: "a=1" }, true],
    [{ raw: 1 }, false],
    [{ raw: "x", other: 1 }, false],
    [["raw"], false],
    [null, false],
    ["raw", false],
  ])("%j → %s", (payload, wrapper) => {
    expect(isRawWrapper(payload)).toBe(wrapper);
  });
});
