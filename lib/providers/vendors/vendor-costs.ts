/*
 * What one call to each vendor costs us, in whole cents: the adapters' default `costCents`, which the waterfall
 * weighs against the call's budget. These are estimates from each vendor's public list prices per request, rounded
 * up, as checked when the adapters were written; an operator with a negotiated contract passes its own `costCents`.
 * A vendor that bills nothing for a miss still costs this much here: the waterfall pays at the start of a call,
 * before it knows whether the vendor will find anything.
 */

export const VENDOR_COSTS_CENTS = {
  /**
   * Email finder, Domain Search: one search credit per 1–10 addresses returned, none when nothing is found. Self-serve
   * plans run from about 2.5¢ a credit (Starter) down to about 1¢ (Business, 50,000 credits a month); we assume the
   * volume plan a production deployment runs on. A call asking for more than 10 addresses spends one credit per 10.
   */
  hunter: 1,
  /**
   * Company data, Company Enrichment API: one credit per match (200), none for a 404. Self-serve company credits are
   * listed around 10¢ each at the smallest monthly tier, cheaper in volume.
   */
  peopledatalabs: 10,
  /**
   * Technographics, Domain API: one API credit per domain looked up with a non-error result. Credits come with the
   * API plans and top-up packs; at the smaller packs a credit works out to roughly 4–5¢.
   */
  builtwith: 5,
  /**
   * Email finder, Email Finder: one search credit per address found (verification included), none when nothing is
   * found, and none for repeating a search within the billing period. The same search credits as Domain Search, so
   * the same volume-plan price of about 1¢; a miss costs Hunter nothing but is still paid for here (see above).
   */
  "hunter-email-finder": 1,
  /**
   * Person data, Person Enrichment API: one person credit per match (200), none for a 404, including a match below
   * `min_likelihood` or one without the `required` fields. Self-serve person credits are listed at 28¢ each at the
   * smallest monthly tier (down to about 20¢ on the largest annual one).
   */
  "peopledatalabs-person": 28,
  /**
   * Mobile numbers, Person Enrichment API again: the same person call, billed the same one credit per match, so the
   * same price. The mobile provider asks for a match only when the record has a phone number (`required`), so a
   * person without one is a free 404. When both people operations run for one person, each pays its own call.
   */
  "peopledatalabs-mobile": 28,
} as const satisfies Record<string, number>;

export type VendorId = keyof typeof VENDOR_COSTS_CENTS;
