"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { queryKeys } from "@/lib/client/query-keys";
import { findNewArrivals, mergeArrivals } from "../_lib/delivery-pages";
import type { DeliveryFilters } from "../_lib/types";
import { fetchDeliveryPage, type DeliveryListData } from "./use-delivery-list";

/** How often the first page is polled for new deliveries: the fallback when the event stream is down. */
export const POLL_INTERVAL_MS = 5_000;

/**
 * Polls the first page and compares it with what the list shows. Returns the deliveries newer than anything on
 * screen and `merge()`, which puts them on top. A list that is still empty takes them at once: nothing can move
 * under the cursor there, and a new user watching for a first webhook sees it arrive.
 */
export function useNewDeliveries(filters: DeliveryFilters, list: DeliveryListData | undefined, listUpdatedAt: number) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const listKey = queryKeys.deliveries.list(workspaceId ?? null, filters);
  const latest = useQuery({
    queryKey: queryKeys.deliveries.latest(workspaceId ?? null, filters),
    queryFn: () => fetchDeliveryPage(filters, undefined),
    enabled: workspaceId !== undefined && list !== undefined,
    // The list's own first page is the first "latest": no second request right after the list loaded.
    initialData: list?.pages[0],
    initialDataUpdatedAt: listUpdatedAt,
    staleTime: POLL_INTERVAL_MS,
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: false,
    // Errors show on the list; a failed poll just tries again on the next tick.
    retry: false,
  });
  const arrivals = findNewArrivals(list, latest.data);

  function merge() {
    if (arrivals.overflow) {
      // More arrived than one page holds: there is a gap between them and the list; start over from the top.
      void queryClient.resetQueries({ queryKey: listKey, exact: true });
      return;
    }
    queryClient.setQueryData<DeliveryListData>(listKey, (data) =>
      data ? mergeArrivals(data, arrivals.deliveries) : data,
    );
  }

  const listIsEmpty = list !== undefined && list.pages.every((page) => page.deliveries.length === 0);
  return {
    count: arrivals.deliveries.length,
    overflow: arrivals.overflow,
    merge,
    autoMerge: listIsEmpty && arrivals.deliveries.length > 0,
  };
}
