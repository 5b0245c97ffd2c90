import type { KeysetPosition } from "@/lib/cursor";
import { DELIVERY_PAGE_BYTES } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { readDeliveryPage, toDeliveryResource, type DeliveryResource, type DeliveryRow } from "./deliveries";
import type { DeliveryFilter } from "./delivery-filter";

/** Rows one chunk of an export reads at most (and DELIVERY_PAGE_BYTES of bodies at most). */
export const EXPORT_CHUNK_ROWS = 500;

/** A line of a `base64` export: the delivery without its parsed view, with its exact bytes. */
export type ExportedRawDelivery = Omit<DeliveryResource, "rawPayload" | "formFields" | "contentDecoding"> & {
  rawBody: string;
};

export interface ExportDeliveriesOptions {
  workspaceId: string;
  filter: DeliveryFilter;
  /** `parsed`: each delivery as the listing shows it; `base64`: its exact bytes as `rawBody` instead. */
  body: "parsed" | "base64";
  /** EXPORT_CHUNK_ROWS and DELIVERY_PAGE_BYTES unless a test wants small chunks. */
  chunkRows?: number;
  chunkBytes?: number;
}

/** The earlier of a filter's `until` and `instant`, as the filter's ISO text. */
function untilNoLaterThan(until: string | undefined, instant: Date): string {
  return until !== undefined && Date.parse(until) <= instant.getTime() ? until : instant.toISOString();
}

async function toExportLine(row: DeliveryRow, body: "parsed" | "base64") {
  if (body === "parsed") return toDeliveryResource(row);
  // Without `raw_body` the resource has no parsed view (nothing is decoded); the preview comes from the head.
  const {
    rawPayload: _rawPayload,
    formFields: _formFields,
    contentDecoding: _contentDecoding,
    ...rest
  } = await toDeliveryResource({ ...row, raw_body: undefined, raw_body_head: row.raw_body });
  return { ...rest, rawBody: Buffer.from(row.raw_body!).toString("base64") } satisfies ExportedRawDelivery;
}

/**
 * The deliveries a filter selects, oldest first (created_at, then id), one at a time. The keyset walk reads a chunk
 * of at most `chunkRows` rows and `chunkBytes` of bodies (a larger delivery gets a chunk of its own) only once the
 * previous chunk was consumed: memory holds one chunk and one line whatever the count. Each delivery is decoded as it
 * is yielded, so the listing's per-page decoding budget is not needed (one body at a time, MAX_DECODED_BYTES each).
 * Deliveries received after the export began are left out (its `until` is capped at the database's clock then): an
 * endpoint that receives faster than a client reads still has an export that ends.
 */
export async function* exportDeliveries(
  options: ExportDeliveriesOptions,
): AsyncGenerator<DeliveryResource | ExportedRawDelivery> {
  const [{ now }] = (await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`) as [{ now: Date }];
  const page = {
    ...options.filter,
    until: untilNoLaterThan(options.filter.until, now),
    workspaceId: options.workspaceId,
    order: "asc" as const,
    limit: options.chunkRows ?? EXPORT_CHUNK_ROWS,
    pageBytes: options.chunkBytes ?? DELIVERY_PAGE_BYTES,
  };
  let after: KeysetPosition | null = null;
  for (;;) {
    const { rows, continueAfter } = await readDeliveryPage(page, after);
    const kept = rows.slice(0, page.limit);
    for (const row of kept) yield await toExportLine(row, options.body);
    after = continueAfter(kept.length);
    if (!after) return;
  }
}
