"use client";

import { useMutation, useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import {
  acknowledgeDeliveriesContract,
  acknowledgeDeliveryContract,
  idsAcknowledgementSchema,
} from "@/lib/contracts/webhooks";
import { replaceDelivery } from "../_lib/delivery-pages";
import { applyAck, BULK_ACK_LIMIT, chunk, rollbackAck, type AppliedAck } from "../_lib/optimistic-ack";
import type { Delivery, DeliveryFilters } from "../_lib/types";
import type { DeliveryListData } from "./use-delivery-list";

interface AckContext {
  listKey: QueryKey;
  applied: AppliedAck;
}

/** Marks rows acknowledged in the cached list at once; the returned context undoes it. */
async function optimisticAck(queryClient: QueryClient, listKey: QueryKey, ids: readonly string[]): Promise<AckContext> {
  // An in-flight page fetch would overwrite the optimistic rows with stale ones.
  await queryClient.cancelQueries({ queryKey: listKey, exact: true });
  let applied: AppliedAck = { ids: [], acknowledgedAt: new Date().toISOString() };
  queryClient.setQueryData<DeliveryListData>(listKey, (data) => {
    if (!data) return data;
    const result = applyAck(data, ids, applied.acknowledgedAt);
    applied = result.applied;
    return result.data;
  });
  return { listKey, applied };
}

function rollback(queryClient: QueryClient, context: AckContext | undefined, ids?: readonly string[]) {
  if (!context) return;
  const only = ids ? new Set(ids) : null;
  const applied = only
    ? { ...context.applied, ids: context.applied.ids.filter((id) => only.has(id)) }
    : context.applied;
  queryClient.setQueryData<DeliveryListData>(context.listKey, (data) => (data ? rollbackAck(data, applied) : data));
}

/** After an ack: endpoint pending counts changed, and lists under other filters are out of date (refetched when shown). */
function afterAck(queryClient: QueryClient, workspaceId: string | null) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.deliveries.all(workspaceId), refetchType: "none" });
}

/** Acknowledges one delivery (the per-row button and the drawer), optimistically. */
export function useAcknowledgeDelivery(filters: DeliveryFilters) {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  const listKey = queryKeys.deliveries.list(workspaceId, filters);
  return useMutation<Delivery, Error, string, AckContext>({
    mutationFn: async (id) => (await dashboardClient().call(acknowledgeDeliveryContract, { params: { id } })).data,
    onMutate: (id) => optimisticAck(queryClient, listKey, [id]),
    onError: (_error, _id, context) => rollback(queryClient, context),
    onSuccess: (delivery, _id, context) => {
      // The server's row, with the real acknowledgedAt (the first one, if someone else was quicker).
      queryClient.setQueryData<DeliveryListData>(context.listKey, (data) =>
        data ? replaceDelivery(data, delivery) : data,
      );
    },
    onSettled: () => afterAck(queryClient, workspaceId),
  });
}

export interface BulkAckResult {
  acknowledged: string[];
  alreadyAcknowledged: string[];
  notFound: string[];
}

/** A bulk ack that failed part way: the batches before the failing one were committed. */
export class BulkAckError extends Error {
  readonly committed: string[];
  constructor(cause: unknown, committed: string[]) {
    super(cause instanceof Error ? cause.message : "The acknowledgement failed.", { cause });
    this.name = "BulkAckError";
    this.committed = committed;
  }
}

/**
 * Acknowledges the selected rows in one request to the bulk route (the route takes up to 100 ids; a larger
 * selection goes in batches of 100, each atomic). Optimistic, rolled back for whatever did not commit.
 */
export function useAcknowledgeDeliveries(filters: DeliveryFilters) {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  const listKey = queryKeys.deliveries.list(workspaceId, filters);
  return useMutation<BulkAckResult, BulkAckError, string[], AckContext>({
    mutationFn: async (ids) => {
      const result: BulkAckResult = { acknowledged: [], alreadyAcknowledged: [], notFound: [] };
      const committed: string[] = [];
      for (const batch of chunk(ids, BULK_ACK_LIMIT)) {
        try {
          const answer = idsAcknowledgementSchema.parse(
            (await dashboardClient().call(acknowledgeDeliveriesContract, { body: { ids: batch } })).data,
          );
          result.acknowledged.push(...answer.acknowledged);
          result.alreadyAcknowledged.push(...answer.alreadyAcknowledged);
          result.notFound.push(...answer.notFound);
          committed.push(...batch);
        } catch (error) {
          throw new BulkAckError(error, committed);
        }
      }
      return result;
    },
    onMutate: (ids) => optimisticAck(queryClient, listKey, ids),
    onError: (error, ids, context) => {
      const committed = new Set(error.committed);
      rollback(
        queryClient,
        context,
        ids.filter((id) => !committed.has(id)),
      );
    },
    // Ids the server did not find (deleted with their endpoint meanwhile) were not acknowledged: show them as they were.
    onSuccess: (result, _ids, context) => rollback(queryClient, context, result.notFound),
    onSettled: () => afterAck(queryClient, workspaceId),
  });
}
