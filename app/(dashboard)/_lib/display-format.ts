/**
 * Display formatting for the dashboard. Pure: the locale and time zone default to the browser's and can be passed in,
 * which is how the tests pin them.
 */

export interface FormatOptions {
  locale?: string;
  timeZone?: string;
}

/** Cents as money: `1234` → `$12.34`. `signed` adds a `+` to positive amounts (credits). */
export function formatCents(
  cents: number,
  options: FormatOptions & { currency?: string; signed?: boolean } = {},
): string {
  return new Intl.NumberFormat(options.locale, {
    style: "currency",
    currency: options.currency ?? "USD",
    signDisplay: options.signed ? "exceptZero" : "auto",
  }).format((cents || 0) / 100); // `|| 0`: a negated zero would print as "-$0.00"
}

/** A whole count with grouping: `12345` → `12,345`. */
export function formatCount(value: number, options: FormatOptions = {}): string {
  return new Intl.NumberFormat(options.locale, { maximumFractionDigits: 0 }).format(value);
}

/** `part` as a share of `whole`, to at most one decimal: `1, 3` → `33.3%`; an empty whole → `—`. */
export function formatShare(part: number, whole: number, options: FormatOptions = {}): string {
  if (whole <= 0) return "—";
  return new Intl.NumberFormat(options.locale, { style: "percent", maximumFractionDigits: 1 }).format(part / whole);
}

/** An ISO instant as a short date and time: `Mar 4, 2025, 5:06 AM`. */
export function formatDateTime(iso: string, options: FormatOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(options.locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: options.timeZone,
  }).format(date);
}

/** An ISO instant as a date only: `Mar 4, 2025`. */
export function formatDate(iso: string, options: FormatOptions = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(options.locale, { dateStyle: "medium", timeZone: options.timeZone }).format(date);
}

/** A UTC calendar day (`YYYY-MM-DD`, as the usage API reports days) as `Mar 4`, or `Mar 4, 2025` with `withYear`. */
export function formatDay(day: string, options: FormatOptions & { withYear?: boolean } = {}): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return day;
  return new Intl.DateTimeFormat(options.locale, {
    month: "short",
    day: "numeric",
    year: options.withYear ? "numeric" : undefined,
    timeZone: "UTC",
  }).format(date);
}

/** Milliseconds as `85 ms` or `1.2 s`; unknown → `—`. */
export function formatLatency(ms: number | null, options: FormatOptions = {}): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${formatCount(ms, options)} ms`;
  return `${new Intl.NumberFormat(options.locale, { maximumFractionDigits: 1 }).format(ms / 1000)} s`;
}
