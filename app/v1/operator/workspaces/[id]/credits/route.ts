import { route } from "@/lib/api/route";
import { listAllWorkspaces } from "@/lib/auth/operators";
import { findUser } from "@/lib/auth/users";
import { creditWorkspace } from "@/lib/billing/balances";
import { creditWorkspaceContract } from "@/lib/contracts/operator";
import { ApiError } from "@/lib/errors";
import { operatorWorkspaceResource } from "../../operator-workspace-resource";

// POST /v1/operator/workspaces/:id/credits — adds to the purchased balance; the ledger names the operator.
export const POST = route(creditWorkspaceContract, async ({ auth, params, body }) => {
  const [workspace] = await listAllWorkspaces({ workspaceId: params.id });
  if (!workspace) throw new ApiError("not_found", "No such workspace.");
  const operator = await findUser(auth.userId!);
  await creditWorkspace({
    workspaceId: workspace.id,
    cents: body.amountCents,
    note: `Operator credit by ${operator?.email ?? "an operator"}${body.note ? `: ${body.note}` : ""}`,
  });
  const [credited] = await listAllWorkspaces({ workspaceId: workspace.id });
  return { success: true as const, data: operatorWorkspaceResource(credited!) };
});
