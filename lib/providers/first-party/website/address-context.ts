import { type HTMLElement } from "node-html-parser";
import { cloakedAddresses } from "@/lib/providers/first-party/website/email-cloaks";
import { findMentions, type Mention, mentionPattern } from "@/lib/providers/first-party/website/address-mentions";
import { asPosition, type Clue, NO_CLUE, readBeside } from "@/lib/providers/first-party/website/beside-text";
import { cleanText, parseHtml } from "@/lib/providers/first-party/website/html";
import { type PersonName, splitName } from "@/lib/providers/first-party/website/person-names";
import { definitionTermClue, personCardClue, tableRowClue } from "@/lib/providers/first-party/website/structured-clues";

/*
 * What a page prints beside each of its addresses, as a reader would attach it: the person (and their position) that
 * markup states (hCard, table row, definition list), the name a mailto link shows, the text on the address's line,
 * the lines just above it in its block ("Jane Doe<br>Treasurer<br>jane@…"), and the heading above the block — a
 * person's name when the heading governs this address alone, else the department or function it is printed under.
 */

export interface AddressContext {
  name: PersonName | null;
  position: string | null;
  /** The heading the address is printed under when it names no person ("Events", "Accounts Payable"). */
  heading: string | null;
}

const INVISIBLE = "script, style, noscript, template, svg, head";
const BLOCK =
  "p, li, td, th, dd, dt, address, blockquote, figure, figcaption, h1, h2, h3, h4, h5, h6, div, section, article, aside, header, footer, main, body";
const HEADING = /^H[1-6]$/;
const LINES_ABOVE = 3;
const STEPS_TO_HEADING = 40;
const MAX_HEADINGS = 3;
/** Longer lines are prose, not a name or a title. */
const MAX_LINE_ABOVE_LENGTH = 80;

/** The contexts of each of `addresses` on the page, one per place it is printed. */
export function addressContexts(
  html: string,
  addresses: readonly string[],
  pageUrl: string,
): Map<string, AddressContext[]> {
  const root = parseHtml(html);
  // Read before scripts go: a cloaking script names the element that shows its address.
  const cloaked = cloakedAddresses(root);
  for (const element of root.querySelectorAll(INVISIBLE)) element.remove();
  const patterns = new Map(addresses.map((address) => [address, mentionPattern(address)]));
  const contexts = new Map<string, AddressContext[]>();
  for (const [address, mentions] of findMentions(root, addresses, pageUrl, cloaked)) {
    const others = [...patterns].flatMap(([other, pattern]) => (other === address ? [] : [pattern]));
    contexts.set(
      address,
      mentions.map((mention) => contextOf(mention, patterns.get(address)!, others)),
    );
  }
  return contexts;
}

function contextOf(mention: Mention, self: RegExp, others: readonly RegExp[]): AddressContext {
  const { element } = mention;
  const linkText = mention.isLink ? cleanText(element.text) : null;
  const linkName = splitName(linkText);
  const block = element.closest(BLOCK) ?? element;
  const lines = (block.structuredText ?? "").split("\n").map((line) => cleanText(line) ?? "");
  // The line of the mention: the one spelling the address, else the one with the link's text.
  let at = lines.findIndex((line) => self.test(line));
  if (at < 0 && linkText !== null) at = lines.findIndex((line) => line.includes(linkText));
  const onLine = at < 0 ? NO_CLUE : lineClue(lines[at]!, self, linkText, others);
  const above = at < 0 ? NO_CLUE : linesAboveClue(lines.slice(Math.max(0, at - LINES_ABOVE), at), others);
  const headed = headingsAbove(block, others);
  // A profile page: the person's name heads it, maybe above a heading with their title ("Managing Partner").
  const nameAt = headed.headings.findIndex((heading) => !heading.passesOthers && splitName(heading.text) !== null);
  const headingName = nameAt < 0 ? null : splitName(headed.headings[nameAt]!.text);
  const headingPosition =
    headed.headings
      .slice(0, Math.max(0, nameAt))
      .map((heading) => asPosition(heading.text, true))
      .find((found) => found !== null) ?? headed.position;

  const clues: Clue[] = [
    personCardClue(element),
    tableRowClue(element),
    definitionTermClue(element),
    { name: linkName, position: null },
    onLine,
    above,
    previousBlockClue(block, others),
    { name: headingName, position: headingName === null ? null : headingPosition },
  ];
  const named = clues.find((clue) => clue.name !== null);
  const nearest = headed.headings[0];
  // "<h2>Branch Manager</h2><p>Karen Voss</p><p>karen_voss@…</p>": an office heading is its person's position.
  const officeHeading =
    named !== undefined && nearest !== undefined && !nearest.passesOthers ? asPosition(nearest.text, false) : null;
  return {
    name: named?.name ?? null,
    position: named?.position ?? clues.find((clue) => clue.position !== null)?.position ?? officeHeading,
    // A department or function heading; a person's heading, or a block under one, is none.
    heading: nameAt >= 0 || nearest === undefined || splitName(nearest.text) !== null ? null : nearest.text,
  };
}

/** The text before the address on its line (after any other address), else the text after it. */
function lineClue(line: string, self: RegExp, linkText: string | null, others: readonly RegExp[]): Clue {
  const match = self.exec(line);
  const start = match?.index ?? (linkText === null ? -1 : line.indexOf(linkText));
  if (start < 0) return NO_CLUE;
  const end = start + (match?.[0].length ?? linkText!.length);
  let before = line.slice(0, start);
  for (const other of others) {
    const found = [...before.matchAll(new RegExp(other.source, "giu"))].at(-1);
    if (found?.index !== undefined) before = before.slice(found.index + found[0].length);
  }
  let after = line.slice(end);
  for (const other of others) {
    const found = other.exec(after);
    if (found !== null) after = after.slice(0, found.index);
  }
  const clue = readBeside(before, true);
  return clue.name !== null ? clue : merge(clue, readBeside(after, false));
}

/**
 * Short lines just above the address in its block, back to the nearest line with another address: a line that is a
 * whole name ("Callum Reid MRICS") wins over names read from runs ("Kassenwart: Jane Doe"); a whole line that is a
 * title ("Associate, Residential Valuation") over titles read from runs.
 */
function linesAboveClue(lines: readonly string[], others: readonly RegExp[]): Clue {
  const kept: string[] = [];
  for (const line of [...lines].reverse()) {
    if (line === "" || others.some((other) => other.test(line))) break;
    kept.push(line);
  }
  const wholeName = kept.map(splitName).find((found) => found !== null) ?? null;
  const wholeTitle = kept.map((line) => asPosition(line, false)).find((found) => found !== null) ?? null;
  const runs = kept.map((line) => readBeside(line, true)).reduce(merge, NO_CLUE);
  return { name: wholeName ?? runs.name, position: wholeTitle ?? runs.position };
}

/** The block just before the address's block, when it is a short one without addresses ("<p>Jane Doe<br>CFO</p>"). */
function previousBlockClue(block: HTMLElement, others: readonly RegExp[]): Clue {
  const previous = block.previousElementSibling ?? null;
  if (previous === null || HEADING.test(previous.tagName)) return NO_CLUE;
  const lines = (previous.structuredText ?? "").split("\n").map((line) => cleanText(line) ?? "");
  const long = (line: string) => line.length > MAX_LINE_ABOVE_LENGTH;
  if (lines.length > LINES_ABOVE || lines.some((line) => long(line) || others.some((other) => other.test(line))))
    return NO_CLUE;
  return linesAboveClue(lines, others);
}

interface HeadingAbove {
  text: string;
  /** Another address is printed between this heading and the address. */
  passesOthers: boolean;
}

/**
 * The headings before the block, nearest first (a few), and the positions printed in short blocks on the way
 * ("<h1>Joel Nakamura</h1><p><em>Physician Assistant</em></p><p>… email jnakamura@…</p>").
 */
function headingsAbove(
  block: HTMLElement,
  others: readonly RegExp[],
): { headings: HeadingAbove[]; position: string | null } {
  const headings: HeadingAbove[] = [];
  let position: string | null = null;
  let passesOthers = false;
  let node: HTMLElement | null = block;
  for (let step = 0; node !== null && step < STEPS_TO_HEADING && headings.length < MAX_HEADINGS; step++) {
    const previous: HTMLElement | null = node.previousElementSibling ?? null;
    if (previous === null) {
      node = node.parentNode ?? null;
      continue;
    }
    const isHeading = HEADING.test(previous.tagName);
    const text = previous.structuredText;
    if (!isHeading && others.some((other) => other.test(text))) passesOthers = true;
    const inner = isHeading ? [previous] : previous.querySelectorAll("h1, h2, h3, h4, h5, h6");
    for (const heading of inner.reverse()) {
      const headingText = cleanText(heading.text);
      if (headingText !== null) headings.push({ text: headingText, passesOthers });
    }
    const lines = text.split("\n").filter((line) => cleanText(line) !== null);
    if (!isHeading && inner.length === 0 && !passesOthers && lines.length === 1)
      position ??= asPosition(lines[0], false);
    node = previous;
  }
  return { headings, position };
}

function merge(first: Clue, second: Clue): Clue {
  return { name: first.name ?? second.name, position: first.position ?? second.position };
}
