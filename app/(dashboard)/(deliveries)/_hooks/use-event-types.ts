"use client";

import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listDeliveryEventTypesContract } from "@/lib/contracts/webhooks";

/** The event types received, of one endpoint or of the workspace, for the filter bar (`{eventTypes, truncated}`). */
export function useEventTypes(endpointId: string | undefined) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.deliveries.eventTypes(workspaceId ?? null, endpointId ?? null),
    queryFn: async () => (await dashboardClient().call(listDeliveryEventTypesContract, { query: { endpointId } })).data,
    enabled: workspaceId !== undefined,
  });
}
