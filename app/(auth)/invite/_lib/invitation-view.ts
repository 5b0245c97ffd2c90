import { signUpSchema } from "../../_lib/sign-up";

/** What the invitation page shows, from the link's invitation and whoever is signed in. */
export type InvitationView =
  | { kind: "invalid" }
  | { kind: "join"; workspaceName: string; role: "owner" | "member"; invitedBy: string | null }
  /** A sign-up invitation opened by someone signed in with its email: they have an account already. */
  | { kind: "has-account" }
  | { kind: "other-account"; invitedEmail: string; signedInEmail: string }
  | { kind: "sign-in"; email: string }
  /** `workspaceName` null: a sign-up invitation, the new account gets a workspace of its own. */
  | { kind: "create-account"; email: string; workspaceName: string | null; invitedBy: string | null };

interface InvitationFacts {
  email: string;
  role: "owner" | "member";
  workspace: { name: string } | null;
  invitedBy: string | null;
  accountExists: boolean;
}

export function invitationView(invitation: InvitationFacts | null, signedIn: { email: string } | null): InvitationView {
  if (!invitation) return { kind: "invalid" };
  if (signedIn) {
    if (signedIn.email.toLowerCase() !== invitation.email.toLowerCase())
      return { kind: "other-account", invitedEmail: invitation.email, signedInEmail: signedIn.email };
    return invitation.workspace
      ? {
          kind: "join",
          workspaceName: invitation.workspace.name,
          role: invitation.role,
          invitedBy: invitation.invitedBy,
        }
      : { kind: "has-account" };
  }
  if (invitation.accountExists) return { kind: "sign-in", email: invitation.email };
  return {
    kind: "create-account",
    email: invitation.email,
    workspaceName: invitation.workspace?.name ?? null,
    invitedBy: invitation.invitedBy,
  };
}

/**
 * The fields of an account made from an invitation: the sign-up form's, without the email (the invitation's) and,
 * for an invitation into a workspace, without the workspace name.
 */
export function invitationAccountSchema(minPasswordLength: number, ownWorkspace: boolean) {
  const fields = signUpSchema(minPasswordLength);
  return ownWorkspace
    ? fields.pick({ name: true, password: true, workspaceName: true })
    : fields.pick({ name: true, password: true });
}
