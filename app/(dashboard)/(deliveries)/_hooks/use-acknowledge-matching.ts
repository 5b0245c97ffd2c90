"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { acknowledgeDeliveriesContract, filterAcknowledgementSchema } from "@/lib/contracts/webhooks";
import type { DeliveryFilters } from "../_lib/types";
import { walkMatching } from "../_lib/walk-matching";

/**
 * Acknowledges every pending delivery the filters select, through the bulk route's `filter` form, call after call
 * (walkMatching: only what was received before the click). Resolves to how many this click acknowledged.
 */
export function useAcknowledgeMatching() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return useMutation<number, Error, DeliveryFilters>({
    mutationFn: (filters) =>
      walkMatching(filters, new Date(), async (filter, cursor) => {
        const answer = filterAcknowledgementSchema.parse(
          (await dashboardClient().call(acknowledgeDeliveriesContract, { body: { filter, cursor } })).data,
        );
        return { count: answer.acknowledgedCount, hasMore: answer.hasMore, nextCursor: answer.nextCursor };
      }),
    // Rows on screen may have changed anywhere in the list: reload what is shown, and the pending counts.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.deliveries.all(workspaceId) });
    },
  });
}
