import type { DeliveryFilters } from "./types";

/** One call of a by-filter route: how many it did, and where the next call goes on. */
export interface MatchingStep {
  count: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** The earlier of two ISO instants (the first may be absent). */
function earlier(until: string | undefined, instant: string): string {
  return until !== undefined && Date.parse(until) < Date.parse(instant) ? until : instant;
}

/**
 * Runs a by-filter bulk action (acknowledge, replay) over everything the list's filters select: one bounded call
 * after another while the server says `hasMore`, each with the previous call's `nextCursor` and the same filter.
 * Only deliveries received before `now` (the click) are touched: `until` is capped at it (the filter bar's own
 * `until` is kept when earlier), so deliveries that keep arriving cannot make it run forever, and nothing the user
 * has not seen listed is acted on. Resolves to the calls' summed counts.
 */
export async function walkMatching(
  filters: DeliveryFilters,
  now: Date,
  step: (filter: DeliveryFilters, cursor: string | undefined) => Promise<MatchingStep>,
): Promise<number> {
  const filter = { ...filters, until: earlier(filters.until, now.toISOString()) };
  let total = 0;
  let cursor: string | undefined;
  do {
    const answer = await step(filter, cursor);
    total += answer.count;
    cursor = answer.hasMore ? (answer.nextCursor ?? undefined) : undefined;
  } while (cursor);
  return total;
}
