/*
 * node-html-parser's cost grows with the number of tags times how many are open, so a page of thousands of tags that
 * never close (broken or hostile: 20,000 unclosed `<a>` take seconds, a megabyte of them minutes) would hold a request
 * far past its time. No real page nests anywhere near MAX_OPEN_ELEMENTS deep, so a page is cut where it would; what
 * comes before is parsed as usual. Counting is one linear pass over the tags.
 */

const MAX_OPEN_ELEMENTS = 400;

/** Elements that never hold content, or whose end tag the parser supplies (the next `<li>` ends an `<li>`). */
const NOT_NESTING = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "param",
  "keygen",
  "html",
  "head",
  "body",
  "p",
  "li",
  "dt",
  "dd",
  "tr",
  "td",
  "th",
  "thead",
  "tbody",
  "tfoot",
  "option",
  "optgroup",
  "colgroup",
  "rb",
  "rt",
  "rp",
]);
/** Elements whose content is text up to their end tag, tags inside it included. */
const RAW_TEXT = ["script", "style", "textarea", "title", "noscript", "template"];
const RAW_TEXT_END = new Map(RAW_TEXT.map((name) => [name, new RegExp(`</${name}`, "gi")]));
const TAG = /<!--|<(\/?)([a-zA-Z][a-zA-Z0-9:-]{0,40})\b[^<>]{0,4000}?(\/?)>/g;

/** The HTML, cut before the tag that would open more than MAX_OPEN_ELEMENTS elements at once. */
export function withinNestingLimit(html: string, maxOpen = MAX_OPEN_ELEMENTS): string {
  const open: string[] = [];
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    if (match[0] === "<!--") {
      const end = html.indexOf("-->", TAG.lastIndex);
      if (end === -1) return html;
      TAG.lastIndex = end + 3;
      continue;
    }
    const [, closing, rawName, selfClosing] = match;
    const name = rawName!.toLowerCase();
    if (closing === "/") {
      const at = open.lastIndexOf(name);
      if (at !== -1) open.length = at;
      continue;
    }
    const rawTextEnd = RAW_TEXT_END.get(name);
    if (rawTextEnd !== undefined) {
      rawTextEnd.lastIndex = TAG.lastIndex;
      const end = rawTextEnd.exec(html);
      if (end === null) return html;
      TAG.lastIndex = end.index;
      continue;
    }
    if (selfClosing === "/" || NOT_NESTING.has(name)) continue;
    open.push(name);
    if (open.length > maxOpen) return html.slice(0, match.index);
  }
  return html;
}
