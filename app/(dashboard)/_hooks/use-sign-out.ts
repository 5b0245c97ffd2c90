"use client";

import { useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { selectWorkspace } from "@/lib/client/dashboard-client";

/** Signs out and goes to `destination` (the sign-in page unless told otherwise), leaving nothing of the session. */
export function useSignOut(): { pending: boolean; signOut: (destination?: string) => Promise<void> } {
  const [pending, setPending] = useState(false);
  const queryClient = useQueryClient();
  const router = useRouter();

  async function signOutAndGo(destination = "/sign-in") {
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
      router.replace(destination);
      // The destination may be the page itself (a server-rendered one that reads the session): render it anew.
      router.refresh();
    }
  }

  return { pending, signOut: signOutAndGo };
}
