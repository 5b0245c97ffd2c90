"use client";

import { useQuery } from "@tanstack/react-query";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { getCurrentUserContract } from "@/lib/contracts/members";
import { useWorkspaceId } from "./use-workspace";

/** The signed-in user (whether they operate this server) and the server's sign-up policy. */
export function useCurrentUser() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.me(),
    queryFn: async () => (await dashboardClient().call(getCurrentUserContract, {})).data,
    // The call carries the selected workspace's header: wait for it, like every other query.
    enabled: workspaceId !== undefined,
    staleTime: 60_000,
  });
}
