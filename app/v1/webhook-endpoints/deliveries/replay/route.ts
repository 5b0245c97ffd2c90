import { route } from "@/lib/api/route";
import { replayDeliveriesContract } from "@/lib/contracts/forwarding";
import { replayFilteredDeliveries } from "@/lib/forwarding/replay";

// POST /v1/webhook-endpoints/deliveries/replay — forward the oldest deliveries a filter selects again (bounded; walk
// on with `cursor`).
export const POST = route(replayDeliveriesContract, async ({ auth, body }) => ({
  success: true as const,
  data: await replayFilteredDeliveries({
    workspaceId: auth.workspace.id,
    filter: body.filter,
    destinationId: body.destinationId,
    cursor: body.cursor,
  }),
}));
