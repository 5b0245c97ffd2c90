import { route } from "@/lib/api/route";
import { acknowledgeDeliveriesContract } from "@/lib/contracts/webhooks";
import { acknowledgeDeliveries } from "@/lib/inbox/acknowledge-deliveries";

// POST /v1/webhook-endpoints/deliveries/ack — acknowledge up to 100 deliveries atomically.
export const POST = route(acknowledgeDeliveriesContract, async ({ auth, body }) => ({
  success: true as const,
  data: await acknowledgeDeliveries({ workspaceId: auth.workspace.id, ids: body.ids }),
}));
