import { ApiError } from "@/lib/errors";
import { route } from "@/lib/api/route";
import { getWorkspace } from "@/lib/auth/workspaces";
import { getBalances } from "@/lib/billing/balances";
import { getWorkspaceContract } from "@/lib/contracts/workspace";

// GET /v1/workspace — who the API key belongs to, and the workspace's balances.
export const GET = route(getWorkspaceContract, async ({ auth }) => {
  const balances = await getBalances(auth.workspace.id); // starts a due subscription period first
  const workspace = await getWorkspace({ workspaceId: auth.workspace.id });
  if (!workspace) throw new ApiError("unauthorized", "Invalid or revoked API key.");
  return {
    success: true as const,
    data: {
      workspace: { id: workspace.id, name: workspace.name, createdAt: workspace.createdAt.toISOString() },
      apiKey: auth.apiKeyId ? { id: auth.apiKeyId, mode: auth.mode } : null,
      balances: {
        subscriptionAllowanceCents: workspace.subscriptionAllowanceCents,
        ...balances,
        periodStartedAt: workspace.periodStartedAt.toISOString(),
      },
    },
  };
});
