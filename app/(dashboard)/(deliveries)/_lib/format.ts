import type { Delivery } from "./types";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/**
 * "just now", "5 seconds ago", "3 minutes ago", "yesterday", "2 months ago" — the time since `iso`, measured at `now`.
 * A timestamp a little in the future (clock skew between server and browser) reads "just now".
 */
export function formatRelativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "—";
  const elapsed = now - then;
  if (elapsed < 5 * SECOND) return "just now";
  if (elapsed < MINUTE) return relative.format(-Math.floor(elapsed / SECOND), "second");
  if (elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), "minute");
  if (elapsed < DAY) return relative.format(-Math.floor(elapsed / HOUR), "hour");
  if (elapsed < 30 * DAY) return relative.format(-Math.floor(elapsed / DAY), "day");
  if (elapsed < 365 * DAY) return relative.format(-Math.floor(elapsed / (30 * DAY)), "month");
  return relative.format(-Math.floor(elapsed / (365 * DAY)), "year");
}

/** How often a relative time needs redrawing to stay right: every second at first, then less often. */
export function relativeTimeRefreshMs(iso: string, now: number): number {
  const elapsed = now - Date.parse(iso);
  if (elapsed < MINUTE) return SECOND;
  if (elapsed < HOUR) return 15 * SECOND;
  return MINUTE;
}

/** The exact time for the hover title: the browser's time zone, with seconds and the zone's name. */
export function formatExactTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-GB", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZoneName: "short",
    timeZone,
  }).format(date);
}

/** 512 B, 1.5 KB, 1 MB (binary units, as the 1 MiB ingest limit). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

const SCHEME_LABELS: Record<NonNullable<Delivery["signature"]>["scheme"], string> = {
  "standard-webhooks": "Standard Webhooks",
  stripe: "Stripe",
  github: "GitHub",
  shopify: "Shopify",
  slack: "Slack",
};

const REASON_LABELS: Record<NonNullable<NonNullable<Delivery["signature"]>["reason"]>, string> = {
  missing_header: "signature header missing",
  malformed_header: "malformed signature header",
  timestamp_out_of_tolerance: "timestamp out of tolerance",
  mismatch: "signature mismatch",
  invalid_secret: "invalid secret",
};

/** The signature column: not checked, valid, or invalid with the reason. */
export function describeSignature(signature: Delivery["signature"]): {
  tone: "none" | "valid" | "invalid";
  label: string;
  detail: string;
} {
  if (!signature) return { tone: "none", label: "Not checked", detail: "The endpoint does not check signatures." };
  const scheme = SCHEME_LABELS[signature.scheme];
  if (signature.valid) return { tone: "valid", label: "Valid", detail: `${scheme} signature is valid.` };
  const reason = signature.reason ? REASON_LABELS[signature.reason] : "not valid";
  return { tone: "invalid", label: "Invalid", detail: `${scheme}: ${reason}.` };
}
