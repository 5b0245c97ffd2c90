import { route } from "@/lib/api/route";
import { revokeInvitation } from "@/lib/auth/invitations";
import { revokeSignUpInvitationContract } from "@/lib/contracts/operator";
import { ApiError } from "@/lib/errors";
import { signUpInvitationsData } from "../sign-up-invitations";

// DELETE /v1/operator/invitations/:id — the sign-up link stops working at once.
export const DELETE = route(revokeSignUpInvitationContract, async ({ params }) => {
  if (!(await revokeInvitation({ workspaceId: null, invitationId: params.id })))
    throw new ApiError("not_found", "No such pending invitation.");
  return signUpInvitationsData();
});
