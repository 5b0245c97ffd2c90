import { parse } from "node-html-parser";
import { describe, expect, it } from "vitest";
import { matchDomFingerprints } from "./dom-fingerprints";
import type { EngineDomCheck, EnginePattern, EngineTechnology } from "./fingerprint-engine";

function pattern(source: string, version = ""): EnginePattern {
  return { regex: new RegExp(source, "i"), confidence: 100, version };
}

function technology(name: string, dom: Record<string, EngineDomCheck[]>): EngineTechnology {
  return { name, categories: [], implies: [], dom };
}

const page = parse(`<html><head>
  <link rel="stylesheet" href="/assets/builder/3.2.1/builder.css">
  <style id="theme-inline">/* Theme Version: 4.23.1 */</style></head>
  <body><div class="card">One</div><div class="card">Two</div></body></html>`);

describe("matchDomFingerprints", () => {
  it("checks that an element exists, or that its attribute or text matches, and reads versions", () => {
    const builder = technology("Builder", {
      "link[href*='/builder/']": [{ attributes: { href: pattern("/builder/([\\d.]+)/", "\\1") } }],
      "style#theme-inline": [{ text: pattern("Version: ([\\d.]+)", "\\1") }],
      "div.card": [{ exists: pattern("") }],
    });
    const detections = matchDomFingerprints(page, [builder]);
    expect(
      detections.map((detection) => [detection.pattern.selector, detection.pattern.attribute, detection.version]),
    ).toEqual([
      ["link[href*='/builder/']", "href", "3.2.1"],
      ["style#theme-inline", undefined, "4.23.1"],
      // Two cards, one clue.
      ["div.card", undefined, ""],
    ]);
  });

  it("takes a confidence written after the selector, and runs the selector without it", () => {
    const detections = matchDomFingerprints(page, [
      technology("Cards", { "div.card\\;confidence:40": [{ exists: pattern("") }] }),
    ]);
    expect(detections[0]?.pattern).toMatchObject({ selector: "div.card", confidence: 40 });
  });

  it("skips a selector the parser cannot run and still runs the others", () => {
    const detections = matchDomFingerprints(page, [
      technology("Broken", { "div:unknown-pseudo(1)": [{ exists: pattern("") }] }),
      technology("Fine", { "link[rel=stylesheet]": [{ exists: pattern("") }] }),
    ]);
    expect(detections.map((detection) => detection.technology.name)).toEqual(["Fine"]);
  });

  it("matches nothing whose attribute values the page does not have", () => {
    const detections = matchDomFingerprints(page, [
      technology("Elsewhere", { "link[href*='/other-builder/']": [{ exists: pattern("") }] }),
      technology("Absent", { "[data-builder-id]": [{ exists: pattern("") }] }),
    ]);
    expect(detections).toEqual([]);
  });

  it("finds the element that passes an attribute check among many that do not", () => {
    const icons = `${'<i class="fade"></i>'.repeat(5_000)}<i class="fa fa-phone"></i>`;
    const long = parse(`<html><body>${icons}</body></html>`);
    const detections = matchDomFingerprints(long, [
      technology("Icons", { "[class*='fa']": [{ attributes: { class: pattern("(?:^|\\s)fa-[a-z]+") } }] }),
    ]);
    expect(detections.map((detection) => detection.pattern.value)).toEqual(["fa fa-phone"]);
  });

  it("reads the text of a bounded number of the elements a selector finds", () => {
    const blocks = `${"<div>filler</div>".repeat(30)}<div>Powered by Example Engine 2.0</div>`;
    const long = parse(`<html><body>${blocks}</body></html>`);
    const engine = technology("Engine", { div: [{ text: pattern("Example Engine") }] });
    expect(matchDomFingerprints(long, [engine])).toEqual([]);
    const short = parse(`<html><body><div>filler</div><div>Powered by Example Engine 2.0</div></body></html>`);
    expect(matchDomFingerprints(short, [engine])).toHaveLength(1);
  });

  it("ignores checks on JavaScript properties, which static HTML does not have", () => {
    const properties = { properties: { _reactRootContainer: pattern("") } } as EngineDomCheck;
    expect(matchDomFingerprints(page, [technology("Live", { "body > div": [properties] })])).toEqual([]);
  });
});
