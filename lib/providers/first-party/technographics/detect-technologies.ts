import { parse } from "node-html-parser";
import {
  analyzeItems,
  type EngineDetection,
  type EngineItems,
  type EnginePattern,
  fingerprintEngine,
} from "./fingerprint-engine";

/*
 * Technographics from one fetched page (and optionally the domain's DNS), matched against the open fingerprint
 * dataset. We match what a server-side fetch can see: HTML, script URLs, inline scripts and styles, visible text,
 * meta tags, response headers, cookies, the URL, MX and TXT records. Fingerprints of type `dom` and `js` are skipped:
 * they query the rendered DOM and the page's JavaScript globals, which needs a browser that runs the page.
 */

export interface FetchedPage {
  url: string;
  html: string;
  headers: Headers;
}

export interface DnsRecords {
  mx: string[];
  txt: string[];
}

export interface DetectedTechnology {
  name: string;
  categories: string[];
  /** The primary category: the dataset lists it first. */
  category: string;
  /** 0–1. */
  confidence: number;
  version: string | null;
  /** Human-readable reasons, e.g. 'meta generator "WordPress 6.4.2"' or 'header x-powered-by: PHP/8.2.12'. */
  evidence: string[];
}

/** Enough for any real stack; past this the list is noise a caller would not show. */
const MAX_TECHNOLOGIES = 60;
/**
 * HTML fingerprints are regular expressions run over the whole document; a multi-megabyte page would make one call
 * slow. Head and tail carry the generator tags, bundles and tracking snippets, so the middle of a huge page goes.
 */
const MAX_HTML_CHARS = 400_000;
const MAX_TEXT_CHARS = 100_000;
const MAX_SCRIPT_SOURCES = 200;
/** Evidence quotes what matched; a long header, TXT record or script body is shortened to this. */
const MAX_EVIDENCE_CHARS = 120;
/** A technology we only infer (WordPress implies PHP) is less certain than one we saw. */
const IMPLIED_DISCOUNT = 0.8;
const MAX_EVIDENCE_PER_TECHNOLOGY = 5;

/** Technologies detected on the page, most certain first (then by name), at most MAX_TECHNOLOGIES. */
export function detectTechnologies(page: FetchedPage, dns?: DnsRecords): DetectedTechnology[] {
  const collected = collectItems(page, dns);
  const detections = analyzeItems(collected.items);
  const resolved = fingerprintEngine().resolve(distinctPatterns(detections));
  const seen = new Set(detections.map((detection) => detection.technology.name));

  const technologies = resolved.flatMap((technology): DetectedTechnology[] => {
    const categories = technology.categories.map((category) => category.name);
    const category = categories[0];
    if (category === undefined) return [];
    const implied = !seen.has(technology.name);
    const evidence = implied
      ? impliedBy(
          technology.name,
          resolved.map((other) => other.name),
        ).map((name) => `implied by ${name}`)
      : detections
          .filter((detection) => detection.technology.name === technology.name)
          .map((detection) => describe(detection, collected));
    return [
      {
        name: technology.name,
        categories,
        category,
        confidence: roundConfidence((technology.confidence / 100) * (implied ? IMPLIED_DISCOUNT : 1)),
        version: technology.version === "" ? null : technology.version,
        evidence: [...new Set(evidence)].slice(0, MAX_EVIDENCE_PER_TECHNOLOGY),
      },
    ];
  });

  return technologies
    .sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name, "en"))
    .slice(0, MAX_TECHNOLOGIES);
}

interface CollectedItems {
  items: EngineItems;
  /** Script URLs as fed to the engine (absolute) → as written in the page, for evidence. */
  scriptSrcAsWritten: Map<string, string>;
}

function collectItems(page: FetchedPage, dns: DnsRecords | undefined): CollectedItems {
  const html =
    page.html.length > MAX_HTML_CHARS
      ? page.html.slice(0, MAX_HTML_CHARS / 2) + page.html.slice(-MAX_HTML_CHARS / 2)
      : page.html;
  const root = parse(html, {
    comment: false,
    blockTextElements: { script: true, noscript: true, style: true, pre: true },
  });

  const scriptSrcAsWritten = new Map<string, string>();
  const inlineScripts: string[] = [];
  for (const script of root.querySelectorAll("script")) {
    const src = script.getAttribute("src")?.trim();
    if (src) {
      if (scriptSrcAsWritten.size < MAX_SCRIPT_SOURCES) scriptSrcAsWritten.set(absoluteUrl(src, page.url), src);
    } else {
      inlineScripts.push(script.rawText);
    }
    script.remove();
  }
  const styles = root.querySelectorAll("style").map((style) => {
    style.remove();
    return style.rawText;
  });

  const meta: Record<string, string[]> = {};
  for (const tag of root.querySelectorAll("meta")) {
    const key = (tag.getAttribute("name") ?? tag.getAttribute("property"))?.trim().toLowerCase();
    const content = tag.getAttribute("content");
    if (key && content !== undefined) (meta[key] ??= []).push(content);
  }

  const headers: Record<string, string[]> = {};
  page.headers.forEach((value, name) => {
    (headers[name.toLowerCase()] ??= []).push(value);
  });

  const cookies: Record<string, string[]> = {};
  for (const line of page.headers.getSetCookie()) {
    const pair = line.split(";", 1)[0] ?? "";
    const equals = pair.indexOf("=");
    const name = (equals === -1 ? pair : pair.slice(0, equals)).trim().toLowerCase();
    if (name !== "") (cookies[name] ??= []).push(equals === -1 ? "" : pair.slice(equals + 1).trim());
  }

  const items: EngineItems = {
    url: page.url,
    html,
    text: (root.querySelector("body") ?? root).text.replace(/\s+/g, " ").slice(0, MAX_TEXT_CHARS),
    scripts: inlineScripts.join("\n"),
    css: styles.join("\n"),
    // Fingerprints are written against the absolute URLs a browser reports (some anchor on "^https?://").
    scriptSrc: [...scriptSrcAsWritten.keys()],
    meta,
    headers,
    cookies,
  };
  if (dns) items.dns = { mx: dns.mx, txt: dns.txt };
  return { items, scriptSrcAsWritten };
}

function absoluteUrl(src: string, base: string): string {
  try {
    return new URL(src, base).href;
  } catch {
    return src;
  }
}

/**
 * One detection per technology and pattern. The engine adds up confidence per match, so a 50%-sure pattern that
 * matched two script tags would count as certain; the same clue seen twice is still one clue.
 */
function distinctPatterns(detections: EngineDetection[]): EngineDetection[] {
  const seen = new Map<string, Set<RegExp>>();
  return detections.filter((detection) => {
    const regexes = seen.get(detection.technology.name) ?? new Set<RegExp>();
    seen.set(detection.technology.name, regexes);
    if (regexes.has(detection.pattern.regex)) return false;
    regexes.add(detection.pattern.regex);
    return true;
  });
}

/** The technologies found on the page whose fingerprints imply `name` (the engine resolves implications without saying whose). */
function impliedBy(name: string, found: string[]): string[] {
  const engine = fingerprintEngine();
  return found.filter((other) => engine.getTechnology(other)?.implies.some((implied) => implied.name === name)).sort();
}

/** Evidence for one detection, naming the kind of clue and quoting what matched. */
function describe(detection: EngineDetection, collected: CollectedItems): string {
  const { type, value, match } = detection.pattern;
  const key = patternKey(detection.technology, type, detection.pattern);
  switch (type) {
    case "meta":
      return `meta ${key ?? "tag"} "${shorten(value)}"`;
    case "headers":
      return `header ${key ?? "response"}: ${shorten(value)}`;
    case "cookies":
      // The name is the clue; cookie values can identify a visitor and stay out of evidence.
      return `cookie ${key ?? "set by the site"}`;
    case "dns":
      return `dns ${(key ?? "record").toUpperCase()} ${shorten(value)}`;
    case "scriptSrc":
      return `script ${shorten(collected.scriptSrcAsWritten.get(value) ?? value)}`;
    case "scripts":
      return `inline script "${shorten(match)}"`;
    case "url":
      return `url ${shorten(value)}`;
    default:
      // html, text and css: the matched excerpt says more than the whole document would.
      return `${type} "${shorten(match)}"`;
  }
}

/** For keyed clues (a header name, meta name, cookie name, DNS record type): the key whose pattern matched. */
function patternKey(
  technology: EngineDetection["technology"],
  type: string,
  pattern: EnginePattern,
): string | undefined {
  const byKey = technology[type];
  if (typeof byKey !== "object" || byKey === null || Array.isArray(byKey)) return undefined;
  for (const [key, patterns] of Object.entries(byKey as Record<string, EnginePattern[]>)) {
    // The engine copies the compiled pattern into the detection, so the RegExp object itself identifies it.
    if (patterns.some((candidate) => candidate.regex === pattern.regex)) return key;
  }
  return undefined;
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, " ").trim();
  return single.length > MAX_EVIDENCE_CHARS ? `${single.slice(0, MAX_EVIDENCE_CHARS - 1)}…` : single;
}

function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
