import { route } from "@/lib/api/route";
import { replayDeliveryContract } from "@/lib/contracts/forwarding";
import { replayDelivery } from "@/lib/forwarding/replay";

// POST /v1/webhook-endpoints/deliveries/:id/replay — forward a delivery again, to one destination or all enabled.
export const POST = route(replayDeliveryContract, async ({ auth, params, body }) => ({
  success: true as const,
  data: {
    forwards: await replayDelivery({
      workspaceId: auth.workspace.id,
      deliveryId: params.id,
      destinationId: body?.destinationId,
    }),
  },
}));
