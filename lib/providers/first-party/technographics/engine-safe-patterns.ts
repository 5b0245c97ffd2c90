/*
 * wappalyzer-core escapes every "/" of a pattern before compiling it, so a dataset pattern that already escaped its
 * slashes ("connect\.facebook\.net\/…", about a hundred of them) turns into one that wants a backslash before each
 * slash, and never matches. In a RegExp built from a string "\/" and "/" mean the same, so the escapes are taken out
 * before the engine sees the patterns.
 */

/** Dataset fields that hold patterns (strings, lists of them, or objects of them), as opposed to names and metadata. */
const PATTERN_FIELDS = [
  "certIssuer",
  "cookies",
  "css",
  "dns",
  "dom",
  "headers",
  "html",
  "js",
  "meta",
  "robots",
  "scriptSrc",
  "scripts",
  "text",
  "url",
  "xhr",
] as const;

/** A "\/" that is an escaped slash, not an escaped backslash followed by a slash. */
const ESCAPED_SLASH = /(?<!\\)((?:\\\\)*)\\\//g;

type DatasetEntry = Record<string, unknown>;

/** The dataset with escaped slashes taken out of its patterns; object keys (header names, selectors) are left alone. */
export function withEngineSafePatterns(dataset: Record<string, DatasetEntry>): Record<string, DatasetEntry> {
  return Object.fromEntries(
    Object.entries(dataset).map(([name, entry]) => [
      name,
      {
        ...entry,
        ...Object.fromEntries(
          PATTERN_FIELDS.filter((field) => entry[field] !== undefined).map((field) => [
            field,
            unescapeSlashes(entry[field]),
          ]),
        ),
      },
    ]),
  );
}

function unescapeSlashes(patterns: unknown): unknown {
  if (typeof patterns === "string") return patterns.replace(ESCAPED_SLASH, "$1/");
  if (Array.isArray(patterns)) return patterns.map(unescapeSlashes);
  if (patterns !== null && typeof patterns === "object") {
    return Object.fromEntries(Object.entries(patterns).map(([key, value]) => [key, unescapeSlashes(value)]));
  }
  return patterns;
}
