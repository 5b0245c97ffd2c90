import { ApiError } from "@/lib/errors";
import { route } from "@/lib/api/route";
import { getWorkspace } from "@/lib/auth/workspaces";
import { getBalances } from "@/lib/billing/balances";
import { getWorkspaceContract, updateWorkspaceContract } from "@/lib/contracts/workspace";
import { readRetentionPolicy, setWorkspaceDeliveryRetention } from "@/lib/inbox/retention";

async function readWorkspace(workspaceId: string) {
  const workspace = await getWorkspace({ workspaceId });
  if (!workspace) throw new ApiError("unauthorized", "Invalid or revoked API key.");
  return workspace;
}

function toWorkspaceResource(workspace: Awaited<ReturnType<typeof readWorkspace>>) {
  return {
    id: workspace.id,
    name: workspace.name,
    createdAt: workspace.createdAt.toISOString(),
    deliveryRetention: readRetentionPolicy(workspace.deliveryRetention),
  };
}

// GET /v1/workspace — who the API key belongs to, and the workspace's balances.
export const GET = route(getWorkspaceContract, async ({ auth }) => {
  const balances = await getBalances(auth.workspace.id); // starts a due subscription period first
  const workspace = await readWorkspace(auth.workspace.id);
  return {
    success: true as const,
    data: {
      workspace: toWorkspaceResource(workspace),
      apiKey: auth.apiKeyId ? { id: auth.apiKeyId, mode: auth.mode } : null,
      balances: {
        subscriptionAllowanceCents: workspace.subscriptionAllowanceCents,
        ...balances,
        periodStartedAt: workspace.periodStartedAt.toISOString(),
      },
    },
  };
});

// PATCH /v1/workspace — the workspace's settings: the default delivery retention.
export const PATCH = route(updateWorkspaceContract, async ({ auth, body }) => {
  // A setting of the whole workspace: owners in the dashboard (as for members and invitations). A key needs
  // endpoints:admin, with which it could set every endpoint's own retention anyway.
  if (auth.role === "member")
    throw new ApiError("forbidden", "Only an owner of this workspace can change its settings.");
  if (body.deliveryRetention !== undefined)
    await setWorkspaceDeliveryRetention({ workspaceId: auth.workspace.id, policy: body.deliveryRetention });
  return { success: true as const, data: { workspace: toWorkspaceResource(await readWorkspace(auth.workspace.id)) } };
});
