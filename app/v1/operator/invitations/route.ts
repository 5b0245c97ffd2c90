import { publicBaseUrl } from "@/lib/api/base-url";
import { route } from "@/lib/api/route";
import { createInvitation, invitationResource, invitationUrl } from "@/lib/auth/invitations";
import { createSignUpInvitationContract, listSignUpInvitationsContract } from "@/lib/contracts/operator";
import { signUpInvitationsData } from "./sign-up-invitations";

// GET /v1/operator/invitations — pending sign-up invitations.
export const GET = route(listSignUpInvitationsContract, async () => signUpInvitationsData());

// POST /v1/operator/invitations — a sign-up link for one email address (SIGNUP=invite or open).
export const POST = route(createSignUpInvitationContract, async ({ auth, body, request }) => {
  const { token, invitation } = await createInvitation({
    workspaceId: null,
    email: body.email,
    role: "owner",
    invitedByUserId: auth.userId!,
  });
  return {
    success: true as const,
    data: { invitation: invitationResource(invitation), url: invitationUrl(publicBaseUrl(request), token) },
  };
});
