import { route } from "@/lib/api/route";
import { listDeliveriesContract } from "@/lib/contracts/webhooks";
import { listDeliveries } from "@/lib/inbox/deliveries";

// GET /v1/webhook-endpoints/deliveries — keyset-paged deliveries, newest first by default.
export const GET = route(listDeliveriesContract, async ({ auth, query }) => ({
  success: true as const,
  data: await listDeliveries({ workspaceId: auth.workspace.id, ...query }),
}));
