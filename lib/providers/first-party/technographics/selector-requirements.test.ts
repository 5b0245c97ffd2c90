import { describe, expect, it } from "vitest";
import { selectorRequirements } from "./selector-requirements";

describe("selectorRequirements", () => {
  it("needs the attribute values a selector quotes, lower-cased", () => {
    expect(selectorRequirements("link[href*='Fonts.g']")).toEqual([[{ attribute: "href", contains: "fonts.g" }]]);
    expect(selectorRequirements('link[rel=stylesheet][href*="/wp-content/"]')).toEqual([
      [
        { attribute: "rel", contains: "stylesheet" },
        { attribute: "href", contains: "/wp-content/" },
      ],
    ]);
  });

  it("needs ids and classes, and the presence of attributes named without a value", () => {
    expect(selectorRequirements("style#divi-style-parent-inline-inline-css")).toEqual([
      [{ attribute: "id", contains: "divi-style-parent-inline-inline-css" }],
    ]);
    expect(selectorRequirements("div.WordSection1 > p")).toEqual([[{ attribute: "class", contains: "wordsection1" }]]);
    expect(selectorRequirements("html[data-wf-site]")).toEqual([[{ attribute: "data-wf-site" }]]);
  });

  it("gives each selector of a list its own needs, splitting only at commas outside quotes", () => {
    expect(selectorRequirements("div#___gatsby, style[data-x='a,b']")).toEqual([
      [{ attribute: "id", contains: "___gatsby" }],
      [{ attribute: "data-x", contains: "a,b" }],
    ]);
  });

  it("needs nothing it cannot be sure of", () => {
    expect(selectorRequirements("div")).toEqual([[]]);
    expect(selectorRequirements("a:not([href*='x'])")).toEqual([[]]);
    expect(selectorRequirements("html[xmlns\\:w='urn:schemas-microsoft-com:office:word']")).toEqual([[]]);
    expect(selectorRequirements("a[href='unclosed]")).toEqual([[]]);
  });
});
