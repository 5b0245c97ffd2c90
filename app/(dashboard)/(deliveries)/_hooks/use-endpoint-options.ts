"use client";

import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listWebhookEndpointsContract } from "@/lib/contracts/webhooks";
import { POLL_INTERVAL_MS } from "./use-new-deliveries";

/** Endpoints for the filter, the ingest URLs (copy as curl) and the pending counts. One page of 100 covers most workspaces. */
export function useEndpointOptions(options: { poll?: boolean } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    // While the inbox is empty, an endpoint created elsewhere (another tab, the API) moves the empty state along.
    refetchInterval: options.poll ? POLL_INTERVAL_MS : false,
    // Its own key under `endpoints.all` (the Endpoints page keeps an infinite list under `endpoints.list`).
    queryKey: queryKeys.endpoints.options(workspaceId ?? null),
    queryFn: async () => (await dashboardClient().call(listWebhookEndpointsContract, { query: { limit: 100 } })).data,
    enabled: workspaceId !== undefined,
  });
}
