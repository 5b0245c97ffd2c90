import type { HTMLElement } from "node-html-parser";
import { parseHtml, resolveHttpUrl } from "@/lib/providers/first-party/website/html";
import { looksLikePersonName } from "@/lib/providers/first-party/website/person-links";

/*
 * What one fetched page offers the crawl: its links (with where on the page they sit), how many addresses it shows,
 * and the pages its frames and iframes display. Only http(s) links to pages of the site are kept; the caller says
 * what the site is.
 */

/** "map": in the navigation, header or footer (the site's own map); "body": anywhere else; "frame": a frame's source. */
export type LinkPlace = "map" | "body" | "frame";

export interface PageLink {
  url: URL;
  text: string;
  place: LinkPlace;
}

export interface PageLinks {
  links: PageLink[];
  /** `mailto:` links on the page: a page that shows many addresses tends to link pages that show more. */
  mailtos: number;
  /** Links whose text is a person's name: a page with several is a list of people. */
  personNameLinks: number;
}

/** Anchors read per page; a page with more is a sitemap page or a calendar, and its first links are its menu. */
const MAX_ANCHORS_READ = 2_000;
/** Ancestors climbed to tell the navigation from the body; menus nest a few levels deep, pages a few dozen. */
const MAX_ANCESTORS = 40;
const MAP_TAGS = new Set(["NAV", "HEADER", "FOOTER"]);
const MAP_ROLES = new Set(["navigation", "banner", "contentinfo", "menubar"]);
/** Class or id words of site-builder menus, headers and footers that are not `<nav>`/`<header>`/`<footer>`. */
const MAP_NAMES =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menubar|header|masthead|footer|colophon|sitemap)(?:$|[\s_-])/i;
/** Elements whose text is not the page's own words: code, styles, the fallbacks shown without frames or scripts. */
const NOT_OWN_TEXT = "head, script, style, noscript, noframes, template, svg, iframe";
/** A frame shell shows less text than this of its own. */
const SHELL_MAX_TEXT = 200;
/** `<frame src>` and `<iframe src>`. Read from the source text: node-html-parser drops most of a `<frameset>`. */
const FRAME_TAG = /<i?frame\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const COMMENT = /<!--[\s\S]*?-->/g;

function isInMap(anchor: HTMLElement): boolean {
  let element: HTMLElement | null = anchor.parentNode;
  for (let climbed = 0; element !== null && climbed < MAX_ANCESTORS; climbed++, element = element.parentNode) {
    if (MAP_TAGS.has(element.tagName)) return true;
    if (MAP_ROLES.has((element.getAttribute("role") ?? "").toLowerCase())) return true;
    if (MAP_NAMES.test(`${element.getAttribute("class") ?? ""} ${element.getAttribute("id") ?? ""}`)) return true;
  }
  return false;
}

/** The same-site `<frame>`/`<iframe>` sources of a page, in document order. */
export function frameSources(html: string, pageUrl: string, isOnSite: (url: URL) => boolean): URL[] {
  return [...html.replace(COMMENT, "").matchAll(FRAME_TAG)].flatMap((match) => {
    const url = resolveHttpUrl(decodeAttribute(match[1] ?? match[2] ?? match[3] ?? ""), pageUrl);
    return url !== null && isOnSite(url) ? [url] : [];
  });
}

/** The few entities that appear in URLs written into attributes. */
function decodeAttribute(value: string): string {
  return value.replace(/&amp;/gi, "&").replace(/&#0*38;/g, "&");
}

/**
 * A home page that is only a frame around the real one: a `<frameset>`, or a page whose own text is a line or two
 * around an `<iframe>`. Its frames are its content.
 */
export function isFrameShell(html: string): boolean {
  const source = html.replace(COMMENT, "");
  if (/<frameset[\s>]/i.test(source)) return true;
  if (!/<iframe\b/i.test(source)) return false;
  const root = parseHtml(source);
  for (const element of root.querySelectorAll(NOT_OWN_TEXT)) element.remove();
  return root.text.replace(/\s+/g, " ").trim().length < SHELL_MAX_TEXT;
}

export function readPageLinks(html: string, pageUrl: string, isOnSite: (url: URL) => boolean): PageLinks {
  const root = parseHtml(html);
  const base = resolveHttpUrl(root.querySelector("base[href]")?.getAttribute("href"), pageUrl)?.href ?? pageUrl;
  const links: PageLink[] = [];
  let mailtos = 0;
  let personNameLinks = 0;
  for (const anchor of root.querySelectorAll("a[href], area[href]").slice(0, MAX_ANCHORS_READ)) {
    const href = anchor.getAttribute("href") ?? "";
    if (/^\s*mailto:/i.test(href)) {
      mailtos++;
      continue;
    }
    const url = resolveHttpUrl(href, base);
    if (url === null || !isOnSite(url)) continue;
    const text = anchor.text || anchor.getAttribute("title") || anchor.getAttribute("alt") || "";
    if (looksLikePersonName(text)) personNameLinks++;
    links.push({ url, text, place: isInMap(anchor) ? "map" : "body" });
  }
  for (const url of frameSources(html, pageUrl, isOnSite)) links.push({ url, text: "", place: "frame" });
  return { links, mailtos, personNameLinks };
}
