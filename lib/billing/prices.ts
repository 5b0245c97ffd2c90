import type { IntelligenceSignal } from "@/lib/enrichment/intelligence-fields";

/**
 * The price catalogue, in cents. Known before a call runs, so `meta.priceRange` can be answered up front and a
 * workspace that cannot cover the minimum is refused before any upstream work.
 */
export const PRICES = {
  companies_domain_emails: { baseCents: 2, perEmailCents: 1 },
  companies_intelligence: { funding: 10, competitors: 8, technographics: 5 } satisfies Record<IntelligenceSignal, number>,
  media_video_details: 1,
} as const;

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
