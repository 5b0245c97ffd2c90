"use client";

import { useId, useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import ui from "@/app/(dashboard)/_components/ui.module.css";
import { formatDate } from "@/app/(dashboard)/_lib/display-format";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { useChangeRole, useRemoveMember, type Member } from "../_hooks/use-members";
import { memberName, ROLE_LABELS, type Role } from "../_lib/roles";
import styles from "./members.module.css";

/** The role of one member: a select for owners (saved on change, its error beside it), words for members. */
function RoleCell({
  member,
  editable,
  onChanged,
}: {
  member: Member;
  editable: boolean;
  onChanged: (message: string) => void;
}) {
  const id = useId();
  const change = useChangeRole();
  if (!editable) return <>{ROLE_LABELS[member.role]}</>;
  // While saving, show the choice being saved; after a refusal, the role as it is.
  const shown = change.isPending && change.variables ? change.variables.role : member.role;
  return (
    <div className={styles.roleCell}>
      <label htmlFor={id} className="visually-hidden">
        Role of {memberName(member)}
      </label>
      <select
        id={id}
        className="select"
        value={shown}
        aria-disabled={change.isPending}
        aria-invalid={change.error ? true : undefined}
        aria-describedby={change.error ? `${id}-error` : undefined}
        onChange={(event) => {
          if (change.isPending) return;
          const role = event.target.value as Role;
          change.mutate(
            { userId: member.userId, role },
            { onSuccess: () => onChanged(`${memberName(member)} is now ${ROLE_LABELS[role].toLowerCase()}.`) },
          );
        }}
      >
        {(["owner", "member"] as const).map((value) => (
          <option key={value} value={value}>
            {ROLE_LABELS[value]}
          </option>
        ))}
      </select>
      {change.error ? (
        <p id={`${id}-error`} role="alert" className="field-error">
          {errorMessage(change.error)}
        </p>
      ) : null}
    </div>
  );
}

/** The workspace's members; owners change roles and remove people (never themselves: that is "Leave"). */
export function MembersTable({
  members,
  myUserId,
  workspaceName,
  isOwner,
  onChanged,
  onRemoved,
}: {
  members: Member[];
  myUserId: string;
  workspaceName: string;
  isOwner: boolean;
  onChanged: (message: string) => void;
  onRemoved: (message: string) => void;
}) {
  const remove = useRemoveMember();
  const [target, setTarget] = useState<Member | null>(null);

  function close() {
    setTarget(null);
    remove.reset();
  }

  function confirm() {
    if (!target) return;
    remove.mutate(target.userId, {
      onSuccess: () => {
        close();
        onRemoved(`Removed ${memberName(target)} from ${workspaceName}.`);
      },
    });
  }

  return (
    <>
      <div className={ui.tableWrap}>
        <table className={`${ui.table} ${styles.members}`}>
          <caption className="visually-hidden">Members of {workspaceName}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {isOwner ? (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {members.map((member) => {
              const isMe = member.userId === myUserId;
              return (
                <tr key={member.userId}>
                  <th scope="row">
                    {member.name ?? <span className={ui.muted}>No name</span>}
                    {isMe ? <span className={ui.muted}> (you)</span> : null}
                  </th>
                  <td>{member.email}</td>
                  <td>
                    <RoleCell member={member} editable={isOwner} onChanged={onChanged} />
                  </td>
                  <td>{formatDate(member.joinedAt)}</td>
                  {isOwner ? (
                    <td>
                      {isMe ? null : (
                        <button
                          type="button"
                          className={`button button-small ${ui.dangerOutline}`}
                          onClick={() => setTarget(member)}
                          aria-label={`Remove ${memberName(member)}`}
                        >
                          Remove
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={target !== null}
        title={target ? `Remove ${memberName(target)} from ${workspaceName}?` : ""}
        confirmLabel="Remove member"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error ? errorMessage(remove.error) : null}
        onConfirm={confirm}
        onCancel={close}
      >
        <p>
          They lose access to this workspace at once. API keys they made belong to the workspace and keep working:
          revoke those on the API keys page if they should stop.
        </p>
      </ConfirmDialog>
    </>
  );
}
