import { route } from "@/lib/api/route";
import { deleteDestinationContract, updateDestinationContract } from "@/lib/contracts/forwarding";
import { deleteDestination, updateDestination } from "@/lib/forwarding/destinations";

// PATCH /v1/webhook-endpoints/:id/destinations/:destinationId — change a destination's settings, enable or disable it.
export const PATCH = route(updateDestinationContract, async ({ auth, params, body }) => ({
  success: true as const,
  data: await updateDestination({
    workspaceId: auth.workspace.id,
    endpointId: params.id,
    destinationId: params.destinationId,
    changes: body,
  }),
}));

// DELETE /v1/webhook-endpoints/:id/destinations/:destinationId — the destination, its forwards and their attempts.
export const DELETE = route(deleteDestinationContract, async ({ auth, params }) => ({
  success: true as const,
  data: await deleteDestination({
    workspaceId: auth.workspace.id,
    endpointId: params.id,
    destinationId: params.destinationId,
  }),
}));
