import { ApiError } from "@/lib/errors";

const LOCATION_NAMES = {
  path: "path parameters",
  query: "query parameters",
  header: "headers",
  body: "request body",
} as const;

/** Text that PostgreSQL's text and jsonb columns store unchanged: no NUL character, no unpaired UTF-16 surrogate. */
function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes("\u0000");
}

/**
 * The dotted path of the first string (or object key) in `value` that could not be stored as sent: PostgreSQL refuses
 * NUL in text (the query fails) and would keep a lone surrogate only as U+FFFD (the text changes). Null when all fit.
 * Iterative, so deeply nested input cannot exhaust the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  // Each entry links to its parent, so the path is only built for the offending string.
  type Entry = { value: unknown; key: string | number | null; parent: Entry | null };
  const pathOf = (entry: Entry | null, last?: string): string => {
    const keys: (string | number)[] = last === undefined ? [] : [last];
    for (let at = entry; at && at.key !== null; at = at.parent) keys.push(at.key);
    return keys.reverse().join(".");
  };
  const stack: Entry[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === "string") {
      if (!isStorableText(current)) return pathOf(entry);
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1)
        stack.push({ value: current[index], key: index, parent: entry });
      continue;
    }
    for (const [key, item] of Object.entries(current).reverse()) {
      if (!isStorableText(key)) return pathOf(entry, key.toWellFormed().replaceAll("\u0000", "\\u0000"));
      stack.push({ value: item, key, parent: entry });
    }
  }
  return null;
}

/**
 * Refuses parsed input holding text the database cannot keep as sent (400 `validation_error` naming the field):
 * every accepted string is stored and answered back exactly, and none can make a query fail.
 */
export function assertStorableText(value: unknown, location: keyof typeof LOCATION_NAMES): void {
  const path = findUnstorableText(value);
  if (path === null) return;
  throw new ApiError("validation_error", `Invalid ${LOCATION_NAMES[location]}: ${path || LOCATION_NAMES[location]}.`, {
    details: [{ path, message: "Must not contain NUL characters or unpaired UTF-16 surrogates." }],
    location,
  });
}
