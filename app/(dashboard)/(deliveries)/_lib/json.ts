/** Helpers of the payload viewer's collapsible JSON tree. */

export type JsonKind = "object" | "array" | "string" | "number" | "boolean" | "null" | "other";

export function jsonKind(value: unknown): JsonKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "object":
      return "object";
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "other";
  }
}

/** A branch's children as [label, value]; arrays are labelled by index. At most `limit`, plus how many were left out. */
export function jsonChildren(value: unknown, limit: number): { entries: [string, unknown][]; hidden: number } {
  const all: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : value !== null && typeof value === "object"
      ? Object.entries(value)
      : [];
  return { entries: all.slice(0, limit), hidden: Math.max(0, all.length - limit) };
}

/** What a collapsed branch says about itself: "3 keys", "1 item". */
export function jsonSummary(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? "item" : "items"}`;
  if (value !== null && typeof value === "object") {
    const count = Object.keys(value).length;
    return `${count} ${count === 1 ? "key" : "keys"}`;
  }
  return "";
}

/** A leaf as JSON text (strings quoted and escaped). */
export function jsonLeaf(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}
