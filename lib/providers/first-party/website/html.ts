import { type HTMLElement, parse } from "node-html-parser";
import { withinNestingLimit } from "@/lib/providers/first-party/website/html-nesting";
import { textRuns } from "@/lib/providers/first-party/website/text-runs";

/*
 * The HTML helpers the website extractors share. Extractors are pure functions of (html, pageUrl): each parses its
 * own tree, so one may strip scripts or rewrite nodes without affecting another.
 */

export function parseHtml(html: string): HTMLElement {
  return parse(withinNestingLimit(html), { comment: false, lowerCaseTagName: false });
}

/**
 * The visible text, entities decoded, one line per run of text a reader sees unbroken (see `textRuns`): blocks, table
 * cells, `<br>` and links start a new line, so neighbouring elements never run together into one word.
 */
export function visibleText(root: HTMLElement): string {
  return textRuns(root)
    .map((run) => run.text)
    .join("\n");
}

/** Collapses runs of whitespace (including non-breaking spaces) and trims; null for what is then empty. */
export function cleanText(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = text.replace(/[\s\u00a0\u200b]+/g, " ").trim();
  return cleaned === "" ? null : cleaned;
}

/** An http(s) URL resolved against the page, without its fragment; null for anything else (javascript:, mailto:…). */
export function resolveHttpUrl(href: string | undefined | null, base: string): URL | null {
  if (href === undefined || href === null) return null;
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  return url;
}

/** `<meta name=… content=…>` or `<meta property=… content=…>` (Open Graph uses `property`), first non-empty one. */
export function metaContent(root: HTMLElement, key: string): string | null {
  const wanted = key.toLowerCase();
  for (const meta of root.querySelectorAll("meta")) {
    const name = (
      meta.getAttribute("name") ??
      meta.getAttribute("property") ??
      meta.getAttribute("itemprop") ??
      ""
    ).toLowerCase();
    if (name !== wanted) continue;
    const content = cleanText(meta.getAttribute("content"));
    if (content !== null) return content;
  }
  return null;
}

/** The element's own classes, lower-cased. */
export function classesOf(element: HTMLElement): string[] {
  return (element.getAttribute("class") ?? "")
    .toLowerCase()
    .split(/\s+/)
    .filter((name) => name !== "");
}
