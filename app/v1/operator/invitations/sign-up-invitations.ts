import { invitationResource, listPendingInvitations } from "@/lib/auth/invitations";
import { env } from "@/lib/env";

/** The sign-up policy and the operators' pending sign-up invitations (those with no workspace). */
export async function signUpInvitationsData() {
  return {
    success: true as const,
    data: {
      signUp: env().SIGNUP,
      invitations: (await listPendingInvitations({ workspaceId: null })).map(invitationResource),
    },
  };
}
