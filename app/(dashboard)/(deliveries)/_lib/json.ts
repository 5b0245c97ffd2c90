import { applyEdits, format, parseTree, type Node, type ParseError } from "jsonc-parser";
import { isJsonContentType, isRawWrapper } from "./payload-kind";

/*
 * Helpers of the payload viewer's collapsible JSON tree. The tree is built from JSON *text* with jsonc-parser's
 * `parseTree` (a syntax tree with offsets), never from `JSON.parse`'s objects: keys stay in the sender's order,
 * duplicate keys all show, and numbers and strings show as written (`12345678901234567890`, `1.10`, `"\u00e9"`).
 */

export type JsonKind = "object" | "array" | "string" | "number" | "boolean" | "null" | "other";

/** A value of the tree: its syntax node and the text the node's offsets point into. */
export interface JsonText {
  text: string;
  node: Node;
}

/** The tree of strict JSON text, or null when the text is not JSON (jsonc-parser also reads comments; we do not). */
export function parseJsonText(text: string): JsonText | null {
  try {
    JSON.parse(text); // strict JSON only: jsonc-parser forgives comments and trailing commas
  } catch {
    return null;
  }
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  return node && errors.length === 0 ? { text, node } : null;
}

export function jsonKind({ node }: JsonText): JsonKind {
  switch (node.type) {
    case "object":
    case "array":
    case "string":
    case "number":
    case "boolean":
    case "null":
      return node.type;
    default:
      return "other";
  }
}

const slice = (text: string, node: Node) => text.slice(node.offset, node.offset + node.length);

/**
 * A branch's children as [label, value]: object keys as written (quoted, escapes kept), array items labelled by
 * index. At most `limit`, plus how many were left out.
 */
export function jsonChildren(
  { text, node }: JsonText,
  limit: number,
): { entries: [string, JsonText][]; hidden: number } {
  const children = node.type === "object" || node.type === "array" ? (node.children ?? []) : [];
  const entries: [string, JsonText][] = [];
  for (const [index, child] of children.slice(0, limit).entries()) {
    if (node.type === "array") entries.push([String(index), { text, node: child }]);
    else if (child.children?.length === 2)
      entries.push([slice(text, child.children[0]!), { text, node: child.children[1]! }]);
  }
  return { entries, hidden: Math.max(0, children.length - limit) };
}

/** What a collapsed branch says about itself: "3 keys", "1 item". Duplicate keys count each time they appear. */
export function jsonSummary({ node }: JsonText): string {
  const count = node.children?.length ?? 0;
  if (node.type === "array") return `${count} ${count === 1 ? "item" : "items"}`;
  if (node.type === "object") return `${count} ${count === 1 ? "key" : "keys"}`;
  return "";
}

/** A leaf as the sender wrote it (strings quoted with their escapes, numbers with their digits). */
export function jsonLeaf({ text, node }: JsonText): string {
  return slice(text, node);
}

/** The text pretty-printed (two spaces), tokens untouched: the order, number text and duplicates stay as written. */
export function prettyJson(text: string): string {
  return applyEdits(text, format(text, undefined, { tabSize: 2, insertSpaces: true, eol: "\n" }));
}

/**
 * The payload as JSON text for the viewer. A JSON body the inbox served as JSON (anything but the `{ raw }` fallback)
 * is the sender's text, which the exact body (`/raw`) holds as sent; the API's answer, read by the typed client with
 * `JSON.parse`, would have lost order, number text and duplicates. Until that body is loaded (or for any other
 * payload) the payload is written back out as JSON.
 */
export function payloadJsonText(
  payload: unknown,
  contentType: string | null,
  rawBody: string | null | undefined,
): string {
  if (
    typeof rawBody === "string" &&
    isJsonContentType(contentType) &&
    !isRawWrapper(payload) &&
    parseJsonText(rawBody)
  ) {
    return rawBody;
  }
  return JSON.stringify(payload) ?? "null";
}
