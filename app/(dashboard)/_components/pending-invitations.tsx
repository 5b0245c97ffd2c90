"use client";

import type { UseMutationResult } from "@tanstack/react-query";
import { useState } from "react";
import type { z } from "zod";
import type { invitationSchema } from "@/lib/contracts/members";
import { formatDateTime } from "../_lib/display-format";
import { errorMessage } from "../_lib/form-errors";
import { ConfirmDialog } from "./modal-dialog";
import ui from "./ui.module.css";

export type Invitation = z.output<typeof invitationSchema>;

/** The revoke mutation of whichever list this is (a workspace's invitations or the operators' sign-up ones). */
type RevokeMutation = Pick<UseMutationResult<unknown, Error, string>, "mutate" | "isPending" | "error" | "reset">;

/** Pending invitation links, each with Revoke (after a confirmation). */
export function PendingInvitations({
  invitations,
  caption,
  showRole,
  revoke,
  onRevoked,
}: {
  invitations: Invitation[];
  caption: string;
  showRole: boolean;
  revoke: RevokeMutation;
  onRevoked: (message: string) => void;
}) {
  const [target, setTarget] = useState<Invitation | null>(null);

  if (invitations.length === 0) return <p className={ui.muted}>No pending invitations.</p>;

  function close() {
    setTarget(null);
    revoke.reset();
  }

  function confirm() {
    if (!target) return;
    revoke.mutate(target.id, {
      onSuccess: () => {
        close();
        onRevoked(`Revoked the invitation for ${target.email}. Its link no longer works.`);
      },
    });
  }

  return (
    <>
      <div className={ui.tableWrap}>
        <table className={ui.table}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              {showRole ? <th scope="col">Role</th> : null}
              <th scope="col">Invited by</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={invitation.id}>
                <th scope="row">{invitation.email}</th>
                {showRole ? <td>{invitation.role === "owner" ? "Owner" : "Member"}</td> : null}
                <td>{invitation.invitedBy ?? "—"}</td>
                <td>{formatDateTime(invitation.expiresAt)}</td>
                <td>
                  <button
                    type="button"
                    className={`button button-small ${ui.dangerOutline}`}
                    onClick={() => setTarget(invitation)}
                    aria-label={`Revoke the invitation for ${invitation.email}`}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={target !== null}
        title={target ? `Revoke the invitation for ${target.email}?` : ""}
        confirmLabel="Revoke invitation"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error ? errorMessage(revoke.error) : null}
        onConfirm={confirm}
        onCancel={close}
      >
        <p>
          Its link stops working at once: whoever opens it is told it is not valid. You can invite them again later.
        </p>
      </ConfirmDialog>
    </>
  );
}
