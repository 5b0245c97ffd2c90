import type { HTMLElement } from "node-html-parser";

/*
 * schema.org JSON-LD as sites publish it: one or several `<script type="application/ld+json">` blocks, each an object,
 * an array or a `{ "@graph": [...] }`, nested objects (an Organization's `founder` is a Person) and the odd block that
 * is not quite JSON. We read objects only; `@id` references are not resolved.
 */

export type JsonLdNode = Record<string, unknown>;

function isNode(value: unknown): value is JsonLdNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Parses, forgiving the two mistakes hand-written blocks make most: HTML comment/CDATA wrappers and trailing commas. */
function parseBlock(text: string): unknown {
  const unwrapped = text
    .trim()
    .replace(/^(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, "")
    .replace(/(?:-->|\/\/\s*\]\]>|\]\]>)$/, "")
    .trim();
  try {
    return JSON.parse(unwrapped);
  } catch {
    try {
      return JSON.parse(unwrapped.replace(/,\s*([}\]])/g, "$1"));
    } catch {
      return undefined;
    }
  }
}

/** The top-level nodes of every JSON-LD block, arrays and `@graph`s flattened. */
export function jsonLdNodes(root: HTMLElement): JsonLdNode[] {
  const nodes: JsonLdNode[] = [];
  const add = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(add);
    if (!isNode(value)) return;
    if (Array.isArray(value["@graph"])) value["@graph"].forEach(add);
    if (value["@type"] !== undefined) nodes.push(value);
  };
  for (const script of root.querySelectorAll("script")) {
    const type = (script.getAttribute("type") ?? "").split(";")[0]!.trim().toLowerCase();
    // Script content is raw text in HTML: entities are not decoded there, so rawText is what the JSON parser needs.
    if (type === "application/ld+json") add(parseBlock(script.rawText));
  }
  return nodes;
}

/** Every node, the given ones and all nested in them, depth first (each object once). */
export function allJsonLdNodes(nodes: readonly JsonLdNode[]): JsonLdNode[] {
  const seen = new Set<JsonLdNode>();
  const found: JsonLdNode[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 12) return;
    if (Array.isArray(value)) return value.forEach((item) => visit(item, depth + 1));
    if (!isNode(value) || seen.has(value)) return;
    seen.add(value);
    if (value["@type"] !== undefined) found.push(value);
    for (const child of Object.values(value)) visit(child, depth + 1);
  };
  nodes.forEach((node) => visit(node, 0));
  return found;
}

/** The node's types without a vocabulary prefix ("schema:Person", "https://schema.org/Person" → "Person"). */
export function typesOf(node: JsonLdNode): string[] {
  const raw = node["@type"];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((type): type is string => typeof type === "string")
    .map((type) => type.replace(/^(?:https?:\/\/schema\.org\/|schema:)/, ""));
}

/** A text property: a string, the first string of an array, or a `{ "@value" | "name" | "url" }` object's text. */
export function textProperty(node: JsonLdNode, key: string): string | null {
  return textOf(node[key]);
}

function textOf(value: unknown): string | null {
  if (typeof value === "string") {
    const trimmed = value.replace(/\s+/g, " ").trim();
    return trimmed === "" ? null : trimmed;
  }
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = textOf(item);
      if (text !== null) return text;
    }
    return null;
  }
  if (isNode(value)) return textOf(value["@value"]) ?? textOf(value.name) ?? textOf(value.url);
  return null;
}

/** Every string of a property that may be one string or a list (`sameAs`, `email`, `keywords`). */
export function textList(node: JsonLdNode, key: string): string[] {
  const value = node[key];
  const list = Array.isArray(value) ? value : [value];
  return list.flatMap((item) => {
    const text = textOf(item);
    return text === null ? [] : [text];
  });
}

/** A nested node property (the first, if it is a list). */
export function nodeProperty(node: JsonLdNode, key: string): JsonLdNode | null {
  const value = node[key];
  const first = Array.isArray(value) ? value.find(isNode) : value;
  return isNode(first) ? first : null;
}
