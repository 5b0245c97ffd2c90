import { publicBaseUrl } from "@/lib/api/base-url";
import { route } from "@/lib/api/route";
import { createWebhookEndpointContract, listWebhookEndpointsContract } from "@/lib/contracts/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/inbox/webhook-endpoints";

// GET /v1/webhook-endpoints — the workspace's endpoints, newest first.
export const GET = route(listWebhookEndpointsContract, async ({ auth, query, request }) => ({
  success: true as const,
  data: await listWebhookEndpoints({ workspaceId: auth.workspace.id, ...query, baseUrl: publicBaseUrl(request) }),
}));

// POST /v1/webhook-endpoints — create an endpoint and get its ingest URL.
export const POST = route(createWebhookEndpointContract, async ({ auth, body, request }) => ({
  success: true as const,
  data: await createWebhookEndpoint({ workspaceId: auth.workspace.id, ...body, baseUrl: publicBaseUrl(request) }),
}));
