import { route } from "@/lib/api/route";
import { listAllWorkspaces } from "@/lib/auth/operators";
import { listOperatorWorkspacesContract } from "@/lib/contracts/operator";
import { operatorWorkspaceResource } from "./operator-workspace-resource";

// GET /v1/operator/workspaces — every workspace on the server (operators only), with balances.
export const GET = route(listOperatorWorkspacesContract, async ({ query }) => ({
  success: true as const,
  data: { workspaces: (await listAllWorkspaces({ q: query.q })).map(operatorWorkspaceResource) },
}));
