import { publicBaseUrl } from "@/lib/api/base-url";
import { route } from "@/lib/api/route";
import {
  deleteWebhookEndpointContract,
  getWebhookEndpointContract,
  updateWebhookEndpointContract,
} from "@/lib/contracts/webhooks";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";

// GET /v1/webhook-endpoints/:id — one endpoint with its pending and total counts.
export const GET = route(getWebhookEndpointContract, async ({ auth, params, request }) => ({
  success: true as const,
  data: await getWebhookEndpoint({
    workspaceId: auth.workspace.id,
    endpointId: params.id,
    baseUrl: publicBaseUrl(request),
  }),
}));

// PATCH /v1/webhook-endpoints/:id — rename, describe, enable/disable, change signing.
export const PATCH = route(updateWebhookEndpointContract, async ({ auth, params, body, request }) => ({
  success: true as const,
  data: await updateWebhookEndpoint({
    workspaceId: auth.workspace.id,
    endpointId: params.id,
    changes: body,
    baseUrl: publicBaseUrl(request),
  }),
}));

// DELETE /v1/webhook-endpoints/:id — the endpoint and all its deliveries.
export const DELETE = route(deleteWebhookEndpointContract, async ({ auth, params }) => ({
  success: true as const,
  data: await deleteWebhookEndpoint({ workspaceId: auth.workspace.id, endpointId: params.id }),
}));
