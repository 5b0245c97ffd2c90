"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { selectWorkspace } from "@/lib/client/dashboard-client";
import type { SignUpResult } from "../../_lib/sign-up";

/** Joins the workspace (the action has the token bound), then opens the dashboard in it. */
export function JoinButton({ workspaceName, action }: { workspaceName: string; action: () => Promise<SignUpResult> }) {
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  async function join() {
    setPending(true);
    setMessage(null);
    try {
      const result = await action();
      if (result.ok) {
        selectWorkspace(result.workspaceId);
        // The workspace list (and anything else cached in this tab) changed with the new membership.
        queryClient.clear();
        router.replace("/");
        return;
      }
      setMessage(result.message);
    } catch {
      setMessage("The server could not be reached. Try again.");
    }
    setPending(false);
  }

  return (
    <div className="form">
      {message ? (
        <p role="alert" className="alert">
          {message}
        </p>
      ) : null}
      <button
        type="button"
        className="button button-primary button-block"
        onClick={() => void join()}
        disabled={pending}
      >
        {pending ? "Joining…" : `Join ${workspaceName}`}
      </button>
    </div>
  );
}
