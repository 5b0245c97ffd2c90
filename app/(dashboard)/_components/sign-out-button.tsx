"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { selectWorkspace } from "@/lib/client/dashboard-client";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  const queryClient = useQueryClient();
  const router = useRouter();

  async function handleClick() {
    setPending(true);
    // The session stops working on the server the moment it is signed out (lib/auth/session-revocation.ts), so
    // nothing may be fetched meanwhile: a request racing the sign-out would be answered 401.
    await queryClient.cancelQueries();
    try {
      await signOut({ redirect: false });
    } finally {
      // The next person on this browser starts in their own default workspace, with nothing of this session cached.
      // The choice is stored without telling this tab's pages, which are about to unmount: a switch would refetch.
      selectWorkspace("");
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
