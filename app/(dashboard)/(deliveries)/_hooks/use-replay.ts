"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { replayDeliveriesContract, replayDeliveryContract } from "@/lib/contracts/forwarding";
import type { DeliveryFilters } from "../_lib/types";
import { walkMatching } from "../_lib/walk-matching";

/**
 * Forwards one delivery again, to one destination or (none given) every enabled one. Its timeline is refetched,
 * which shows the new forwards pending and starts polling them.
 */
export function useReplayDelivery(deliveryId: string) {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return useMutation({
    mutationFn: async (destinationId: string | undefined) =>
      (await dashboardClient().call(replayDeliveryContract, { params: { id: deliveryId }, body: { destinationId } }))
        .data.forwards,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.deliveries.attempts(workspaceId, deliveryId) }),
  });
}

/**
 * Forwards every delivery the filters select again (to every enabled destination of each one's endpoint), call
 * after call like acknowledging them (walkMatching: only what was received before the click). Resolves to how many
 * deliveries were queued.
 */
export function useReplayMatching() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return useMutation<number, Error, DeliveryFilters>({
    mutationFn: (filters) =>
      walkMatching(filters, new Date(), async (filter, cursor) => {
        const answer = (await dashboardClient().call(replayDeliveriesContract, { body: { filter, cursor } })).data;
        return { count: answer.replayedCount, hasMore: answer.hasMore, nextCursor: answer.nextCursor };
      }),
    // Any delivery's timeline may have a new forward; the list itself is unchanged.
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: queryKeys.deliveries.all(workspaceId),
        predicate: (query) => query.queryKey.at(-1) === queryKeys.deliveries.attempts(workspaceId, "").at(-1),
      }),
  });
}
