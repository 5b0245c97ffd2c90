import { route } from "@/lib/api/route";
import { changeMemberRole, removeMember } from "@/lib/auth/members";
import { removeMemberContract, updateMemberContract } from "@/lib/contracts/members";
import { ApiError } from "@/lib/errors";
import { membersData } from "../members-resource";

// PATCH /v1/workspace/members/:userId — owners change roles; the last owner cannot step down.
export const PATCH = route(updateMemberContract, async ({ auth, params, body }) => {
  await changeMemberRole({ workspaceId: auth.workspace.id, userId: params.userId, role: body.role });
  return membersData(auth.workspace.id);
});

// DELETE /v1/workspace/members/:userId — an owner removes someone, or a member leaves.
export const DELETE = route(removeMemberContract, async ({ auth, params }) => {
  if (auth.role !== "owner" && params.userId !== auth.userId)
    throw new ApiError("forbidden", "Only an owner of this workspace can remove other members.");
  await removeMember({ workspaceId: auth.workspace.id, userId: params.userId });
  return membersData(auth.workspace.id);
});
