import { REPLAY_BY_FILTER_LIMIT } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { ApiError } from "@/lib/errors";
import { deliveryNotFound, isDeliveryId } from "@/lib/inbox/deliveries";
import { lookUpByDeliveryId } from "@/lib/inbox/delivery-ids";
import type { DeliveryFilter } from "@/lib/inbox/delivery-filter";
import { walkFilteredDeliveries } from "@/lib/inbox/filtered-delivery-walk";
import { destinationNotFound } from "./destinations";
import { FORWARD_COLUMNS, toForwardResource, type ForwardResource, type ForwardRow } from "./forward-resource";

const destinationDisabled = () =>
  new ApiError("validation_error", "The destination is disabled: enable it to replay to it.", {
    details: [{ path: "destinationId", message: "destination is disabled" }],
  });

const noEnabledDestination = (message = "The endpoint has no enabled destination to replay to.") =>
  new ApiError("validation_error", message);

/**
 * Joins the enabled destinations (`dst`) a replay forwards to: of the endpoint each delivery came in on
 * (`endpointColumn`), `only` one of them when given. The statement ends in TARGETS_LOCK.
 */
function replayTargets(workspaceId: string, endpointColumn: Prisma.Sql, only: string | undefined): Prisma.Sql {
  return Prisma.sql`
    JOIN webhook_destinations dst ON dst.workspace_id = ${workspaceId} AND dst.webhook_endpoint_id = ${endpointColumn}
      AND dst.enabled ${only === undefined ? Prisma.empty : Prisma.sql`AND dst.id = ${only}`}`;
}

/**
 * The destinations joined are locked against deletion (KEY SHARE, what the forwards' foreign key check takes): one
 * deleted while the replay waits for it is left out (READ COMMITTED re-reads it) instead of failing the statement.
 */
const TARGETS_LOCK = Prisma.sql`FOR KEY SHARE OF dst`;

/**
 * Forwards one delivery again, to `destinationId` (one of its endpoint's, enabled) or to every enabled destination of
 * its endpoint: each gets a new forward (reason `replay`), which queues its job as it is written. 404 for a delivery or
 * destination that is not the workspace's (or not the delivery's endpoint's); 400 when there is nothing enabled.
 */
export async function replayDelivery(options: {
  workspaceId: string;
  deliveryId: string;
  destinationId?: string;
}): Promise<ForwardResource[]> {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const replayed = await lookUpByDeliveryId(
    options.deliveryId,
    async (receivedWithin) => {
      const rows = await db().$queryRaw<ForwardRow[]>`
        WITH targets AS (
          SELECT w.id AS delivery_id, w.created_at AS delivery_created_at, dst.id AS destination_id
          FROM webhook_deliveries w
          ${replayTargets(options.workspaceId, Prisma.sql`w.webhook_endpoint_id`, options.destinationId)}
          WHERE w.workspace_id = ${options.workspaceId} AND w.id = ${options.deliveryId}::uuid AND ${receivedWithin}
          ${TARGETS_LOCK}
        ),
        inserted AS (
          INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at, reason)
          SELECT ${options.workspaceId}, delivery_id, destination_id, delivery_created_at, 'replay' FROM targets
          RETURNING *
        )
        SELECT ${FORWARD_COLUMNS} FROM inserted ORDER BY destination_id`;
      return rows.length ? rows : undefined;
    },
    Prisma.raw("w.created_at"),
  );
  const rows = replayed ?? [];
  if (rows.length === 0) await explainNothingReplayed(options);
  return rows.map(toForwardResource);
}

/** Why a replay of one delivery wrote nothing, as the error to answer with. */
async function explainNothingReplayed(options: {
  workspaceId: string;
  deliveryId: string;
  destinationId?: string;
}): Promise<never> {
  const delivery = await db().webhookDelivery.findFirst({
    where: { workspaceId: options.workspaceId, id: options.deliveryId },
    select: { webhookEndpointId: true },
  });
  if (!delivery) throw deliveryNotFound();
  if (options.destinationId === undefined) throw noEnabledDestination();
  const destination = await db().webhookDestination.findFirst({
    where: {
      workspaceId: options.workspaceId,
      webhookEndpointId: delivery.webhookEndpointId,
      id: options.destinationId,
    },
    select: { enabled: true },
  });
  if (!destination) throw destinationNotFound();
  // Found, yet nothing written: it was disabled when the replay ran (and may have been enabled since).
  throw destinationDisabled();
}

export interface ReplayFilteredOptions {
  workspaceId: string;
  filter: DeliveryFilter;
  destinationId?: string;
  /** The previous call's `nextCursor`. */
  cursor?: string;
  /** REPLAY_BY_FILTER_LIMIT unless a test wants a small bound. */
  limit?: number;
  /** A content filter's window, in deliveries and body bytes; DELIVERY_SCAN_* unless a test wants small ones. */
  scanRows?: number;
  scanBytes?: number;
}

/**
 * Replays the oldest `limit` deliveries a listing filter selects (one step of walkFilteredDeliveries, as acknowledging
 * by filter walks them), each to `destinationId` or to every enabled destination of its endpoint. With a destination
 * the walk keeps to its endpoint's deliveries; without one, deliveries of endpoints with no enabled destination are
 * walked past and not counted.
 */
export async function replayFilteredDeliveries(
  options: ReplayFilteredOptions,
): Promise<{ replayedCount: number; hasMore: boolean; nextCursor: string | null }> {
  const filter = await replayableFilter(options);
  const step = await walkFilteredDeliveries(
    { ...options, filter, limit: options.limit ?? REPLAY_BY_FILTER_LIMIT },
    {
      // With the filter walked (a destination's adds its endpoint, which never changes), and the destination.
      scope: { list: "replay", destinationId: options.destinationId },
      act: Prisma.sql`
        inserted AS (
          INSERT INTO delivery_forwards (workspace_id, delivery_id, destination_id, delivery_created_at, reason)
          SELECT ${options.workspaceId}, c.id, dst.id, c.created_at, 'replay'
          FROM chosen c
          -- By the whole key, receipt time included: one day's partition per delivery, not every day's.
          JOIN webhook_deliveries w
            ON w.workspace_id = ${options.workspaceId} AND w.id = c.id AND w.created_at = c.created_at
          ${replayTargets(options.workspaceId, Prisma.sql`w.webhook_endpoint_id`, options.destinationId)}
          ${TARGETS_LOCK}
          RETURNING delivery_id
        )`,
      count: Prisma.sql`(SELECT count(DISTINCT delivery_id) FROM inserted)`,
    },
  );
  return { replayedCount: step.count, hasMore: step.hasMore, nextCursor: step.nextCursor };
}

/**
 * The filter a replay walks, after checking there is something to replay to: the destination's endpoint's deliveries
 * for a destination (404 unless the workspace's, 400 when disabled or not of `filter.endpointId`); otherwise 400 when
 * the filtered endpoint (or the whole workspace) has no enabled destination, so a walk never runs for nothing.
 */
async function replayableFilter(options: ReplayFilteredOptions): Promise<DeliveryFilter> {
  if (options.destinationId !== undefined) {
    const destination = await db().webhookDestination.findFirst({
      where: { workspaceId: options.workspaceId, id: options.destinationId },
      select: { webhookEndpointId: true, enabled: true },
    });
    if (!destination) throw destinationNotFound();
    if (!destination.enabled) throw destinationDisabled();
    if (options.filter.endpointId !== undefined && options.filter.endpointId !== destination.webhookEndpointId)
      throw new ApiError("validation_error", "The destination belongs to another endpoint than `filter.endpointId`.", {
        details: [{ path: "destinationId", message: "is not a destination of filter.endpointId" }],
      });
    return { ...options.filter, endpointId: destination.webhookEndpointId };
  }
  const enabled = await db().webhookDestination.findFirst({
    where: {
      workspaceId: options.workspaceId,
      enabled: true,
      ...(options.filter.endpointId !== undefined && { webhookEndpointId: options.filter.endpointId }),
    },
    select: { id: true },
  });
  if (!enabled)
    throw noEnabledDestination(
      options.filter.endpointId === undefined
        ? "No endpoint of the workspace has an enabled destination to replay to."
        : undefined,
    );
  return options.filter;
}
