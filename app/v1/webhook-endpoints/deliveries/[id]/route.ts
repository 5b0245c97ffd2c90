import { route } from "@/lib/api/route";
import { getDeliveryContract } from "@/lib/contracts/webhooks";
import { getDelivery } from "@/lib/inbox/deliveries";

// GET /v1/webhook-endpoints/deliveries/:id — one delivery.
export const GET = route(getDeliveryContract, async ({ auth, params }) => ({
  success: true as const,
  data: await getDelivery({ workspaceId: auth.workspace.id, deliveryId: params.id }),
}));
