import { type HTMLElement, parse } from "node-html-parser";
import { withinNestingLimit } from "@/lib/providers/first-party/website/html-nesting";
import type { EngineItems } from "./fingerprint-engine";
import { textOf } from "./element-text";

/*
 * What a server-side fetch of one page shows the fingerprints: its HTML (comments included), the parsed tree for
 * `dom` selectors, script URLs (scripts, and the scripts a page preloads), inline scripts and styles, visible text,
 * meta tags, response headers, cookies and the URL.
 */

export interface FetchedPage {
  url: string;
  html: string;
  headers: Headers;
}

export interface PageEvidence {
  items: EngineItems;
  /**
   * What `dom` fingerprints look at: the parsed page, then the HTML templates its scripts carry (cookie banners and
   * dialogs a script inserts when the page runs). Empty when the page's HTML was not read (the site's budget was spent).
   */
  roots: HTMLElement[];
  /** Script URLs as fed to the engine (absolute) → as written in the page, for evidence. */
  scriptSrcAsWritten: Map<string, string>;
}

const MAX_TEXT_CHARS = 100_000;
const MAX_SCRIPT_SOURCES = 200;
/** Not part of what a reader sees, and `text` fingerprints are written against what a reader sees. */
const INVISIBLE_TAGS: ReadonlySet<string> = new Set(["script", "style", "noscript", "template"]);
/** `<link rel>` values whose URL the browser loads as a script. */
const SCRIPT_PRELOAD = /(?:^|\s)modulepreload(?:\s|$)/i;
const PRELOAD = /(?:^|\s)preload(?:\s|$)/i;
/** A quoted URL or path of a script file in code: '…/ga.js', "https://www.googletagmanager.com/gtm.js?id=". */
const LOADED_SCRIPT_LITERAL = /["']((?:https?:)?(?:\/\/|\.|\/)[^"'\s<>]*\.js(?:\?[^"'\s<>]*)?)["']/g;
/** Script types that hold markup for the page's scripts to insert, not code: "text/template", "text/x-template"… */
const HTML_TEMPLATE_TYPE = /^text\/(?:x-)?(?:template|html)/i;

/**
 * The evidence of one page. `maxHtmlChars` bounds the HTML read: past it, the middle of the page goes, because head and
 * tail carry the generator tags, bundles and tracking snippets; 0 reads only the headers, cookies and URL.
 */
export function collectPageEvidence(page: FetchedPage, maxHtmlChars: number): PageEvidence {
  const items: EngineItems = { url: page.url, headers: headersOf(page.headers), cookies: cookiesOf(page.headers) };
  const scriptSrcAsWritten = new Map<string, string>();
  if (maxHtmlChars <= 0) return { items, roots: [], scriptSrcAsWritten };

  const html =
    page.html.length > maxHtmlChars
      ? page.html.slice(0, Math.ceil(maxHtmlChars / 2)) + page.html.slice(-Math.floor(maxHtmlChars / 2))
      : page.html;
  const root = parseTree(html);

  const inlineScripts: string[] = [];
  const templates: HTMLElement[] = [];
  for (const script of root.querySelectorAll("script")) {
    const src = script.getAttribute("src")?.trim();
    if (src) addScriptSource(scriptSrcAsWritten, src, page.url);
    else if (HTML_TEMPLATE_TYPE.test(script.getAttribute("type") ?? "")) templates.push(parseTree(script.rawText));
    else inlineScripts.push(script.rawText);
  }
  // Loader snippets (analytics, tag managers, pixels) write the URL of the script they add as a string: the browser
  // would report it as a script of the page.
  for (const [, literal = ""] of inlineScripts.join("\n").matchAll(LOADED_SCRIPT_LITERAL)) {
    addScriptSource(scriptSrcAsWritten, literal, page.url);
  }
  for (const link of root.querySelectorAll("link[href]")) {
    const rel = link.getAttribute("rel") ?? "";
    const href = link.getAttribute("href")?.trim();
    const loadsScript = SCRIPT_PRELOAD.test(rel) || (PRELOAD.test(rel) && link.getAttribute("as") === "script");
    if (href && loadsScript) addScriptSource(scriptSrcAsWritten, href, page.url);
  }

  const meta: Record<string, string[]> = {};
  for (const tag of root.querySelectorAll("meta")) {
    const key = (tag.getAttribute("name") ?? tag.getAttribute("property"))?.trim().toLowerCase();
    const content = tag.getAttribute("content");
    if (key && content !== undefined) (meta[key] ??= []).push(content);
  }

  Object.assign(items, {
    html,
    text: textOf(root.querySelector("body") ?? root, MAX_TEXT_CHARS, INVISIBLE_TAGS).replace(/\s+/g, " "),
    scripts: inlineScripts.join("\n"),
    css: root
      .querySelectorAll("style")
      .map((style) => style.rawText)
      .join("\n"),
    // Fingerprints are written against the absolute URLs a browser reports (some anchor on "^https?://").
    scriptSrc: [...scriptSrcAsWritten.keys()],
    meta,
  } satisfies EngineItems);
  return { items, roots: [root, ...templates], scriptSrcAsWritten };
}

/**
 * One site's evidence from its pages', matched in one pass: the engine's cost is mostly a walk over every fingerprint,
 * paid per call, and pages of one site repeat their template. Texts are joined one page per line (URLs too: a pattern
 * anchored at the start reads the first page's, the home page's), keyed clues and script URLs are pooled.
 */
export function mergeEvidence(pages: readonly PageEvidence[]): PageEvidence {
  const joined = (type: "url" | "html" | "text" | "css" | "scripts") =>
    pages
      .map((page) => page.items[type])
      .filter((value) => value !== undefined && value !== "")
      .join("\n");
  const pooled = (type: "meta" | "headers" | "cookies") => {
    const byKey: Record<string, string[]> = {};
    for (const page of pages) {
      for (const [key, values] of Object.entries(page.items[type] ?? {})) (byKey[key] ??= []).push(...values);
    }
    return Object.fromEntries(Object.entries(byKey).map(([key, values]) => [key, [...new Set(values)]]));
  };
  const scriptSrcAsWritten = new Map(pages.flatMap((page) => [...page.scriptSrcAsWritten]));
  return {
    items: {
      url: joined("url"),
      html: joined("html"),
      text: joined("text"),
      css: joined("css"),
      scripts: joined("scripts"),
      scriptSrc: [...scriptSrcAsWritten.keys()],
      meta: pooled("meta"),
      headers: pooled("headers"),
      cookies: pooled("cookies"),
    },
    roots: pages.flatMap((page) => page.roots),
    scriptSrcAsWritten,
  };
}

function parseTree(html: string): HTMLElement {
  // Comments stay in `html` (editors sign pages there) but out of the tree, whose text the dom checks read.
  return parse(withinNestingLimit(html), {
    comment: false,
    blockTextElements: { script: true, noscript: true, style: true, pre: true },
  });
}

function addScriptSource(sources: Map<string, string>, src: string, base: string): void {
  if (sources.size < MAX_SCRIPT_SOURCES) sources.set(absoluteUrl(src, base), src);
}

function absoluteUrl(src: string, base: string): string {
  try {
    return new URL(src, base).href;
  } catch {
    return src;
  }
}

function headersOf(headers: Headers): Record<string, string[]> {
  const byName: Record<string, string[]> = {};
  headers.forEach((value, name) => {
    (byName[name.toLowerCase()] ??= []).push(value);
  });
  return byName;
}

/** Cookie name → values, from every Set-Cookie header. */
function cookiesOf(headers: Headers): Record<string, string[]> {
  const cookies: Record<string, string[]> = {};
  for (const line of headers.getSetCookie()) {
    const pair = line.split(";", 1)[0] ?? "";
    const equals = pair.indexOf("=");
    const name = (equals === -1 ? pair : pair.slice(0, equals)).trim().toLowerCase();
    if (name !== "") (cookies[name] ??= []).push(equals === -1 ? "" : pair.slice(equals + 1).trim());
  }
  return cookies;
}
