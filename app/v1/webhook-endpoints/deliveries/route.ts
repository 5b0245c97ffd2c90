import { route } from "@/lib/api/route";
import { streamedListResponse } from "@/lib/api/streamed-list";
import { listDeliveriesContract } from "@/lib/contracts/webhooks";
import { listDeliveries } from "@/lib/inbox/deliveries";

// GET /v1/webhook-endpoints/deliveries — keyset-paged deliveries, newest first by default. A page can carry megabytes
// of payloads, so it is written one delivery at a time.
export const GET = route(listDeliveriesContract, async ({ auth, query }) => {
  const { deliveries, nextCursor } = await listDeliveries({ workspaceId: auth.workspace.id, ...query });
  return streamedListResponse("deliveries", deliveries, { nextCursor });
});
