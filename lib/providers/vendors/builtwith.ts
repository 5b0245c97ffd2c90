import { z } from "zod";
import type { IntelligenceProviderInput, Technology } from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import type { OutboundClient } from "@/lib/outbound/types";
import { VENDOR_COSTS_CENTS } from "./vendor-costs";
import { VendorError } from "./vendor-error";
import { DEFAULT_VENDOR_TIMEOUT_MS, requestVendorJson } from "./vendor-request";

/*
 * Adapter for BuiltWith's Domain API, written against its public documentation (v22, the version its docs, official
 * clients and code examples use): `GET {baseUrl}/api.json?KEY=…&LOOKUP=domain`. The Domain API documents the key only
 * as the `KEY` query parameter, so it must travel in the URL: redirects are never followed (the URL would go with
 * them) and no error we throw carries the URL or a cause that mentions the key.
 * The answer is `{ Results: [{ Lookup, Result: { Paths: [{ Technologies: [{ Name, Tag, Categories, FirstDetected,
 * LastDetected (epoch ms), … }] }] } }], Errors: [{ Lookup, Message }] }`; errors may come with a 200.
 * One credit per domain with a non-error result. Meta, contact and attribute data are switched off: not needed, and
 * they are most of a large answer.
 */

const DEFAULT_BASE_URL = "https://api.builtwith.com/v22";
/** A large site lists thousands of technologies across its subdomains. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const DAY_MS = 86_400_000;
/** Neutral wording: the source is internal. */
const EVIDENCE = "reported by a technographics source";

export interface BuiltWithOptions {
  apiKey: string;
  /** Default "https://api.builtwith.com/v22"; tests point it at a local fake. */
  baseUrl?: string;
  http: OutboundClient;
  /** What one call costs us, in cents; default from the vendor catalogue. */
  costCents?: number;
  /** The whole call, retries included; default 10 s. */
  timeoutMs?: number;
  /** Epoch milliseconds "now", against which a last sighting is judged stale; tests pin it. */
  now?: () => number;
}

/**
 * How sure a sighting makes us that the site still runs the technology: BuiltWith re-indexes a site within days to
 * a month, so a sighting older than a quarter suggests it has gone, and one older than a year that it is long gone.
 */
function confidenceFor(lastDetectedMs: number | null, now: number): number {
  if (lastDetectedMs === null) return 0.3;
  const ageDays = (now - lastDetectedMs) / DAY_MS;
  if (ageDays <= 90) return 0.9;
  if (ageDays <= 365) return 0.6;
  return 0.3;
}

const text = z.string().trim().min(1).nullable().catch(null);
const epochMs = z.number().positive().nullable().catch(null);
const textList = z
  .array(z.unknown())
  .nullable()
  .catch(null)
  .transform((items) => (items ?? []).filter((item): item is string => typeof item === "string" && item.trim() !== ""));

// The envelope is checked strictly (a renamed `Results` or `Paths` must fail loudly, not read as "no technologies");
// a single odd technology is dropped rather than failing the lookup.
const technology = z.object({
  Name: z.string().trim().min(1),
  Tag: text,
  Categories: textList,
  FirstDetected: epochMs,
  LastDetected: epochMs,
});
const domainBody = z.object({
  Results: z
    .array(
      z.object({
        Lookup: text,
        Result: z.object({
          Paths: z
            .array(z.object({ Technologies: z.array(technology.nullable().catch(null)).nullable().catch(null) }))
            .nullable(),
        }),
      }),
    )
    .nullable()
    .optional(),
  Errors: z
    .array(z.unknown())
    .nullable()
    .catch(null)
    .transform((items) => items ?? []),
});

type DomainBody = z.infer<typeof domainBody>;
interface Sighting {
  name: string;
  category: string;
  firstMs: number | null;
  lastMs: number | null;
}

/** BuiltWith's Domain API as a technographics provider (id "builtwith"). */
export function createBuiltWithTechnographicsProvider(
  options: BuiltWithOptions,
): EnrichmentProvider<IntelligenceProviderInput> {
  if (options.apiKey === "") throw new Error("The technographics adapter needs an API key.");
  const baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL).href.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_VENDOR_TIMEOUT_MS;
  const now = options.now ?? Date.now;

  return {
    id: "builtwith",
    operation: "companies_intelligence",
    supplies: ["technographics"],
    costCents: options.costCents ?? VENDOR_COSTS_CENTS.builtwith,
    timeoutMs,
    async enrich(input, { signal }) {
      if (input.signal !== "technographics") return {};
      const query = new URLSearchParams({
        KEY: options.apiKey,
        LOOKUP: input.domain,
        NOMETA: "yes",
        NOPII: "yes",
        NOATTR: "yes",
        HIDEDL: "yes",
      });
      const answer = await requestVendorJson({
        http: options.http,
        url: `${baseUrl}/api.json?${query}`,
        headers: {},
        signal,
        timeoutMs,
        maxBytes: MAX_BODY_BYTES,
        secrets: [options.apiKey, encodeURIComponent(options.apiKey)],
      });
      if (!answer.found) return {};
      const parsed = domainBody.safeParse(answer.body);
      if (!parsed.success || (parsed.data.Results == null && parsed.data.Errors.length === 0)) {
        throw new VendorError("invalid_body", "upstream answered with an unexpected body", { status: answer.status });
      }
      const results = parsed.data.Results ?? [];
      // Errors come in the body, often with a 200 (an unknown key, a lookup it cannot do). Their wording is the
      // vendor's: it is not repeated, and without a result there is nothing to skip to but the next provider.
      if (results.length === 0 && parsed.data.Errors.length > 0) {
        throw new VendorError("rejected", "upstream reported an error for the lookup", { status: answer.status });
      }
      const technologies = toTechnologies(results, now());
      return technologies.length === 0
        ? {}
        : {
            technographics: {
              value: technologies,
              confidence: Math.max(...technologies.map((item) => item.confidence)),
            },
          };
    },
  };
}

/** Every technology on every path, once per name: the earliest first sighting and the latest last one win. */
function toTechnologies(results: NonNullable<DomainBody["Results"]>, now: number): Technology[] {
  const byName = new Map<string, Sighting>();
  for (const result of results) {
    for (const path of result.Result.Paths ?? []) {
      for (const item of path.Technologies ?? []) {
        if (item === null) continue;
        const key = item.Name.toLowerCase();
        const seen = byName.get(key);
        byName.set(key, {
          name: seen?.name ?? item.Name,
          category: seen?.category ?? item.Categories[0] ?? item.Tag ?? "other",
          firstMs: earliest(seen?.firstMs ?? null, item.FirstDetected),
          lastMs: latest(seen?.lastMs ?? null, item.LastDetected),
        });
      }
    }
  }
  return [...byName.values()]
    .map((sighting) => ({
      name: sighting.name,
      category: sighting.category,
      confidence: confidenceFor(sighting.lastMs, now),
      firstDetected: dateOnly(sighting.firstMs),
      lastDetected: dateOnly(sighting.lastMs),
      evidence: [EVIDENCE],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.min(a, b);
}

function latest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.max(a, b);
}

function dateOnly(ms: number | null): string | null {
  if (ms === null) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10);
}
