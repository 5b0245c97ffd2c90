"use client";

import { useRef, useState } from "react";
import { InvitationLinkDialog, type CreatedInvitation } from "@/app/(dashboard)/_components/invitation-link-dialog";
import { PendingInvitations } from "@/app/(dashboard)/_components/pending-invitations";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { useCurrentUser } from "@/app/(dashboard)/_hooks/use-current-user";
import { useFocusRescue } from "@/app/(dashboard)/_hooks/use-focus-rescue";
import { useCurrentWorkspace, useWorkspaces } from "@/app/(dashboard)/_hooks/use-workspace";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useInvitations, useMembers, useRevokeInvitation } from "../_hooks/use-members";
import { InviteForm } from "./invite-form";
import { LeaveWorkspace } from "./leave-workspace";
import { MembersTable } from "./members-table";

function LoadFailed({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <div role="alert" className={ui.alert}>
      <p>
        Could not load the {what}: {errorMessage(error)}
      </p>
      <button type="button" className="button button-small" onClick={retry}>
        Try again
      </button>
    </div>
  );
}

function OwnerInvitations({ onStatus }: { onStatus: (message: string) => void }) {
  const invitations = useInvitations();
  const revoke = useRevokeInvitation();
  if (invitations.isPending)
    return <div className={ui.skeleton} aria-busy="true" aria-label="Loading pending invitations" />;
  if (!invitations.data)
    return <LoadFailed what="pending invitations" error={invitations.error} retry={() => void invitations.refetch()} />;
  return (
    <PendingInvitations
      invitations={invitations.data}
      caption="Pending invitations into this workspace"
      showRole
      revoke={revoke}
      onRevoked={onStatus}
    />
  );
}

export function MembersView() {
  const workspace = useCurrentWorkspace();
  const workspaces = useWorkspaces();
  const me = useCurrentUser();
  const members = useMembers();
  const title = useRef<HTMLHeadingElement>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const rescueFocusTo = useFocusRescue();
  const isOwner = workspace?.role === "owner";
  const next = workspaces.data?.find((other) => other.id !== workspace?.id) ?? null;

  function announce(message: string) {
    setStatus(message);
    // A removed row's or revoked invitation's button is gone once the list refreshes.
    rescueFocusTo(title.current);
  }

  function closeDialog() {
    const email = created?.invitation.email;
    // Drop the link from memory as soon as the dialog closes.
    setCreated(null);
    if (email) setStatus(`Invited ${email}. The invitation is listed under “Pending invitations” until it is used.`);
  }

  const failed = !members.isPending && !members.data ? members : !me.isPending && !me.data ? me : null;

  return (
    <div className={ui.page}>
      <div className={ui.header}>
        <div>
          <h1 ref={title} tabIndex={-1}>
            Members
          </h1>
          <p className={ui.lead}>
            {isOwner
              ? "Who works in this workspace. As an owner you invite people, change roles and remove members."
              : "Who works in this workspace. Owners invite people and change roles; members create test keys."}
          </p>
        </div>
      </div>

      <div role="status" className={ui.pageStatus}>
        {status ? <p className={ui.success}>{status}</p> : null}
      </div>

      {failed ? (
        <LoadFailed what="members" error={failed.error} retry={() => void failed.refetch()} />
      ) : !members.data || !me.data || !workspace ? (
        <div className={ui.skeleton} aria-busy="true" aria-label="Loading members" />
      ) : (
        <>
          {isOwner ? (
            <section className={ui.card} aria-labelledby="invite-title">
              <h2 id="invite-title" className={ui.sectionTitle}>
                Invite someone
              </h2>
              <InviteForm
                onCreated={(next) => {
                  setStatus(null);
                  setCreated(next);
                }}
              />
            </section>
          ) : null}

          <section className={ui.card} aria-labelledby="members-title">
            <h2 id="members-title" className={ui.sectionTitle}>
              People in {workspace.name}
            </h2>
            <MembersTable
              members={members.data}
              myUserId={me.data.user.id}
              workspaceName={workspace.name}
              isOwner={isOwner}
              onChanged={setStatus}
              onRemoved={announce}
            />
          </section>

          {isOwner ? (
            <section className={ui.card} aria-labelledby="invitations-title">
              <h2 id="invitations-title" className={ui.sectionTitle}>
                Pending invitations
              </h2>
              <OwnerInvitations onStatus={announce} />
            </section>
          ) : null}

          <section className={ui.card} aria-labelledby="leave-title">
            <h2 id="leave-title" className={ui.sectionTitle}>
              Leave workspace
            </h2>
            <div className={ui.stack}>
              <LeaveWorkspace workspaceName={workspace.name} myUserId={me.data.user.id} next={next} />
            </div>
          </section>
        </>
      )}

      <InvitationLinkDialog created={created} onClose={closeDialog} />
    </div>
  );
}
