import { route } from "@/lib/api/route";
import { acknowledgeDeliveryContract } from "@/lib/contracts/webhooks";
import { acknowledgeDelivery } from "@/lib/inbox/acknowledge-deliveries";

// POST /v1/webhook-endpoints/deliveries/:id/ack — acknowledge one delivery (idempotent).
export const POST = route(acknowledgeDeliveryContract, async ({ auth, params }) => ({
  success: true as const,
  data: await acknowledgeDelivery({ workspaceId: auth.workspace.id, deliveryId: params.id }),
}));
