import { publicBaseUrl } from "@/lib/api/base-url";
import { route } from "@/lib/api/route";
import { createInvitation, invitationResource, invitationUrl, listPendingInvitations } from "@/lib/auth/invitations";
import { createInvitationContract, listInvitationsContract } from "@/lib/contracts/members";

// GET /v1/workspace/invitations — pending invitations, newest first.
export const GET = route(listInvitationsContract, async ({ auth }) => ({
  success: true as const,
  data: {
    invitations: (await listPendingInvitations({ workspaceId: auth.workspace.id })).map(invitationResource),
  },
}));

// POST /v1/workspace/invitations — a link for one email address; the token is in this answer only.
export const POST = route(createInvitationContract, async ({ auth, body, request }) => {
  const { token, invitation } = await createInvitation({
    workspaceId: auth.workspace.id,
    email: body.email,
    role: body.role,
    invitedByUserId: auth.userId!,
  });
  return {
    success: true as const,
    data: { invitation: invitationResource(invitation), url: invitationUrl(publicBaseUrl(request), token) },
  };
});
