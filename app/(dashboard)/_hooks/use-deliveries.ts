"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useEffectEvent } from "react";
import { dashboardClient, dashboardHeaders } from "@/lib/client/dashboard-client";
import { followDeliveryEvents, type DeliveryEventMessage } from "@/lib/client/delivery-events";
import { queryKeys } from "@/lib/client/query-keys";
import {
  acknowledgeDeliveriesContract,
  acknowledgeDeliveryContract,
  getDeliveryContract,
  listDeliveriesContract,
  listWebhookEndpointsContract,
} from "@/lib/contracts/webhooks";
import { findDelivery, findNewArrivals, mergeArrivals, replaceDelivery } from "../_lib/delivery-pages";
import { applyAck, BULK_ACK_LIMIT, chunk, rollbackAck, type AppliedAck } from "../_lib/optimistic-ack";
import { fetchRawBodyText } from "../_lib/raw-body";
import type { Delivery, DeliveryFilters, DeliveryPage } from "../_lib/types";
import { useWorkspaceId } from "./use-workspace";

export const DELIVERIES_PAGE_SIZE = 50;
/** How often the first page is polled for new deliveries: the fallback when the event stream is down. */
export const POLL_INTERVAL_MS = 5_000;

type ListData = InfiniteData<DeliveryPage>;

async function fetchPage(filters: DeliveryFilters, cursor: string | undefined): Promise<DeliveryPage> {
  const answer = await dashboardClient().call(listDeliveriesContract, {
    query: { endpointId: filters.endpointId, unacknowledged: filters.unacknowledged, limit: DELIVERIES_PAGE_SIZE, cursor },
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
    queryFn: ({ pageParam }) => fetchPage(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: workspaceId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * Polls the first page and compares it with what the list shows. Returns the deliveries newer than anything on
 * screen and `merge()`, which puts them on top. A list that is still empty takes them at once: nothing can move
 * under the cursor there, and a new user watching for a first webhook sees it arrive.
 */
export function useNewDeliveries(filters: DeliveryFilters, list: ListData | undefined, listUpdatedAt: number) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const listKey = queryKeys.deliveries.list(workspaceId ?? null, filters);
  const latest = useQuery({
    queryKey: [...listKey, "latest"],
    queryFn: () => fetchPage(filters, undefined),
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
    queryClient.setQueryData<ListData>(listKey, (data) => (data ? mergeArrivals(data, arrivals.deliveries) : data));
  }

  const listIsEmpty = list !== undefined && list.pages.every((page) => page.deliveries.length === 0);
  return { count: arrivals.deliveries.length, overflow: arrivals.overflow, merge, autoMerge: listIsEmpty && arrivals.deliveries.length > 0 };
}

/** Endpoints for the filter, the ingest URLs (copy as curl) and the pending counts. One page of 100 covers most workspaces. */
export function useEndpointOptions(options: { poll?: boolean } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    // While the inbox is empty, an endpoint created elsewhere (another tab, the API) moves the empty state along.
    refetchInterval: options.poll ? POLL_INTERVAL_MS : false,
    // Its own key under `endpoints.all` (the Endpoints page keeps an infinite list under `endpoints.list`).
    queryKey: [...queryKeys.endpoints.all(workspaceId ?? null), "options"],
    queryFn: async () => (await dashboardClient().call(listWebhookEndpointsContract, { query: { limit: 100 } })).data,
    enabled: workspaceId !== undefined,
  });
}

/** A delivery's exact body as text (null when it is not UTF-8), for "copy as curl". Bodies never change: cached for good. */
export function useRawBodyText(deliveryId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: [...queryKeys.deliveries.detail(workspaceId ?? null, deliveryId), "raw-text"],
    queryFn: () => fetchRawBodyText(deliveryId),
    enabled: workspaceId !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

interface AckContext {
  listKey: QueryKey;
  applied: AppliedAck;
}

/** Marks rows acknowledged in the cached list at once; the returned context undoes it. */
async function optimisticAck(queryClient: QueryClient, listKey: QueryKey, ids: readonly string[]): Promise<AckContext> {
  // An in-flight page fetch would overwrite the optimistic rows with stale ones.
  await queryClient.cancelQueries({ queryKey: listKey, exact: true });
  let applied: AppliedAck = { ids: [], acknowledgedAt: new Date().toISOString() };
  queryClient.setQueryData<ListData>(listKey, (data) => {
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
  const applied = only ? { ...context.applied, ids: context.applied.ids.filter((id) => only.has(id)) } : context.applied;
  queryClient.setQueryData<ListData>(context.listKey, (data) => (data ? rollbackAck(data, applied) : data));
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
      queryClient.setQueryData<ListData>(context.listKey, (data) => (data ? replaceDelivery(data, delivery) : data));
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
          const answer = (await dashboardClient().call(acknowledgeDeliveriesContract, { body: { ids: batch } })).data;
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
      rollback(queryClient, context, ids.filter((id) => !committed.has(id)));
    },
    // Ids the server did not find (deleted with their endpoint meanwhile) were not acknowledged: show them as they were.
    onSuccess: (result, _ids, context) => rollback(queryClient, context, result.notFound),
    onSettled: () => afterAck(queryClient, workspaceId),
  });
}

/**
 * Live updates: follows the workspace's server-sent delivery events (lib/client/delivery-events.ts) and reconnects
 * when the stream drops; polling in `useNewDeliveries` covers the gaps. A `delivery.created` event refreshes the
 * polled first page at once (the "N new" indicator; rows stay put); `delivery.acknowledged` for a row on screen that
 * still shows Pending (acknowledged elsewhere: another tab, the API) reloads that row in place.
 */
export function useLiveDeliveries(filters: DeliveryFilters) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const listKey = queryKeys.deliveries.list(workspaceId ?? null, filters);

  const onEvent = useEffectEvent((event: DeliveryEventMessage, batch: EventBatch) => {
    if (filters.endpointId && event.endpointId !== filters.endpointId) return;
    if (event.type === "delivery.created") batch.created = true;
    else {
      const row = findDelivery(queryClient.getQueryData<ListData>(listKey), event.deliveryId);
      if (row && row.acknowledgedAt === null) batch.acknowledged.add(event.deliveryId);
    }
  });

  const flush = useEffectEvent((batch: EventBatch) => {
    if (batch.created) void queryClient.refetchQueries({ queryKey: [...listKey, "latest"], exact: true, type: "active" });
    void queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId ?? null) });
    // A bulk acknowledgement elsewhere can be many events: reload a few rows, leave the rest to the next visit.
    for (const id of [...batch.acknowledged].slice(0, LIVE_ROW_RELOADS)) {
      dashboardClient()
        .call(getDeliveryContract, { params: { id } })
        .then(({ data }) => queryClient.setQueryData<ListData>(listKey, (list) => (list ? replaceDelivery(list, data) : list)))
        .catch(() => undefined); // gone meanwhile: nothing to show
    }
  });

  useEffect(() => {
    if (workspaceId === undefined) return;
    const controller = new AbortController();
    let batch: EventBatch = { created: false, acknowledged: new Set() };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const receive = (event: DeliveryEventMessage) => {
      onEvent(event, batch);
      // Coalesce bursts (a bulk ack, a sender's retry storm) into one refresh.
      timer ??= setTimeout(() => {
        timer = undefined;
        const done = batch;
        batch = { created: false, acknowledged: new Set() };
        flush(done);
      }, EVENT_BATCH_MS);
    };
    void (async () => {
      for (let attempt = 0; !controller.signal.aborted; attempt += 1) {
        try {
          await followDeliveryEvents({ headers: dashboardHeaders(), signal: controller.signal, onEvent: receive });
          attempt = 0;
        } catch {
          // Stream refused or dropped; the poll keeps the page current until it is back.
        }
        await sleep(reconnectDelayMs(attempt), controller.signal);
      }
    })();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // One stream per workspace; the filters are read per event (a filter change does not reconnect).
  }, [workspaceId]);
}

interface EventBatch {
  created: boolean;
  acknowledged: Set<string>;
}

const EVENT_BATCH_MS = 200;
const LIVE_ROW_RELOADS = 20;

/** 1 s, 2 s, 4 s … up to 30 s between reconnection attempts. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
