import type { HTMLElement } from "node-html-parser";
import { elementsOf, textOf } from "./element-text";
import {
  type EngineDetection,
  type EngineDomCheck,
  type EnginePattern,
  type EngineTechnology,
  fingerprintEngine,
} from "./fingerprint-engine";
import { selectorRequirements, type SelectorRequirements } from "./selector-requirements";

/*
 * The dataset's `dom` fingerprints (a CSS selector, and whether the element exists, or its text or an attribute
 * matches) evaluated on the page's static HTML, as the browser extension evaluates them on the live page. Most modern
 * fingerprints for stylesheets, fonts, page builders and embeds are written this way. `properties` checks read
 * JavaScript state of live elements and are skipped.
 */

interface DomFingerprint {
  technology: EngineTechnology;
  selector: string;
  requirements: SelectorRequirements;
  checks: EngineDomCheck[];
  /** From a `\;confidence:N` suffix on the selector, which the engine leaves in the selector text. */
  confidence: number | null;
}

/**
 * Text checks read the text of this many of the elements a selector finds, and this much of each: a selector such as
 * `div` finds every block of a large page, and reading each one's text would cost the page's size again and again.
 * Attribute checks are cheap and look at every element found.
 */
const MAX_TEXT_ELEMENTS = 25;
const MAX_ELEMENT_TEXT_CHARS = 10_000;

/** Compiled once per technology: the dataset is loaded once per process and its technologies never change. */
const compiled = new WeakMap<EngineTechnology, DomFingerprint[]>();

function domFingerprintsOf(technology: EngineTechnology): DomFingerprint[] {
  let fingerprints = compiled.get(technology);
  if (!fingerprints) {
    fingerprints = Object.entries(technology.dom).flatMap(([key, checks]): DomFingerprint[] => {
      const [selector = "", ...options] = key.split("\\;");
      const readable = checks.filter((check) => check.exists ?? check.text ?? check.attributes);
      if (selector.trim() === "" || readable.length === 0) return [];
      const confidence = options.find((option) => option.startsWith("confidence:"))?.slice("confidence:".length);
      return [
        {
          technology,
          selector,
          requirements: selectorRequirements(selector),
          checks: readable,
          confidence: confidence === undefined ? null : Number.parseInt(confidence, 10),
        },
      ];
    });
    compiled.set(technology, fingerprints);
  }
  return fingerprints;
}

/**
 * Detections of the dom fingerprints of `technologies` (all top-level ones when omitted) on the parsed page. A
 * selector the parser cannot run is skipped on its own; the others still count.
 */
export function matchDomFingerprints(
  root: HTMLElement,
  technologies: readonly EngineTechnology[] = fingerprintEngine().technologies,
): EngineDetection[] {
  const attributes = attributeIndex(root);
  const detections: EngineDetection[] = [];
  for (const fingerprint of technologies.flatMap(domFingerprintsOf)) {
    if (!mayMatch(fingerprint.requirements, attributes)) continue;
    let elements: HTMLElement[];
    try {
      elements = root.querySelectorAll(fingerprint.selector);
    } catch {
      continue;
    }
    if (elements.length > 0) detections.push(...checkElements(fingerprint, elements));
  }
  return detections;
}

/** For each check of the fingerprint, the first element found that passes it: one clue is one detection. */
function checkElements(fingerprint: DomFingerprint, elements: HTMLElement[]): EngineDetection[] {
  const detections: EngineDetection[] = [];
  const detect = (pattern: EnginePattern, values: Iterable<string>, attribute?: string) => {
    for (const value of values) {
      const match = pattern.regex.exec(value);
      if (!match) continue;
      detections.push({
        technology: fingerprint.technology,
        pattern: {
          ...pattern,
          confidence: fingerprint.confidence ?? pattern.confidence,
          type: "dom",
          value,
          match: match[0],
          selector: fingerprint.selector,
          ...(attribute !== undefined && { attribute }),
        },
        version: fingerprintEngine().resolveVersion(pattern, value),
      });
      return;
    }
  };
  for (const check of fingerprint.checks) {
    if (check.exists) detect(check.exists, [""]);
    if (check.text) {
      const texts = elements
        .slice(0, MAX_TEXT_ELEMENTS)
        .map((element) => textOf(element, MAX_ELEMENT_TEXT_CHARS).trim());
      detect(check.text, texts);
    }
    for (const [name, pattern] of Object.entries(check.attributes ?? {})) {
      const values = elements.flatMap((element) => element.getAttribute(name) ?? []);
      detect(pattern, values, name);
    }
  }
  return detections;
}

/** Per parsed page: a page is matched again for each group of fingerprints that a detection unlocks. */
const attributeIndexes = new WeakMap<HTMLElement, Map<string, string>>();

/** Lower-case attribute name → every value it has on the page, lower-cased and joined. */
function attributeIndex(root: HTMLElement): Map<string, string> {
  const cached = attributeIndexes.get(root);
  if (cached) return cached;
  const values = new Map<string, string[]>();
  for (const element of elementsOf(root)) {
    for (const [name, value] of Object.entries(element.attributes)) {
      const key = name.toLowerCase();
      const list = values.get(key) ?? [];
      list.push(value.toLowerCase());
      values.set(key, list);
    }
  }
  const index = new Map([...values].map(([name, list]) => [name, list.join("\n")]));
  attributeIndexes.set(root, index);
  return index;
}

function mayMatch(requirements: SelectorRequirements, attributes: Map<string, string>): boolean {
  return requirements.some((needs) =>
    needs.every((need) => {
      const values = attributes.get(need.attribute);
      return values !== undefined && (need.contains === undefined || values.includes(need.contains));
    }),
  );
}
