"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listRejectionsContract, type rejectionSchema } from "@/lib/contracts/rejections";

export type Rejection = z.output<typeof rejectionSchema>;

const PAGE_SIZE = 20;

/** An endpoint's refused ingest requests, newest first, a page at a time; asked for only while `open`. */
export function useRejections(endpointId: string, open: boolean) {
  const workspaceId = useWorkspaceId();
  const query = useInfiniteQuery({
    queryKey: queryKeys.rejections.list(workspaceId ?? null, endpointId),
    queryFn: ({ pageParam }) =>
      dashboardClient().call(listRejectionsContract, {
        params: { id: endpointId },
        query: { limit: PAGE_SIZE, cursor: pageParam },
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.data.nextCursor ?? undefined,
    enabled: open && workspaceId !== undefined,
  });
  const first = query.data?.pages[0]?.data;
  return {
    ...query,
    rejections: query.data?.pages.flatMap((page) => page.data.rejections) ?? [],
    recordedCount: first?.recordedCount ?? 0,
    notRecordedCount: first?.notRecordedCount ?? 0,
  };
}
