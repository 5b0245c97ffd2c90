"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/app/(dashboard)/_components/modal-dialog";
import { useSignOut } from "@/app/(dashboard)/_hooks/use-sign-out";
import { useSwitchWorkspace } from "@/app/(dashboard)/_hooks/use-workspace";
import { errorMessage } from "@/app/(dashboard)/_lib/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { useRemoveMember } from "../_hooks/use-members";

/**
 * Leaving the workspace. Afterwards the dashboard continues in the user's next workspace, or, with none left, signs
 * out (a session acts in a workspace). The last owner is refused by the API, and the dialog says so.
 */
export function LeaveWorkspace({
  workspaceName,
  myUserId,
  next,
}: {
  workspaceName: string;
  myUserId: string;
  /** Where to go afterwards: another workspace of the user's, or null to sign out. */
  next: { id: string; name: string } | null;
}) {
  const [open, setOpen] = useState(false);
  const leave = useRemoveMember();
  const switchWorkspace = useSwitchWorkspace();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { signOut } = useSignOut();

  function close() {
    setOpen(false);
    leave.reset();
  }

  function confirm() {
    leave.mutate(myUserId, {
      onSuccess: () => {
        if (!next) return void signOut();
        // Switch first: a request still naming the workspace just left would be answered 404.
        switchWorkspace(next.id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces() });
        router.replace("/");
      },
    });
  }

  return (
    <>
      <p>
        You lose access to {workspaceName} at once. To come back, an owner has to invite you again.
        {next
          ? ` The dashboard then continues in ${next.name}.`
          : " It is your only workspace: you will be signed out."}
      </p>
      <div>
        <button type="button" className="button" onClick={() => setOpen(true)}>
          Leave workspace
        </button>
      </div>
      <ConfirmDialog
        open={open}
        title={`Leave ${workspaceName}?`}
        confirmLabel="Leave workspace"
        pendingLabel="Leaving…"
        pending={leave.isPending}
        error={leave.error ? errorMessage(leave.error) : null}
        onConfirm={confirm}
        onCancel={close}
      >
        <p>
          You lose access to its endpoints, deliveries, keys and usage.
          {next ? ` You continue in ${next.name}.` : " You will be signed out."}
        </p>
      </ConfirmDialog>
    </>
  );
}
