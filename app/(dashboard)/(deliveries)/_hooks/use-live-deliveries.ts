"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useEffectEvent } from "react";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient, dashboardHeaders } from "@/lib/client/dashboard-client";
import { followDeliveryEvents, type DeliveryEventMessage } from "@/lib/client/delivery-events";
import { queryKeys } from "@/lib/client/query-keys";
import { getDeliveryContract } from "@/lib/contracts/webhooks";
import { findDelivery, replaceDelivery } from "../_lib/delivery-pages";
import type { DeliveryFilters } from "../_lib/types";
import type { DeliveryListData } from "./use-delivery-list";

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
      const row = findDelivery(queryClient.getQueryData<DeliveryListData>(listKey), event.deliveryId);
      if (row && row.acknowledgedAt === null) batch.acknowledged.add(event.deliveryId);
    }
  });

  const flush = useEffectEvent((batch: EventBatch) => {
    if (batch.created)
      void queryClient.refetchQueries({
        queryKey: queryKeys.deliveries.latest(workspaceId ?? null, filters),
        exact: true,
        type: "active",
      });
    void queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId ?? null) });
    // A bulk acknowledgement elsewhere can be many events: reload a few rows, leave the rest to the next visit.
    for (const id of [...batch.acknowledged].slice(0, LIVE_ROW_RELOADS)) {
      dashboardClient()
        .call(getDeliveryContract, { params: { id } })
        .then(({ data }) =>
          queryClient.setQueryData<DeliveryListData>(listKey, (list) => (list ? replaceDelivery(list, data) : list)),
        )
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
