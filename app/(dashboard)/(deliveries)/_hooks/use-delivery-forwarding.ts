"use client";

import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listAttemptsContract } from "@/lib/contracts/forwarding";
import { FORWARDING_POLL_MS, hasPendingForward } from "../_lib/forwarding";

/**
 * A delivery's forwards and their attempts, for the drawer. Polled while a forward is pending (an attempt or a retry
 * is due), and no longer once every forward has succeeded or failed.
 */
export function useDeliveryForwarding(deliveryId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.deliveries.attempts(workspaceId ?? null, deliveryId),
    queryFn: async () => (await dashboardClient().call(listAttemptsContract, { params: { id: deliveryId } })).data,
    enabled: workspaceId !== undefined,
    refetchInterval: (query) => (hasPendingForward(query.state.data?.forwards) ? FORWARDING_POLL_MS : false),
    // Opening the drawer again shows the latest attempts, not the ones seen last time.
    staleTime: 0,
  });
}
