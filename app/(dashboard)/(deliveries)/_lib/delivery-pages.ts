import type { Delivery, DeliveryPage, DeliveryPages } from "./types";

/**
 * The deliveries list is an infinite query over keyset pages, newest first (`createdAt desc, id desc`, the API's
 * order). New deliveries are found by polling the first page and are merged in only when the user asks, so rows never
 * move on their own. Everything here is by id: a delivery is on screen at most once.
 */

/** The API's order: newest first, id descending as the tie-breaker. ISO timestamps of one format compare as text. */
export function compareNewestFirst(
  a: Pick<Delivery, "createdAt" | "id">,
  b: Pick<Delivery, "createdAt" | "id">,
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id > b.id ? -1 : 1;
}

/** Every loaded delivery in page order, each id once (the first occurrence wins). */
export function flattenDeliveries(data: DeliveryPages | undefined): Delivery[] {
  const seen = new Set<string>();
  const rows: Delivery[] = [];
  for (const page of data?.pages ?? []) {
    for (const delivery of page.deliveries) {
      if (seen.has(delivery.id)) continue;
      seen.add(delivery.id);
      rows.push(delivery);
    }
  }
  return rows;
}

export interface NewArrivals {
  /** Deliveries newer than anything loaded, newest first. */
  deliveries: Delivery[];
  /** The polled page held nothing but new deliveries and has a next page: more arrived than one page shows. */
  overflow: boolean;
}

/**
 * What the polled first page has that the list does not: rows newer than the newest loaded row. Older rows missing
 * from the list (e.g. one acknowledged elsewhere while the Acknowledged filter is on) are not "new" and are left out.
 */
export function findNewArrivals(data: DeliveryPages | undefined, latest: DeliveryPage | undefined): NewArrivals {
  if (!latest) return { deliveries: [], overflow: false };
  const loaded = flattenDeliveries(data);
  const known = new Set(loaded.map((delivery) => delivery.id));
  const newest = loaded.reduce<Delivery | undefined>(
    (best, row) => (!best || compareNewestFirst(row, best) < 0 ? row : best),
    undefined,
  );
  const seen = new Set<string>();
  const deliveries = latest.deliveries
    .filter((delivery) => {
      if (known.has(delivery.id) || seen.has(delivery.id)) return false;
      seen.add(delivery.id);
      return !newest || compareNewestFirst(delivery, newest) < 0;
    })
    .sort(compareNewestFirst);
  const overflow =
    latest.nextCursor !== null && deliveries.length > 0 && deliveries.length === latest.deliveries.length;
  return { deliveries, overflow };
}

/** The list with `arrivals` added to its first page in order; ids already loaded are skipped. */
export function mergeArrivals(data: DeliveryPages, arrivals: readonly Delivery[]): DeliveryPages {
  const known = new Set(flattenDeliveries(data).map((delivery) => delivery.id));
  const fresh: Delivery[] = [];
  for (const delivery of arrivals) {
    if (known.has(delivery.id)) continue;
    known.add(delivery.id);
    fresh.push(delivery);
  }
  if (fresh.length === 0) return data;
  const [first, ...rest] = data.pages;
  if (!first)
    return { pages: [{ deliveries: [...fresh].sort(compareNewestFirst), nextCursor: null }], pageParams: [undefined] };
  return {
    ...data,
    pages: [{ ...first, deliveries: [...fresh, ...first.deliveries].sort(compareNewestFirst) }, ...rest],
  };
}

/** The list with every row of `delivery.id` replaced by the given version (in place: no row moves). */
export function replaceDelivery(data: DeliveryPages, delivery: Delivery): DeliveryPages {
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.deliveries.some((row) => row.id === delivery.id)) return page;
    changed = true;
    return { ...page, deliveries: page.deliveries.map((row) => (row.id === delivery.id ? delivery : row)) };
  });
  return changed ? { ...data, pages } : data;
}

/** Looks a loaded delivery up by id. */
export function findDelivery(data: DeliveryPages | undefined, id: string): Delivery | undefined {
  for (const page of data?.pages ?? []) {
    const found = page.deliveries.find((delivery) => delivery.id === id);
    if (found) return found;
  }
  return undefined;
}
