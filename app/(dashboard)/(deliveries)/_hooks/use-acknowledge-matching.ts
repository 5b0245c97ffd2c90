"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { acknowledgeDeliveriesContract, filterAcknowledgementSchema } from "@/lib/contracts/webhooks";
import type { DeliveryFilters } from "../_lib/types";

/** The earlier of two ISO instants (the first may be absent). */
function earlier(until: string | undefined, instant: string): string {
  return until !== undefined && Date.parse(until) < Date.parse(instant) ? until : instant;
}

/**
 * Acknowledges every pending delivery the filters select, through the bulk route's `filter` form: one bounded,
 * atomic call after another while the server says `hasMore`. Only deliveries received before the click are
 * acknowledged (`until` is capped at that instant), so deliveries that keep arriving cannot make it run forever,
 * and nothing the user has not seen listed is acknowledged. Resolves to how many this click acknowledged.
 */
export function useAcknowledgeMatching() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return useMutation<number, Error, DeliveryFilters>({
    mutationFn: async (filters) => {
      // The list's own `until`, when the filter bar sets one, is kept if it is earlier than the click.
      const until = earlier((filters as { until?: string }).until, new Date().toISOString());
      let total = 0;
      let cursor: string | undefined;
      do {
        const answer = filterAcknowledgementSchema.parse(
          (
            await dashboardClient().call(acknowledgeDeliveriesContract, {
              body: { filter: { ...filters, until }, cursor },
            })
          ).data,
        );
        total += answer.acknowledgedCount;
        cursor = answer.nextCursor ?? undefined;
      } while (cursor);
      return total;
    },
    // Rows on screen may have changed anywhere in the list: reload what is shown, and the pending counts.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.deliveries.all(workspaceId) });
    },
  });
}
