import { route } from "@/lib/api/route";
import { listDeliveryEventTypesContract } from "@/lib/contracts/webhooks";
import { listDeliveryEventTypes } from "@/lib/inbox/delivery-event-types";

// GET /v1/webhook-endpoints/deliveries/event-types — the distinct event types received, for filter choices.
export const GET = route(listDeliveryEventTypesContract, async ({ auth, query }) => ({
  success: true as const,
  data: await listDeliveryEventTypes({ workspaceId: auth.workspace.id, endpointId: query.endpointId }),
}));
