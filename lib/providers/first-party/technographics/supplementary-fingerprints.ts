/*
 * Clues the open dataset lacks, in its own format, added to its entries before the engine compiles them. Each is a
 * mark the named service itself puts on every site that uses it, so a static copy of the page still shows it. Keep
 * this list short and general: a clue belongs upstream (github.com/enthec/webappanalyzer) once it is proven here.
 */

/** A dataset entry's fields we add to: lists of patterns, (for `dom`) selectors, or technologies it rules out. */
interface SupplementaryFingerprint {
  scriptSrc?: string[];
  dom?: string[];
  excludes?: string[];
}

const SUPPLEMENTARY_FINGERPRINTS: Readonly<Record<string, SupplementaryFingerprint>> = {
  // `/cdn-cgi/` is the path Cloudflare's edge reserves on every proxied site: its email obfuscation, Rocket Loader,
  // challenge and image scripts and links live there, and nothing else serves it.
  Cloudflare: {
    scriptSrc: ["^(?:https?://[^/]+)?/cdn-cgi/"],
    dom: [
      "a[href*='/cdn-cgi/l/email-protection']",
      "[data-cfemail]",
      "img[src*='/cdn-cgi/image/']",
      "link[href*='/cdn-cgi/']",
    ],
  },
  // The dataset's "WebsiteBuilder" (websitebuilder.com) takes any generator ending in "Website Builder", which is
  // also how Wix signs its pages.
  Wix: { excludes: ["WebsiteBuilder"] },
  // Squarespace's own templates wire their parts with `data-controller` attributes, the dataset's only static clue
  // for Stimulus.
  Squarespace: { excludes: ["Stimulus"] },
  "Cloudflare Rocket Loader": {
    scriptSrc: ["/cdn-cgi/scripts/[\\w]+/cloudflare-static/rocket-loader(?:\\.min)?\\.js"],
  },
};

type DatasetEntry = Record<string, unknown>;

/** The dataset with our clues added to the entries they name; the dataset object itself is left as it was. */
export function withSupplementaryFingerprints(dataset: Record<string, DatasetEntry>): Record<string, DatasetEntry> {
  const merged = { ...dataset };
  for (const [name, supplement] of Object.entries(SUPPLEMENTARY_FINGERPRINTS)) {
    const entry = dataset[name];
    // A technology the dataset renamed or dropped is not recreated from our fragment of it.
    if (!entry) continue;
    merged[name] = {
      ...entry,
      ...(supplement.scriptSrc && { scriptSrc: [...asList(entry.scriptSrc), ...supplement.scriptSrc] }),
      ...(supplement.dom && { dom: withSelectors(entry.dom, supplement.dom) }),
      ...(supplement.excludes && { excludes: [...asList(entry.excludes), ...supplement.excludes] }),
    };
  }
  return merged;
}

function asList(patterns: unknown): unknown[] {
  if (patterns === undefined) return [];
  return Array.isArray(patterns) ? patterns : [patterns];
}

/** `dom` is a selector, a list of selectors, or an object of checks per selector: selectors join in the same form. */
function withSelectors(dom: unknown, selectors: string[]): unknown {
  if (dom !== null && typeof dom === "object" && !Array.isArray(dom)) {
    return { ...dom, ...Object.fromEntries(selectors.map((selector) => [selector, { exists: "" }])) };
  }
  return [...asList(dom), ...selectors];
}
