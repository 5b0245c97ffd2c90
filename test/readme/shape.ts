/*
 * The README shows answers in a shorthand of JSON, and this module reads it as a SHAPE to hold real answers against:
 *
 *   {"id":"we_…","enabled":true,"signing":null,…}   values stand for their type (string, number, boolean, null);
 *                                                    a trailing `…` member allows keys that are not shown
 *   {"id","webhookEndpointId"}                       a key without a value: present, any value
 *   "…"  or  …                                       anything
 *   [{"value","type"}]  [1, …]  […]                  every element has one of the shapes shown; `[…]` any array
 *   "jane@acme.example"|null                         one of several shapes
 *
 * An object without a `…` member is exhaustive: a key the answer has and the README does not show is a drift.
 * A string shown as a placeholder (`"we_…"`, `"<deliveryId>"`) also names the real value, so later commands can use it.
 */

export type Shape =
  | { kind: "any" }
  | { kind: "string"; text: string }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "null" }
  | { kind: "object"; members: Map<string, Shape>; open: boolean }
  | { kind: "array"; items: Shape[] }
  | { kind: "oneOf"; options: Shape[] };

const ELLIPSIS = "…";
const ANY: Shape = { kind: "any" };

type Token = { type: "punct"; value: string } | { type: "string"; value: string } | { type: "word"; value: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s+|([{}[\],:|])|("(?:[^"\\]|\\.)*")|(…|-?\d+(?:\.\d+)?|true|false|null)/gy;
  for (let index = 0; index < text.length; index = pattern.lastIndex) {
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (!match) throw new Error(`Cannot read the shown answer at "${text.slice(index, index + 20)}"`);
    if (match[1]) tokens.push({ type: "punct", value: match[1] });
    else if (match[2]) tokens.push({ type: "string", value: JSON.parse(match[2]) as string });
    else if (match[3]) tokens.push({ type: "word", value: match[3] });
  }
  return tokens;
}

/** Parses the README's shorthand (see above) into a shape; throws on text it cannot read. */
export function parseShape(text: string): Shape {
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const take = (punct?: string): Token => {
    const token = tokens[position++];
    if (!token || (punct !== undefined && (token.type !== "punct" || token.value !== punct)))
      throw new Error(`Expected ${punct ?? "a value"} in the shown answer "${text}"`);
    return token;
  };
  const isPunct = (value: string) => peek()?.type === "punct" && peek()?.value === value;

  function value(): Shape {
    const options = [single()];
    while (isPunct("|")) {
      take("|");
      options.push(single());
    }
    return options.length === 1 ? options[0]! : { kind: "oneOf", options };
  }

  function single(): Shape {
    const token = take();
    if (token.type === "string") return { kind: "string", text: token.value };
    if (token.type === "word") {
      if (token.value === ELLIPSIS) return ANY;
      if (token.value === "null") return { kind: "null" };
      if (token.value === "true" || token.value === "false") return { kind: "boolean" };
      return { kind: "number" };
    }
    if (token.value === "{") return object();
    if (token.value === "[") return array();
    throw new Error(`Unexpected "${token.value}" in the shown answer "${text}"`);
  }

  function object(): Shape {
    const members = new Map<string, Shape>();
    let open = false;
    while (!isPunct("}")) {
      const key = take();
      if (key.type === "word" && key.value === ELLIPSIS) open = true;
      else if (key.type === "string") {
        if (isPunct(":")) {
          take(":");
          members.set(key.value, value());
        } else members.set(key.value, ANY);
      } else throw new Error(`Expected a key in the shown answer "${text}"`);
      if (!isPunct("}")) take(",");
    }
    take("}");
    return { kind: "object", members, open };
  }

  function array(): Shape {
    const items: Shape[] = [];
    while (!isPunct("]")) {
      const item = value();
      if (item.kind !== "any") items.push(item);
      if (!isPunct("]")) take(",");
    }
    take("]");
    return { kind: "array", items };
  }

  const shape = value();
  if (position !== tokens.length) throw new Error(`Unexpected text after the shown answer "${text}"`);
  return shape;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Every way `value` differs from `shape`, one sentence each, naming the path; empty when it fits. */
export function shapeMismatches(shape: Shape, value: unknown, path = "answer"): string[] {
  switch (shape.kind) {
    case "any":
      return [];
    case "string":
    case "number":
    case "boolean":
    case "null": {
      const expected = shape.kind;
      return typeOf(value) === expected
        ? []
        : [`${path}: the README shows ${expected}, the answer has ${typeOf(value)}`];
    }
    case "oneOf": {
      const each = shape.options.map((option) => shapeMismatches(option, value, path));
      return each.some((mismatches) => mismatches.length === 0) ? [] : each.flat();
    }
    case "array": {
      if (!Array.isArray(value)) return [`${path}: the README shows an array, the answer has ${typeOf(value)}`];
      if (shape.items.length === 0) return [];
      const itemShape: Shape = shape.items.length === 1 ? shape.items[0]! : { kind: "oneOf", options: shape.items };
      return value.flatMap((item, index) => shapeMismatches(itemShape, item, `${path}[${index}]`));
    }
    case "object": {
      if (typeOf(value) !== "object") return [`${path}: the README shows an object, the answer has ${typeOf(value)}`];
      const record = value as Record<string, unknown>;
      const mismatches: string[] = [];
      for (const [key, member] of shape.members) {
        if (!(key in record)) mismatches.push(`${path}.${key}: shown in the README, missing from the answer`);
        else mismatches.push(...shapeMismatches(member, record[key], `${path}.${key}`));
      }
      if (!shape.open) {
        const unshown = Object.keys(record).filter((key) => !shape.members.has(key));
        if (unshown.length)
          mismatches.push(`${path}: the answer has keys the README does not show (add them or "…"): ${unshown}`);
      }
      return mismatches;
    }
  }
}

/** A string that stands for a real value: a prefix and an ellipsis (`we_…`) or a name in angle brackets. */
export function isPlaceholder(text: string): boolean {
  return /^[a-z]+_…$/.test(text) || /^<\w+>$/.test(text);
}

/** The real values behind the placeholders a shape shows, e.g. `we_…` → the endpoint id the answer holds. */
export function placeholderValues(
  shape: Shape,
  value: unknown,
  found = new Map<string, string>(),
): Map<string, string> {
  if (shape.kind === "string" && isPlaceholder(shape.text) && typeof value === "string") found.set(shape.text, value);
  else if (shape.kind === "object" && typeOf(value) === "object") {
    for (const [key, member] of shape.members)
      placeholderValues(member, (value as Record<string, unknown>)[key], found);
  } else if (shape.kind === "oneOf") for (const option of shape.options) placeholderValues(option, value, found);
  else if (shape.kind === "array" && Array.isArray(value) && shape.items.length === 1)
    for (const item of value) placeholderValues(shape.items[0]!, item, found);
  return found;
}
