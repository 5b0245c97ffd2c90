import type { HTMLElement, Node } from "node-html-parser";

/*
 * The text of a page as a reader sees it, cut where a reader sees a break. Text from two table cells, two paragraphs
 * or a word and the link after it ("e-mail to<a>list-request@…</a>") never runs together; text split across purely
 * inline wrappers ("jane<span>@</span>acme.example") does, because it renders as one word. Where such a wrapper opens
 * or closes is kept as a seam, so a reader of the run can still tell "to" + "jane@…" from one split address.
 */

/** One stretch of text with no visible break in it; whitespace collapsed to single spaces, trimmed. */
export interface TextRun {
  text: string;
  /** Offsets in `text`, strictly inside it, where an inline wrapper opens or closes. */
  seams: number[];
  /** The block (paragraph, cell, list item, …) the run is in; runs split by `<br>`, `<a>` or `<button>` share it. */
  block: number;
}

/** Elements whose text no visitor reads. */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "svg", "iframe", "head"]);
/** Wrappers that change how text looks, not where it breaks. Anything not listed here breaks the text. */
const INLINE = new Set([
  "span",
  "b",
  "strong",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "font",
  "small",
  "big",
  "sub",
  "sup",
  "mark",
  "abbr",
  "acronym",
  "cite",
  "code",
  "kbd",
  "samp",
  "var",
  "tt",
  "del",
  "ins",
  "q",
  "dfn",
  "bdi",
  "bdo",
  "time",
  "data",
  "label",
  "nobr",
  "wbr",
]);
/** Inline elements that still start a new run: a link or button is its own thing to a reader, not part of a word. */
const RUN_BREAKS = new Set(["a", "button", "br"]);
/** Characters that render as nothing: obfuscators put them inside addresses. */
const INVISIBLE_CHARACTERS = /[\u00ad\u200b-\u200d\u2060\ufeff]/g;
const HIDDEN_BY_STYLE = /(?:^|;)\s*display\s*:\s*none\b/i;

export function textRuns(root: HTMLElement): TextRun[] {
  const runs = new RunCollector();
  runs.walk(root);
  runs.endBlock();
  return runs.done;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

class RunCollector {
  readonly done: TextRun[] = [];
  // The current run as pieces joined at its end: testing the end of a string built by `+=` flattens it each time.
  private pieces: string[] = [];
  private length = 0;
  private endsWithSpace = false;
  private seams: number[] = [];
  private block = 0;

  walk(parent: Node): void {
    for (const child of parent.childNodes) {
      if (child.nodeType === TEXT_NODE) this.append(child.text);
      else if (child.nodeType === ELEMENT_NODE) this.enter(child as HTMLElement);
    }
  }

  endBlock(): void {
    this.endRun();
    this.block += 1;
  }

  private enter(element: HTMLElement): void {
    const tag = element.tagName.toLowerCase();
    if (INVISIBLE.has(tag) || isHidden(element)) return;
    if (INLINE.has(tag)) {
      this.seam();
      this.walk(element);
      this.seam();
    } else if (RUN_BREAKS.has(tag)) {
      this.endRun();
      this.walk(element);
      this.endRun();
    } else {
      this.endBlock();
      this.walk(element);
      this.endBlock();
    }
  }

  private append(raw: string): void {
    let text = raw.replace(INVISIBLE_CHARACTERS, "").replace(/\s+/g, " ");
    if (this.length === 0 || this.endsWithSpace) text = text.trimStart();
    if (text === "") return;
    this.pieces.push(text);
    this.length += text.length;
    this.endsWithSpace = text.endsWith(" ");
  }

  private seam(): void {
    if (this.length > 0 && this.seams.at(-1) !== this.length) this.seams.push(this.length);
  }

  private endRun(): void {
    const text = this.pieces.join("").trimEnd();
    if (text !== "")
      this.done.push({ text, seams: this.seams.filter((seam) => seam < text.length), block: this.block });
    this.pieces = [];
    this.length = 0;
    this.endsWithSpace = false;
    this.seams = [];
  }
}

/** Hidden the ways decoy text is hidden (`hidden`, inline `display:none`); stylesheets are not evaluated. */
function isHidden(element: HTMLElement): boolean {
  return element.hasAttribute("hidden") || HIDDEN_BY_STYLE.test(element.getAttribute("style") ?? "");
}
