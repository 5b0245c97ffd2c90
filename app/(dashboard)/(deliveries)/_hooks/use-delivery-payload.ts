"use client";

import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { getDeliveryContract } from "@/lib/contracts/webhooks";
import type { Delivery } from "../_lib/types";

export type PayloadState =
  | {
      state: "ready";
      payload: unknown;
      formFields: Delivery["formFields"];
      contentDecoding: Delivery["contentDecoding"];
    }
  | { state: "loading" }
  | { state: "failed"; message: string };

/**
 * A delivery's payload for the drawer. The list is fetched without payloads (a page of large deliveries would be
 * megabytes), so the payload is fetched when a delivery is opened; rows that came with one (live updates fetch whole
 * deliveries) need no request. Payloads never change: cached for good.
 */
export function useDeliveryPayload(delivery: Delivery): PayloadState {
  const workspaceId = useWorkspaceId();
  // JSON has no undefined: a payload that is absent was left out, never an empty body.
  const carried = delivery.rawPayload !== undefined;
  const detail = useQuery({
    queryKey: queryKeys.deliveries.detail(workspaceId ?? null, delivery.id),
    queryFn: async () => (await dashboardClient().call(getDeliveryContract, { params: { id: delivery.id } })).data,
    enabled: workspaceId !== undefined && !carried,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const ready = ({ rawPayload, formFields, contentDecoding }: Delivery) =>
    ({ state: "ready", payload: rawPayload, formFields, contentDecoding }) as const;
  if (carried) return ready(delivery);
  if (detail.data) return ready(detail.data);
  if (detail.error) return { state: "failed", message: detail.error.message };
  return { state: "loading" };
}
