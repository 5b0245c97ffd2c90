"use server";

import { getServerSession } from "next-auth";
import { acceptInvitation, createAccountFromInvitation, findInvitation } from "@/lib/auth/invitations";
import { authOptions } from "@/lib/auth/next-auth";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/users";
import { invalidFieldsResult, refusalResult, type SignUpField, type SignUpResult } from "../../_lib/sign-up";
import { invitationAccountSchema } from "../_lib/invitation-view";

const INVALID_LINK = "This invitation link is not valid any more. Ask for a new one.";

/**
 * The signed-in user joins the invitation's workspace (the link is bound to their email). Next.js checks that server
 * actions come from this site (Origin), which is the CSRF defence here.
 */
export async function acceptInvitationAction(token: string): Promise<SignUpResult> {
  const session = (await getServerSession(authOptions())) as { userId?: string | null } | null;
  if (!session?.userId) return { ok: false, message: "Sign in again to accept the invitation.", fieldErrors: {} };
  try {
    return { ok: true, ...(await acceptInvitation({ token, userId: session.userId })) };
  } catch (error) {
    return refusalResult(error);
  }
}

/**
 * Creates the invited person's account (the invitation's email) and joins the inviting workspace, or for a sign-up
 * invitation creates their own. The form then signs in with the email and password through next-auth.
 */
export async function createAccountFromInvitationAction(
  token: string,
  input: Record<SignUpField, string>,
): Promise<SignUpResult> {
  const invitation = await findInvitation(token);
  if (!invitation) return { ok: false, message: INVALID_LINK, fieldErrors: {} };
  const parsed = invitationAccountSchema(MIN_PASSWORD_LENGTH, invitation.workspace === null).safeParse(input);
  if (!parsed.success) return invalidFieldsResult(parsed.error);
  try {
    const account = await createAccountFromInvitation({ token, ...parsed.data });
    return { ok: true, workspaceId: account.workspaceId };
  } catch (error) {
    return refusalResult(error);
  }
}
