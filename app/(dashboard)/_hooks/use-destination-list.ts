"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listDestinationsContract, type destinationSchema } from "@/lib/contracts/forwarding";

export type Destination = z.output<typeof destinationSchema>;

/**
 * One endpoint's destinations (at most ten, one request): the Endpoints page lists and edits them, the delivery
 * drawer names a forward's destination and offers them to Replay. `pollMs` refreshes their health while shown, for
 * an endpoint that has any (an endpoint without destinations is not asked again and again).
 */
export function useDestinationList(endpointId: string, options: { pollMs?: number } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.destinations.list(workspaceId ?? null, endpointId),
    queryFn: async () =>
      (await dashboardClient().call(listDestinationsContract, { params: { id: endpointId } })).data.destinations,
    enabled: workspaceId !== undefined,
    refetchInterval: (query) => (options.pollMs && query.state.data?.length ? options.pollMs : false),
  });
}
