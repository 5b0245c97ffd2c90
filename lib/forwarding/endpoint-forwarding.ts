import type { Prisma } from "@/lib/db/generated/client";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/errors";

/**
 * Every change to an endpoint's destinations runs here: in one transaction that first locks the endpoint's row (so
 * two changes on one endpoint take turns, and neither decides `forwarding` from a state the other is changing), then
 * makes the change, then sets `webhook_endpoints.forwarding` to whether an enabled destination remains. Ingest reads
 * that flag to decide whether a delivery gets forwards (lib/inbox/delivery-writes.ts); it is part of the settings
 * digest each stored row is checked against, so a delivery checked before the change is checked again.
 */
export async function changeEndpointDestinations<T>(
  workspaceId: string,
  endpointId: string,
  change: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  return db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM webhook_endpoints WHERE workspace_id = ${workspaceId} AND id = ${endpointId} FOR UPDATE`;
    if (locked.length === 0) throw new ApiError("not_found", "No such webhook endpoint.");
    const result = await change(tx);
    await tx.$executeRaw`
      UPDATE webhook_endpoints e
      SET forwarding = f.any_enabled
      FROM (SELECT EXISTS (SELECT 1 FROM webhook_destinations d
                           WHERE d.workspace_id = ${workspaceId} AND d.webhook_endpoint_id = ${endpointId}
                             AND d.enabled) AS any_enabled) f
      WHERE e.workspace_id = ${workspaceId} AND e.id = ${endpointId} AND e.forwarding IS DISTINCT FROM f.any_enabled`;
    return result;
  });
}
