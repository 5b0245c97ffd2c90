import type { z } from "zod";
import { MAX_LISTED_ATTEMPTS, MAX_LISTED_FORWARDS, type attemptSchema } from "@/lib/contracts/forwarding";
import { db } from "@/lib/db/client";
import { deliveryNotFound, isDeliveryId } from "@/lib/inbox/deliveries";
import { lookUpByDeliveryId } from "@/lib/inbox/delivery-ids";
import { FORWARD_COLUMNS, toForwardResource, type ForwardResource, type ForwardRow } from "./forward-resource";

export type AttemptResource = z.infer<typeof attemptSchema>;

// Not fatal: a response body cut at its byte bound, or not UTF-8 at all, still reads (with U+FFFD where it breaks).
const RESPONSE_TEXT = new TextDecoder("utf-8", { fatal: false });

/**
 * A delivery's forwards (newest first, the latest MAX_LISTED_FORWARDS) and their attempts (oldest first, the latest
 * MAX_LISTED_ATTEMPTS), both read newest first on their (workspace, delivery, time) indexes. 404 for a delivery that
 * is not the workspace's.
 */
export async function listDeliveryAttempts(options: {
  workspaceId: string;
  deliveryId: string;
}): Promise<{ forwards: ForwardResource[]; attempts: AttemptResource[] }> {
  if (!isDeliveryId(options.deliveryId)) throw deliveryNotFound();
  const delivery = await lookUpByDeliveryId(options.deliveryId, async (receivedWithin) => {
    const [found] = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM webhook_deliveries
      WHERE workspace_id = ${options.workspaceId} AND id = ${options.deliveryId}::uuid AND ${receivedWithin}`;
    return found;
  });
  if (!delivery) throw deliveryNotFound();
  const forwards = await db().$queryRaw<ForwardRow[]>`
    SELECT ${FORWARD_COLUMNS} FROM delivery_forwards
    WHERE workspace_id = ${options.workspaceId} AND delivery_id = ${delivery.id}::uuid
    ORDER BY created_at DESC, id DESC
    LIMIT ${MAX_LISTED_FORWARDS}`;
  const attempts = await db().deliveryAttempt.findMany({
    where: { workspaceId: options.workspaceId, deliveryId: delivery.id },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: MAX_LISTED_ATTEMPTS,
  });
  return {
    forwards: forwards.map(toForwardResource),
    attempts: attempts.reverse().map((attempt) => ({
      id: attempt.id,
      forwardId: attempt.forwardId,
      destinationId: attempt.destinationId,
      attemptNumber: attempt.attemptNumber,
      startedAt: attempt.startedAt.toISOString(),
      durationMs: attempt.durationMs,
      responseStatus: attempt.responseStatus,
      responseBody: attempt.responseBody && RESPONSE_TEXT.decode(attempt.responseBody),
      responseBodyTruncated: attempt.responseBodyTruncated,
      error: attempt.error,
    })),
  };
}
