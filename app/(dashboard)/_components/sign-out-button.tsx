"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { storeWorkspaceSelection } from "../_hooks/use-workspace";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  const queryClient = useQueryClient();
  const router = useRouter();

  async function handleClick() {
    setPending(true);
    // The next person on this browser starts in their own default workspace, with nothing of this session cached.
    storeWorkspaceSelection(null);
    try {
      await signOut({ redirect: false });
    } finally {
      queryClient.clear();
      router.replace("/sign-in");
    }
  }

  return (
    <button type="button" className="button button-small" onClick={() => void handleClick()} disabled={pending}>
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
