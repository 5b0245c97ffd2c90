import { describeDetection } from "./describe-detection";
import { matchDomFingerprints } from "./dom-fingerprints";
import {
  detectWithRequirements,
  type EngineDetection,
  type EngineItems,
  fingerprintEngine,
} from "./fingerprint-engine";
import { collectPageEvidence, type FetchedPage, mergeEvidence, type PageEvidence } from "./page-evidence";

/*
 * Technographics of a company's site (every page a visit read, and optionally the domain's DNS), matched against the
 * open fingerprint dataset with every kind of clue a server-side fetch can see: HTML and comments, `dom` selectors,
 * script URLs, inline scripts and styles, visible text, meta tags, response headers, cookies, URLs, MX and TXT
 * records, and the dataset's implies / requires / excludes rules. `js` fingerprints (JavaScript globals) and `xhr`
 * (requests a running page makes) need a browser that runs the page, and are left out.
 */

export type { FetchedPage } from "./page-evidence";

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
 * What one visit analyses. Matching ~7,500 fingerprints costs tens of milliseconds per page of ordinary size and grows
 * with the HTML, so the pages (a visit reads at most a dozen) and the HTML read are capped: the home page and the
 * first pages read carry the site's template, later pages mostly repeat it.
 */
const MAX_PAGES = 12;
const MAX_PAGE_HTML_CHARS = 400_000;
const MAX_SITE_HTML_CHARS = 1_500_000;
/** A technology we only infer (WordPress implies PHP) is less certain than one we saw. */
const IMPLIED_DISCOUNT = 0.8;
const MAX_EVIDENCE_PER_TECHNOLOGY = 5;

/**
 * Technologies detected across the pages of one visit (home page first), most certain first (then by name), at most
 * MAX_TECHNOLOGIES. A clue seen on any page counts once for the site.
 */
export function detectSiteTechnologies(pages: readonly FetchedPage[], dns?: DnsRecords): DetectedTechnology[] {
  const evidence = mergeEvidence(collectSiteEvidence(pages));
  const items: EngineItems = { ...evidence.items, ...(dns && { dns: { mx: dns.mx, txt: dns.txt } }) };
  const engine = fingerprintEngine();
  const detections = detectWithRequirements((technologies) => [
    ...engine.analyze(items, technologies),
    ...evidence.roots.flatMap((root) => matchDomFingerprints(root, technologies)),
  ]);
  const resolved = engine.resolve(distinctPatterns(withoutBorrowedClues(detections)));
  const seen = new Set(detections.map((detection) => detection.technology.name));

  const technologies = resolved.flatMap((technology): DetectedTechnology[] => {
    const categories = technology.categories.map((category) => category.name);
    const category = categories[0];
    if (category === undefined) return [];
    const implied = !seen.has(technology.name);
    const reasons = implied
      ? impliedBy(
          technology.name,
          resolved.map((other) => other.name),
        ).map((name) => `implied by ${name}`)
      : detections
          .filter((detection) => detection.technology.name === technology.name)
          .map((detection) => describeDetection(detection, evidence.scriptSrcAsWritten));
    return [
      {
        name: technology.name,
        categories,
        category,
        confidence: roundConfidence((technology.confidence / 100) * (implied ? IMPLIED_DISCOUNT : 1)),
        version: technology.version === "" ? null : technology.version,
        evidence: [...new Set(reasons)].slice(0, MAX_EVIDENCE_PER_TECHNOLOGY),
      },
    ];
  });

  return technologies
    .sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name, "en"))
    .slice(0, MAX_TECHNOLOGIES);
}

/** Each page's evidence, within the visit's caps; a page past the HTML budget still shows its headers and cookies. */
function collectSiteEvidence(pages: readonly FetchedPage[]): PageEvidence[] {
  let htmlLeft = MAX_SITE_HTML_CHARS;
  return pages.slice(0, MAX_PAGES).map((page) => {
    const evidence = collectPageEvidence(page, Math.min(MAX_PAGE_HTML_CHARS, htmlLeft));
    htmlLeft -= evidence.items.html?.length ?? 0;
    return evidence;
  });
}

/**
 * One detection per technology and pattern. The engine adds up confidence per match, so a 50%-sure pattern that
 * matched two script tags (or two pages) would count as certain; the same clue seen twice is still one clue.
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

/**
 * Drops a detection of a technology made by the very pattern, on the very value, that detected a technology it
 * implies: the dataset gives some add-ons their platform's clue (Squarespace Commerce matches the `server: Squarespace`
 * header of every Squarespace site), which tells the add-on apart from nothing.
 */
function withoutBorrowedClues(detections: EngineDetection[]): EngineDetection[] {
  return detections.filter(
    (detection) =>
      !detections.some(
        (other) =>
          other.technology !== detection.technology &&
          detection.technology.implies.some((implied) => implied.name === other.technology.name) &&
          other.pattern.type === detection.pattern.type &&
          other.pattern.value === detection.pattern.value &&
          other.pattern.regex.source === detection.pattern.regex.source,
      ),
  );
}

/** The technologies found whose fingerprints imply `name` (the engine resolves implications without saying whose). */
function impliedBy(name: string, found: string[]): string[] {
  const engine = fingerprintEngine();
  return found.filter((other) => engine.getTechnology(other)?.implies.some((implied) => implied.name === name)).sort();
}

function roundConfidence(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
}
