/*
 * Sitemaps (sitemaps.org protocol): a `<urlset>` lists pages, a `<sitemapindex>` lists further sitemaps; either way
 * the addresses are the `<loc>` elements. Read with a regular expression rather than an XML parser: we need nothing
 * else from the file, and a slightly broken sitemap still yields its locations.
 */

export interface SitemapLocations {
  kind: "urlset" | "index";
  locations: string[];
}

const LOC = /<(?:[\w-]+:)?loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/(?:[\w-]+:)?loc>/gi;
const XML_ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };

export function sitemapLocations(xml: string): SitemapLocations {
  const kind = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml) ? "index" : "urlset";
  const locations = [...xml.matchAll(LOC)].map((match) =>
    match[1]!.replace(/&(?:amp|lt|gt|quot|apos);/g, (entity) => XML_ENTITIES[entity]!),
  );
  return { kind, locations };
}

/** The `Sitemap:` lines of a robots.txt (the directive applies to the whole file, whatever group it sits in). */
export function robotsSitemaps(robotsTxt: string): string[] {
  return robotsTxt
    .split(/\r?\n/)
    .map((line) => /^\s*sitemap\s*:\s*(\S+)/i.exec(line.replace(/#.*$/, ""))?.[1])
    .filter((url): url is string => url !== undefined);
}
