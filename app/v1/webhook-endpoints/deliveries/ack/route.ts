import { route } from "@/lib/api/route";
import { acknowledgeDeliveriesContract } from "@/lib/contracts/webhooks";
import { acknowledgeDeliveries } from "@/lib/inbox/acknowledge-deliveries";
import { acknowledgeFilteredDeliveries } from "@/lib/inbox/acknowledge-filtered-deliveries";

// POST /v1/webhook-endpoints/deliveries/ack — acknowledge up to 100 deliveries by id, or the oldest pending ones a
// filter selects (bounded), atomically.
export const POST = route(acknowledgeDeliveriesContract, async ({ auth, body }) => ({
  success: true as const,
  data: body.filter
    ? await acknowledgeFilteredDeliveries({ workspaceId: auth.workspace.id, filter: body.filter, cursor: body.cursor })
    : await acknowledgeDeliveries({ workspaceId: auth.workspace.id, ids: body.ids! }),
}));
