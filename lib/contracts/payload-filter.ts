/**
 * The `payload` filter of a delivery listing: a JSON object the delivery's JSON body must contain (PostgreSQL's jsonb
 * `@>`). Checked here so that every text the database is given casts to jsonb: JSON that JavaScript accepts and jsonb
 * refuses (a `\u0000` escape, a lone surrogate, an exponent past numeric's range) is a 400, not a failed query.
 */

/** Longest `payload` filter text accepted. */
export const MAX_PAYLOAD_FILTER_CHARS = 2_048;

/** Longest exponent jsonb's numeric takes with room to spare (its range is about 1e±131072; 4 digits stay well in). */
const HUGE_EXPONENT = /[\d.][eE][+-]?0*\d{5,}/;

/** What is wrong with a `payload` filter text, or null when it is a JSON object jsonb accepts. */
export function payloadFilterProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'must be JSON text (URL-encoded), e.g. `{"type":"invoice.paid"}`';
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "must be a JSON object";
  if (HUGE_EXPONENT.test(text)) return "has a number out of range";
  return jsonbProblem(value);
}

function jsonbProblem(value: unknown): string | null {
  if (typeof value === "string") return textProblem(value);
  if (typeof value === "number") return Number.isFinite(value) ? null : "has a number out of range";
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const problem = (Array.isArray(value) ? null : textProblem(key)) ?? jsonbProblem(item);
    if (problem) return problem;
  }
  return null;
}

function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain `\\u0000` (no stored JSON body can hold it)";
  if (!text.isWellFormed()) return "must not contain a lone UTF-16 surrogate escape";
  return null;
}

/**
 * The filter in one spelling whatever the key order and whitespace: object keys sorted, last of duplicate keys kept
 * (as jsonb does). What a cursor binds. Numbers are compared as JavaScript reads them, so two filters differing only in
 * digits past a double's precision share a spelling; the cursor is a position, and each page filters by its own text.
 */
export function canonicalPayloadFilter(text: string): string {
  return JSON.stringify(sortedKeys(JSON.parse(text)));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
