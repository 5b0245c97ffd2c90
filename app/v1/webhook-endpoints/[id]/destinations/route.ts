import { route } from "@/lib/api/route";
import { createDestinationContract, listDestinationsContract } from "@/lib/contracts/forwarding";
import { createDestination, listDestinations } from "@/lib/forwarding/destinations";

// POST /v1/webhook-endpoints/:id/destinations — add a destination; its signing secret is shown this once.
export const POST = route(createDestinationContract, async ({ auth, params, body }) => ({
  success: true as const,
  data: await createDestination({ workspaceId: auth.workspace.id, endpointId: params.id, input: body }),
}));

// GET /v1/webhook-endpoints/:id/destinations — the endpoint's destinations, oldest first, with their health.
export const GET = route(listDestinationsContract, async ({ auth, params }) => ({
  success: true as const,
  data: { destinations: await listDestinations({ workspaceId: auth.workspace.id, endpointId: params.id }) },
}));
