import { route } from "@/lib/api/route";
import { invitationResource, listPendingInvitations, revokeInvitation } from "@/lib/auth/invitations";
import { revokeInvitationContract } from "@/lib/contracts/members";
import { ApiError } from "@/lib/errors";

// DELETE /v1/workspace/invitations/:id — the link stops working at once.
export const DELETE = route(revokeInvitationContract, async ({ auth, params }) => {
  if (!(await revokeInvitation({ workspaceId: auth.workspace.id, invitationId: params.id })))
    throw new ApiError("not_found", "No such pending invitation.");
  return {
    success: true as const,
    data: {
      invitations: (await listPendingInvitations({ workspaceId: auth.workspace.id })).map(invitationResource),
    },
  };
});
