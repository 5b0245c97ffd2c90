/**
 * Reads single members out of JSON text without parsing the rest: a scan that steps over every other value by its
 * brackets and string quotes (the scan within strings is `indexOf`), allocating nothing for what it skips. Parsing the
 * benchmark's 100 KB body whole takes 0.35 ms and builds every object in it, which ingest cannot afford per request
 * just to read a top-level `type`; the scan takes 0.16 ms with `type` last, 2 µs with it first. The members read are checked (keys and strings by JSON.parse, scalars by their grammar), the
 * values stepped over only for balanced brackets and closed strings, and nothing after the last member read: a
 * malformed body gets no answer where the scan meets the fault, and may get one when the fault lies beyond it.
 * Never throws, never recurses (10 MB of `[` is a counter, not a stack).
 */

/** A JSON value's bytes, `start` inclusive, `end` exclusive. */
export interface JsonSpan {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SCALAR = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isDelimiter(byte: number | undefined): boolean {
  return isSpace(byte) || byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET;
}

function skipSpace(text: Buffer, at: number, end: number): number {
  while (at < end && isSpace(text[at])) at += 1;
  return at;
}

/** The index after the string starting at `at` (a quote), or -1 when it is not closed before `end`. */
function skipString(text: Buffer, at: number, end: number): number {
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote < 0 || quote >= end) return -1;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the object or array starting at `at`, or -1 when its brackets do not close before `end`. */
function skipContainer(text: Buffer, at: number, end: number): number {
  let depth = 0;
  for (let index = at; index < end; index += 1) {
    const byte = text[index];
    if (byte === QUOTE) {
      const after = skipString(text, index, end);
      if (after < 0) return -1;
      index = after - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** The index after the value starting at `at`, or -1 when there is no well-bracketed value there. */
function skipValue(text: Buffer, at: number, end: number): number {
  const byte = text[at];
  if (byte === QUOTE) return skipString(text, at, end);
  if (byte === OPEN_BRACE || byte === OPEN_BRACKET) return skipContainer(text, at, end);
  let after = at;
  // Not capped: JSON numbers have no length limit (`1` and 500 zeros is valid), and the run is bounded by the text.
  while (after < end && !isDelimiter(text[after])) after += 1;
  return after > at && SCALAR.test(text.toString("latin1", at, after)) ? after : -1;
}

/** The whole text as one value, surrounding whitespace left out; null when it is not one well-bracketed value. */
export function jsonRoot(text: Buffer): JsonSpan | null {
  const bom = text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf ? 3 : 0; // a UTF-8 byte order mark
  const start = skipSpace(text, bom, text.length);
  let end = text.length;
  while (end > start && isSpace(text[end - 1])) end -= 1;
  return start < end ? { start, end } : null;
}

/** A string value as text; null when the span is not a valid JSON string. */
export function jsonString(text: Buffer, span: JsonSpan): string | null {
  if (text[span.start] !== QUOTE) return null;
  const inner = text.toString("utf8", span.start + 1, span.end - 1);
  if (!inner.includes("\\") && !/[\u0000-\u001f]/.test(inner)) return inner;
  try {
    return JSON.parse(text.toString("utf8", span.start, span.end)) as string;
  } catch {
    return null;
  }
}

/**
 * The values of an object's members named in `keys`, by position in `keys` (the first of repeated names); undefined
 * for a name not present. The scan stops once every name is found, or once the first name is found with a string
 * value (it is the one that matters most: later members are then reported only if they came before it). Null when
 * the span is not an object, or a fault is met before the scan stops.
 */
export function jsonMembers(text: Buffer, span: JsonSpan, keys: readonly string[]): (JsonSpan | undefined)[] | null {
  if (text[span.start] !== OPEN_BRACE) return null;
  const found: (JsonSpan | undefined)[] = keys.map(() => undefined);
  let missing = keys.length;
  let at = skipSpace(text, span.start + 1, span.end);
  if (text[at] === CLOSE_BRACE) return found;
  while (at < span.end) {
    const keyEnd = text[at] === QUOTE ? skipString(text, at, span.end) : -1;
    if (keyEnd < 0) return null;
    const key = jsonString(text, { start: at, end: keyEnd });
    at = skipSpace(text, keyEnd, span.end);
    if (key === null || text[at] !== COLON) return null;
    const valueStart = skipSpace(text, at + 1, span.end);
    const valueEnd = skipValue(text, valueStart, span.end);
    if (valueEnd < 0) return null;
    const slot = keys.indexOf(key);
    if (slot >= 0 && found[slot] === undefined) {
      found[slot] = { start: valueStart, end: valueEnd };
      missing -= 1;
      if (missing === 0 || (slot === 0 && text[valueStart] === QUOTE)) return found; // the rest is not read
    }
    at = skipSpace(text, valueEnd, span.end);
    if (text[at] === CLOSE_BRACE) return found;
    if (text[at] !== COMMA) return null;
    at = skipSpace(text, at + 1, span.end);
  }
  return null;
}

/** The element at `index` of an array; null when the span is not an array, is shorter, or a fault comes first. */
export function jsonElement(text: Buffer, span: JsonSpan, index: number): JsonSpan | null {
  if (text[span.start] !== OPEN_BRACKET) return null;
  let at = skipSpace(text, span.start + 1, span.end);
  for (let position = 0; at < span.end && text[at] !== CLOSE_BRACKET; position += 1) {
    const valueEnd = skipValue(text, at, span.end);
    if (valueEnd < 0) return null;
    if (position === index) return { start: at, end: valueEnd };
    at = skipSpace(text, valueEnd, span.end);
    if (text[at] !== COMMA) return null;
    at = skipSpace(text, at + 1, span.end);
  }
  return null;
}
