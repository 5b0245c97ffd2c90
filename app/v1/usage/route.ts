import { route } from "@/lib/api/route";
import { getUsage } from "@/lib/billing/usage";
import { getUsageContract } from "@/lib/contracts/workspace-admin";

// GET /v1/usage — balances, spend per day and per operation, recent ledger entries.
export const GET = route(getUsageContract, async ({ auth, query }) => ({
  success: true as const,
  data: await getUsage({ workspaceId: auth.workspace.id, days: query.days }),
}));
