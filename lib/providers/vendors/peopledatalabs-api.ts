import { z } from "zod";
import { parseRetryAfter } from "@/lib/outbound/retry-after";

/*
 * What both People Data Labs adapters (company, person) share: the API's base URL, how it says when to retry, and
 * how its loosely typed fields are read. PDL sends null (or, on free plans, `true` placeholders) for what it does not
 * know, so every optional field reads as null when missing or odd.
 */

export const PDL_DEFAULT_BASE_URL = "https://api.peopledatalabs.com/v5";

export const pdlText = z.string().trim().min(1).nullable().catch(null);

export const pdlTextList = z
  .array(z.unknown())
  .nullable()
  .catch(null)
  .transform((items) => (items ?? []).filter((item): item is string => typeof item === "string" && item.trim() !== ""));

/** Retry-After when sent; otherwise the rate-limit window's end, as epoch seconds (older) or an ISO time (current). */
export function pdlRateLimitWait(headers: Headers): number | undefined {
  const stated = parseRetryAfter(headers.get("retry-after"));
  if (stated !== undefined) return stated;
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset === undefined) return undefined;
  if (/^\d{9,}$/.test(reset)) return Math.max(0, Math.ceil(Number(reset) - Date.now() / 1000));
  return parseRetryAfter(reset);
}

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/** PDL writes URLs without a scheme ("linkedin.com/in/…", "acme.example"). */
export function withScheme(url: string): string {
  return HAS_SCHEME.test(url) ? url : `https://${url}`;
}

/** The bare domain of a website as PDL writes it ("www.Acme.example/about" → "acme.example"). */
export function domainOf(website: string | null): string | null {
  if (website === null) return null;
  try {
    return new URL(withScheme(website)).hostname.toLowerCase().replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}
