import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { getServerSession } from "next-auth";
import { SignOutButton } from "@/app/(dashboard)/_components/sign-out-button";
import { findInvitation } from "@/lib/auth/invitations";
import { authOptions } from "@/lib/auth/next-auth";
import { findUser, MIN_PASSWORD_LENGTH } from "@/lib/auth/users";
import { SignUpForm } from "../../sign-up/sign-up-form";
import { invitationView } from "../_lib/invitation-view";
import { acceptInvitationAction, createAccountFromInvitationAction } from "./actions";
import { JoinButton } from "./join-button";

// The token in this page's address is the invitation's secret: no link on it may send the address on as a Referer.
export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };

function InvitationCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card auth-card auth-card-single" aria-labelledby="invitation-title">
      <h1 id="invitation-title">{title}</h1>
      {children}
    </section>
  );
}

// /invite/:token — an invitation link: join the workspace, sign in to accept, or create the invited account.
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const session = (await getServerSession(authOptions())) as { userId?: string | null } | null;
  const [invitation, user] = await Promise.all([
    findInvitation(token),
    session?.userId ? findUser(session.userId) : null,
  ]);
  const view = invitationView(invitation, user);
  const path = `/invite/${token}`;

  switch (view.kind) {
    case "invalid":
      return (
        <InvitationCard title="This invitation is not valid">
          <p>
            This invitation link is not valid any more: it was used, revoked, replaced by a newer one, or it expired.
            Ask whoever sent it for a new one.
          </p>
          <p className="auth-switch">
            Have an account? <Link href="/sign-in">Sign in</Link>
          </p>
        </InvitationCard>
      );
    case "join":
      return (
        <InvitationCard title={`Join ${view.workspaceName}`}>
          <p>
            {view.invitedBy ? `${view.invitedBy} invited you` : "You are invited"} to{" "}
            <strong>{view.workspaceName}</strong> as {view.role === "owner" ? "an owner" : "a member"}.
          </p>
          <JoinButton workspaceName={view.workspaceName} action={acceptInvitationAction.bind(null, token)} />
        </InvitationCard>
      );
    case "has-account":
      return (
        <InvitationCard title="You have an account already">
          <p>
            This link is for creating a new account, and you are signed in to yours. Ask for an invitation into a
            workspace instead, or carry on in the <Link href="/">dashboard</Link>.
          </p>
        </InvitationCard>
      );
    case "other-account":
      return (
        <InvitationCard title="This invitation is for someone else">
          <p>
            This invitation is for <strong>{view.invitedEmail}</strong>, and you are signed in as {view.signedInEmail}.
            Sign out, then open the link again as {view.invitedEmail}.
          </p>
          <div className="form">
            <SignOutButton destination={path} label={`Sign out ${view.signedInEmail}`} />
          </div>
        </InvitationCard>
      );
    case "sign-in":
      return (
        <InvitationCard title="Sign in to accept">
          <p>
            This invitation is for <strong>{view.email}</strong>, which has an account here. Sign in with it to accept.
          </p>
          <p>
            <Link
              className="button button-primary button-block"
              href={`/sign-in?callbackUrl=${encodeURIComponent(path)}`}
            >
              Sign in to accept
            </Link>
          </p>
        </InvitationCard>
      );
    case "create-account":
      return (
        <InvitationCard title={view.workspaceName ? `Join ${view.workspaceName}` : "Create your account"}>
          <p className="muted small">
            {view.workspaceName
              ? `Create your account to join ${view.workspaceName}${view.invitedBy ? `, where ${view.invitedBy} invited you` : ""}.`
              : "You are invited to this Signalbox server: create your account and name a workspace of your own."}
          </p>
          <SignUpForm
            minPasswordLength={MIN_PASSWORD_LENGTH}
            action={createAccountFromInvitationAction.bind(null, token)}
            email={view.email}
            askWorkspaceName={view.workspaceName === null}
          />
        </InvitationCard>
      );
  }
}
