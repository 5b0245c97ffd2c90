import { MAX_LISTED_EVENT_TYPES } from "@/lib/contracts/webhooks";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";

/**
 * The distinct event types of a workspace's deliveries (of one endpoint, if given), in code point order, at most
 * MAX_LISTED_EVENT_TYPES and whether more exist. A skip scan written out (PostgreSQL 15 has none of its own): each
 * step asks the event type index for the smallest type above the last one, so a workspace with ten types and ten
 * million deliveries costs ten index descents. With an endpoint, a step also passes over other endpoints' rows of the
 * types in between (a filter on the same index): the cost then grows with the deliveries of types this endpoint never
 * received, not with its own.
 */
export async function listDeliveryEventTypes(options: EventTypesOptions) {
  const rows = await db().$queryRaw<{ event_type: string }[]>(deliveryEventTypesQuery(options));
  return {
    eventTypes: rows.slice(0, MAX_LISTED_EVENT_TYPES).map((row) => row.event_type),
    truncated: rows.length > MAX_LISTED_EVENT_TYPES,
  };
}

interface EventTypesOptions {
  workspaceId: string;
  endpointId?: string;
}

/** The SQL of `listDeliveryEventTypes`: one more row than it lists tells whether more exist. */
export function deliveryEventTypesQuery(options: EventTypesOptions): Prisma.Sql {
  const endpoint =
    options.endpointId === undefined ? Prisma.empty : Prisma.sql`AND webhook_endpoint_id = ${options.endpointId}`;
  return Prisma.sql`
    WITH RECURSIVE types (event_type) AS (
      (SELECT event_type FROM webhook_deliveries
       WHERE workspace_id = ${options.workspaceId} AND event_type IS NOT NULL ${endpoint}
       ORDER BY event_type LIMIT 1)
      UNION ALL
      SELECT (SELECT d.event_type FROM webhook_deliveries d
              WHERE d.workspace_id = ${options.workspaceId} AND d.event_type > t.event_type ${endpoint}
              ORDER BY d.event_type LIMIT 1)
      FROM types t WHERE t.event_type IS NOT NULL
    )
    SELECT event_type FROM types WHERE event_type IS NOT NULL LIMIT ${MAX_LISTED_EVENT_TYPES + 1}`;
}
