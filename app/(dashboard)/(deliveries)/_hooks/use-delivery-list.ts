"use client";

import { useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listDeliveriesContract } from "@/lib/contracts/webhooks";
import type { DeliveryFilters, DeliveryPage } from "../_lib/types";

export const DELIVERIES_PAGE_SIZE = 50;

/** The deliveries list as it sits in the react-query cache (under `queryKeys.deliveries.list`). */
export type DeliveryListData = InfiniteData<DeliveryPage>;

/**
 * One page of the list, without payloads: from `cursor`, or the first (newest) page without one. Filtered by content
 * (`q`, `payload`), a page is a bounded window of deliveries: it can be empty and still have a `nextCursor`.
 */
export async function fetchDeliveryPage(filters: DeliveryFilters, cursor: string | undefined): Promise<DeliveryPage> {
  const answer = await dashboardClient().call(listDeliveriesContract, {
    query: {
      endpointId: filters.endpointId,
      unacknowledged: filters.unacknowledged,
      eventType: filters.eventType,
      q: filters.q,
      since: filters.since,
      until: filters.until,
      payload: filters.payload,
      limit: DELIVERIES_PAGE_SIZE,
      cursor,
      // Rows show no payload; the drawer fetches the one it opens (useDeliveryPayload).
      withPayload: "false",
    },
  });
  return answer.data;
}

/**
 * The deliveries list, newest first, one keyset page at a time. It never refetches by itself: a refetch would
 * shift rows under the user's cursor. New rows come from `useNewDeliveries`, merged in when the user asks.
 */
export function useDeliveryList(filters: DeliveryFilters) {
  const workspaceId = useWorkspaceId();
  return useInfiniteQuery({
    queryKey: queryKeys.deliveries.list(workspaceId ?? null, filters),
    queryFn: ({ pageParam }) => fetchDeliveryPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: workspaceId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
