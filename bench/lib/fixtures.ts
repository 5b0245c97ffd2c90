import { createApiKey } from "@/lib/auth/api-keys";
import { createWorkspace } from "@/lib/auth/workspaces";
import { creditWorkspace } from "@/lib/billing/balances";
import { changeEndpointDestinations } from "@/lib/forwarding/endpoint-forwarding";
import { newDestinationSecret } from "@/lib/forwarding/outgoing-request";
import { createId } from "@/lib/ids";
import { createWebhookEndpoint } from "@/lib/inbox/webhook-endpoints";

export interface BenchAccount {
  workspaceId: string;
  /** A live key of the workspace. */
  key: string;
  endpointId: string;
}

/** A workspace with a live key, a webhook endpoint and enough purchased balance for any run, made by the domain functions. */
export async function createBenchAccount(name: string, baseUrl: string): Promise<BenchAccount> {
  const workspace = await createWorkspace({ name });
  const { key } = await createApiKey({ workspaceId: workspace.id, name: `${name} key`, mode: "live" });
  await creditWorkspace({ workspaceId: workspace.id, cents: 100_000_000, note: "benchmark credit" });
  const endpoint = await createWebhookEndpoint({ workspaceId: workspace.id, name: `${name} endpoint`, baseUrl });
  return { workspaceId: workspace.id, key, endpointId: endpoint.id };
}

/**
 * A destination for an endpoint, written the way the API writes one (lib/forwarding/endpoint-forwarding.ts turns the
 * endpoint's forwarding on with it); default settings otherwise. Returns its id.
 */
export async function createBenchDestination(workspaceId: string, endpointId: string, url: string): Promise<string> {
  const id = createId("dst");
  await changeEndpointDestinations(workspaceId, endpointId, (tx) =>
    tx.webhookDestination.create({
      data: { id, workspaceId, webhookEndpointId: endpointId, url, signingSecret: newDestinationSecret() },
    }),
  );
  return id;
}
