import { describe, expect, it } from "vitest";
import { sameOriginPath } from "./same-origin";

const ORIGIN = "https://signalbox.example";

describe("sameOriginPath", () => {
  it.each([
    ["/", "/"],
    ["/invite/inv_1?x=1#y", "/invite/inv_1?x=1#y"],
    ["https://signalbox.example/usage", "/usage"],
    ["/a/../b", "/b"],
    ["/a\\b", "/a/b"],
  ])("keeps %j as %j", (target, path) => {
    expect(sameOriginPath(target, ORIGIN)).toBe(path);
  });

  it.each([
    "//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\\evil.example",
    "/.//evil.example",
    "http://signalbox.example/",
    "https://signalbox.example:444/",
    "https://evil.example/",
    "javascript:alert(1)",
    "data:text/html,x",
    "http://[",
  ])("refuses %j", (target) => {
    expect(sameOriginPath(target, ORIGIN)).toBeNull();
  });
});
