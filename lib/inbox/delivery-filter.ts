import { millisecondCeiling } from "@/lib/contracts/instant";
import { Prisma } from "@/lib/db/generated/client";

/** What selects deliveries within a workspace: the listing's filters, shared by every operation over a listing. */
export interface DeliveryFilter {
  endpointId?: string;
  /** `true`: pending only; `false`: acknowledged only. */
  unacknowledged?: boolean;
  /** Only deliveries received at or after this ISO 8601 date-time (with a zone, as the contract checked). */
  since?: string;
  /** Only deliveries received before this ISO 8601 date-time (exclusive). */
  until?: string;
  /** Only deliveries of this event type (exact). */
  eventType?: string;
}

/** The WHERE conditions of a filter over `webhook_deliveries`, the workspace first (every query on tenant data). */
export function deliveryFilterConditions(workspaceId: string, filter: DeliveryFilter): Prisma.Sql[] {
  const conditions = [Prisma.sql`workspace_id = ${workspaceId}`];
  if (filter.endpointId !== undefined) conditions.push(Prisma.sql`webhook_endpoint_id = ${filter.endpointId}`);
  if (filter.unacknowledged === true) conditions.push(Prisma.sql`acknowledged_at IS NULL`);
  if (filter.unacknowledged === false) conditions.push(Prisma.sql`acknowledged_at IS NOT NULL`);
  // Bounds on the index's leading column after workspace or endpoint: they narrow the same range scan a keyset walk
  // takes. Rounded up to the millisecond, which on created_at (milliseconds) selects exactly the same rows.
  if (filter.since !== undefined)
    conditions.push(Prisma.sql`created_at >= ${millisecondCeiling(filter.since)}::timestamptz`);
  if (filter.until !== undefined)
    conditions.push(Prisma.sql`created_at < ${millisecondCeiling(filter.until)}::timestamptz`);
  // An equality after the workspace on webhook_deliveries_workspace_event_type_idx, whose walk is then in
  // (created_at, id) order; with `endpointId` as well, one of the two indexes serves and the other is a filter.
  if (filter.eventType !== undefined) conditions.push(Prisma.sql`event_type = ${filter.eventType}`);
  return conditions;
}

/**
 * A filter as a cursor binds it: a cursor is only good for the filter it came from. The bounds are the instants they
 * select, not as spelled (`…T01:00:00+01:00` continues a walk begun with `…T00:00:00Z`), and are present only when
 * given, so cursors issued before a filter existed stay valid.
 */
export function deliveryFilterScope(filter: DeliveryFilter) {
  return {
    endpointId: filter.endpointId,
    unacknowledged: filter.unacknowledged,
    ...(filter.since !== undefined && { since: millisecondCeiling(filter.since).toISOString() }),
    ...(filter.until !== undefined && { until: millisecondCeiling(filter.until).toISOString() }),
    ...(filter.eventType !== undefined && { eventType: filter.eventType }),
  };
}
