/*
 * Instants written as ISO 8601 date-times with a zone (`Z` or `±hh:mm`, what `z.iso.datetime({ offset: true })`
 * accepts), compared exactly and turned into bounds on columns that hold milliseconds. The fraction may be finer than
 * a millisecond (Python's `isoformat()` writes microseconds); a Date keeps milliseconds only, so the digits past the
 * third are kept as text rather than rounded away.
 */

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

// PostgreSQL reads years 0001–9999 written the way `toISOString` writes them; year 0 and six-digit years it refuses.
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST = Date.parse("9999-12-31T23:59:59.999Z");

interface Instant {
  /** Whole milliseconds since the epoch, rounded down. */
  ms: number;
  /** The fraction's digits past the millisecond, trailing zeros dropped (`""` when it ends on a millisecond). */
  subMs: string;
}

function parseInstant(text: string): Instant | null {
  const match = ISO_INSTANT.exec(text);
  if (!match) return null;
  const [, wall, fraction = "", zone] = match;
  const ms = Date.parse(`${wall}.${fraction.slice(0, 3).padEnd(3, "0")}${zone}`);
  if (Number.isNaN(ms)) return null;
  const instant = { ms, subMs: fraction.slice(3).replace(/0+$/, "") };
  return ms >= EARLIEST && ceiling(instant) <= LATEST ? instant : null;
}

function ceiling(instant: Instant): number {
  return instant.subMs === "" ? instant.ms : instant.ms + 1;
}

/** Whether the text is such a date-time, within the years a timestamp column takes (0001–9999 UTC). */
export function isInstant(text: string): boolean {
  return parseInstant(text) !== null;
}

/** Negative, zero or positive as `a` is before, at or after `b`, to any precision; null when either is no instant. */
export function compareInstants(a: string, b: string): number | null {
  const first = parseInstant(a);
  const second = parseInstant(b);
  if (!first || !second) return null;
  if (first.ms !== second.ms) return first.ms - second.ms;
  const width = Math.max(first.subMs.length, second.subMs.length);
  // Digit strings of one width order as the numbers they spell.
  const [x, y] = [first.subMs.padEnd(width, "0"), second.subMs.padEnd(width, "0")];
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The first whole millisecond at or after the instant. On a column of whole milliseconds (`timestamptz(3)`) it bounds
 * exactly the rows the instant itself bounds, both ways: `t >= x` holds just when `t >= ceil(x)`, and `t < x` just
 * when `t < ceil(x)`. So `since` and `until` may carry microseconds without a row at the edge being misjudged.
 * Throws on text that is no instant: the contract has refused it already.
 */
export function millisecondCeiling(text: string): Date {
  const instant = parseInstant(text);
  if (!instant) throw new TypeError(`Not an ISO 8601 date-time with a zone: ${text}`);
  return new Date(ceiling(instant));
}
