/*
 * What a CSS selector needs of a document before it can match anything: attributes that must be present, and text
 * their values must contain. `dom` fingerprints are some 1,800 selectors; running each over a large page costs seconds,
 * while checking these needs against an index of the page's attributes costs microseconds and rules out nearly all.
 *
 * This is a filter, never a verdict: a need is only listed when the selector certainly has it, and anything this
 * reader does not follow (pseudo-classes, escapes, odd quoting) lists no need, so the selector simply runs.
 */

export interface AttributeNeed {
  /** Lower-case attribute name ("class" for `.x`, "id" for `#x`). */
  attribute: string;
  /** Lower-case text the value must contain; absent when only the attribute's presence is needed. */
  contains?: string;
}

/** Needs per selector of a comma-separated list: the list can match where any one selector's needs are all met. */
export type SelectorRequirements = AttributeNeed[][];

const ATTRIBUTE_SELECTOR =
  /\[\s*([\w:-]+)\s*(?:([~|^$*]?=)\s*(?:"([^"\\]*)"|'([^'\\]*)'|([\w.:/-]+))\s*(?:[iIsS]\s*)?)?\]/y;
const ID_OR_CLASS = /([#.])([\w-]+)/y;

/** The needs of each selector in the list; one empty need list (match everywhere) when the selector is not simple. */
export function selectorRequirements(selectorList: string): SelectorRequirements {
  // Escapes and functional pseudo-classes (:not, :has, :is…) change what the parts mean: no shortcut for those.
  if (/[\\()]/.test(selectorList)) return [[]];
  const selectors = splitSelectorList(selectorList);
  return selectors === null ? [[]] : selectors.map(needsOfSelector);
}

/** Splits at commas outside brackets and quotes; null when the quoting does not close. */
function splitSelectorList(list: string): string[] | null {
  const parts: string[] = [];
  let quote: string | null = null;
  let depth = 0;
  let start = 0;
  for (let index = 0; index < list.length; index++) {
    const char = list[index];
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "[") depth++;
    else if (char === "]") depth--;
    else if (char === "," && depth === 0) {
      parts.push(list.slice(start, index));
      start = index + 1;
    }
  }
  if (quote !== null || depth !== 0) return null;
  parts.push(list.slice(start));
  return parts;
}

function needsOfSelector(selector: string): AttributeNeed[] {
  const needs: AttributeNeed[] = [];
  let index = 0;
  while (index < selector.length) {
    ATTRIBUTE_SELECTOR.lastIndex = index;
    const attribute = ATTRIBUTE_SELECTOR.exec(selector);
    if (attribute) {
      const [, name = "", operator, doubleQuoted, singleQuoted, bare] = attribute;
      const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
      // `[a=""]` and `[a*=""]` need only the attribute (the latter matches nothing, which the selector run will say).
      needs.push(
        operator === undefined || value === ""
          ? { attribute: name.toLowerCase() }
          : { attribute: name.toLowerCase(), contains: value.toLowerCase() },
      );
      index = ATTRIBUTE_SELECTOR.lastIndex;
      continue;
    }
    ID_OR_CLASS.lastIndex = index;
    const idOrClass = ID_OR_CLASS.exec(selector);
    if (idOrClass) {
      const [, sign, value = ""] = idOrClass;
      needs.push({ attribute: sign === "#" ? "id" : "class", contains: value.toLowerCase() });
      index = ID_OR_CLASS.lastIndex;
      continue;
    }
    // An unreadable attribute selector: its need is unknown, and so is anything after it.
    if (selector[index] === "[") return needs;
    index++;
  }
  return needs;
}
