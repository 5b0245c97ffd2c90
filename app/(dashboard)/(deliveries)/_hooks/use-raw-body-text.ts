"use client";

import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { queryKeys } from "@/lib/client/query-keys";
import { fetchRawBodyText } from "../_lib/raw-body";

/** A delivery's exact body as text (null when it is not UTF-8), for "copy as curl". Bodies never change: cached for good. */
export function useRawBodyText(deliveryId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.deliveries.rawText(workspaceId ?? null, deliveryId),
    queryFn: () => fetchRawBodyText(deliveryId),
    enabled: workspaceId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
