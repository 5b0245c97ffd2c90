"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { getUsageContract } from "@/lib/contracts/workspace-admin";

export function useUsage(days: number) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.usage(workspaceId ?? null, days),
    // The answer carries its own period: while another period loads, the old figures stay on screen with their own days.
    queryFn: async () => ({ ...(await dashboardClient().call(getUsageContract, { query: { days } })).data, days }),
    placeholderData: keepPreviousData,
    // Calls are made elsewhere (with API keys): whenever the page is opened, show the figures as they are now.
    refetchOnMount: "always",
    enabled: workspaceId !== undefined,
  });
}
