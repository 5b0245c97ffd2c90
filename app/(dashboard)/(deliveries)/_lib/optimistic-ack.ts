import type { DeliveryPages } from "./types";

/**
 * Optimistic acknowledgement. `applyAck` marks pending rows acknowledged at once and remembers exactly which rows it
 * changed and with which timestamp; `rollbackAck` undoes only those, and only where the row still carries that
 * timestamp (a row the server or a later action changed meanwhile is left as it is). Rows never move.
 */
export interface AppliedAck {
  /** The ids this application changed (pending before, acknowledged now). */
  ids: string[];
  /** The timestamp written into them. */
  acknowledgedAt: string;
}

export function applyAck(
  data: DeliveryPages,
  ids: readonly string[],
  acknowledgedAt: string,
): { data: DeliveryPages; applied: AppliedAck } {
  const wanted = new Set(ids);
  const changed: string[] = [];
  const pages = data.pages.map((page) => {
    if (!page.deliveries.some((row) => wanted.has(row.id) && row.acknowledgedAt === null)) return page;
    return {
      ...page,
      deliveries: page.deliveries.map((row) => {
        // Acknowledging again keeps the first acknowledgedAt, as the API does.
        if (!wanted.has(row.id) || row.acknowledgedAt !== null) return row;
        changed.push(row.id);
        return { ...row, acknowledgedAt };
      }),
    };
  });
  return { data: changed.length === 0 ? data : { ...data, pages }, applied: { ids: changed, acknowledgedAt } };
}

export function rollbackAck(data: DeliveryPages, applied: AppliedAck): DeliveryPages {
  const undo = new Set(applied.ids);
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.deliveries.some((row) => undo.has(row.id) && row.acknowledgedAt === applied.acknowledgedAt)) return page;
    changed = true;
    return {
      ...page,
      deliveries: page.deliveries.map((row) =>
        undo.has(row.id) && row.acknowledgedAt === applied.acknowledgedAt ? { ...row, acknowledgedAt: null } : row,
      ),
    };
  });
  return changed ? { ...data, pages } : data;
}

/** The bulk route takes 1–100 ids per request; more than that go in consecutive batches. */
export const BULK_ACK_LIMIT = 100;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}
