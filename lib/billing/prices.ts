import type { IntelligenceSignal } from "@/lib/contracts/enrichment";

/**
 * The price catalogue, in cents. Known before a call runs, so `meta.priceRange` can be answered up front and a
 * workspace that cannot cover the minimum is refused before any upstream work.
 */
export const PRICES = {
  companies_domain_emails: { baseCents: 2, perEmailCents: 1 },
  companies_intelligence: { funding: 10, competitors: 8, technographics: 5 } satisfies Record<
    IntelligenceSignal,
    number
  >,
  media_video_details: 1,
  /** Charged only when something is found: a miss is free (but the balance must cover a hit to start). */
  people_email: 4,
  /** Above what one call to the person-data vendor costs us, so the waterfall can reach it. */
  people_enrich: 35,
  people_mobile: 45,
  companies_enrich: 12,
  /** Multi-record operations: a base price plus one price per record on the returned page. */
  people_search: { baseCents: 2, perRecordCents: 2 },
  companies_search: { baseCents: 1, perRecordCents: 1 },
  companies_discover: { baseCents: 2, perRecordCents: 1 },
} as const;

/** Every operation with a price: what the ledger and the answer cache name a call by. */
export type PricedOperation = keyof typeof PRICES;

type MultiRecordOperation = "people_search" | "companies_search" | "companies_discover";

/** A multi-record call costs its base price plus one price per record on the returned page (nothing found: free). */
export function multiRecordPriceRange(operation: MultiRecordOperation, limit: number): PriceRange {
  const { baseCents, perRecordCents } = PRICES[operation];
  return { minCents: baseCents, maxCents: baseCents + perRecordCents * limit };
}

/** The price of a page of `records`. A page that returns nothing (no match, or past the end) is not charged. */
export function multiRecordCost(operation: MultiRecordOperation, records: number): number {
  if (records === 0) return 0;
  const { baseCents, perRecordCents } = PRICES[operation];
  return baseCents + perRecordCents * records;
}

/** A found-or-free lookup: costs nothing when nothing is found, its price otherwise. */
export function lookupPriceRange(
  operation: "people_email" | "people_enrich" | "people_mobile" | "companies_enrich",
): PriceRange {
  return { minCents: 0, maxCents: PRICES[operation] };
}

export interface PriceRange {
  minCents: number;
  maxCents: number;
}

/** A domain-emails call costs its base price plus one price per email on the returned page. */
export function domainEmailsPriceRange(limit: number): PriceRange {
  const { baseCents, perEmailCents } = PRICES.companies_domain_emails;
  return { minCents: baseCents, maxCents: baseCents + perEmailCents * limit };
}

export function domainEmailsCost(emailsReturned: number): number {
  const { baseCents, perEmailCents } = PRICES.companies_domain_emails;
  return baseCents + perEmailCents * emailsReturned;
}

/** Intelligence is flat-priced per signal, found or not. */
export function intelligencePrice(signal: IntelligenceSignal): number {
  return PRICES.companies_intelligence[signal];
}
