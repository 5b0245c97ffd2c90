"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import type { ClientInput } from "@/lib/contracts/contract";
import {
  createWebhookEndpointContract,
  deleteWebhookEndpointContract,
  listWebhookEndpointsContract,
  updateWebhookEndpointContract,
  type webhookEndpointSchema,
} from "@/lib/contracts/webhooks";
import { sendTestDelivery, type TestDeliveryTarget } from "../_lib/test-delivery";

export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type CreateEndpointBody = ClientInput<typeof createWebhookEndpointContract>["body"];
export type UpdateEndpointBody = ClientInput<typeof updateWebhookEndpointContract>["body"];

const PAGE_SIZE = 20;

/** The workspace's endpoints, newest first, a page at a time over `nextCursor`. */
export function useEndpointList() {
  const workspaceId = useWorkspaceId();
  const query = useInfiniteQuery({
    queryKey: queryKeys.endpoints.list(workspaceId ?? null),
    queryFn: ({ pageParam }) =>
      dashboardClient().call(listWebhookEndpointsContract, { query: { limit: PAGE_SIZE, cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.data.nextCursor ?? undefined,
    enabled: workspaceId !== undefined,
  });
  const endpoints = query.data?.pages.flatMap((page) => page.data.endpoints) ?? [];
  return { ...query, endpoints };
}

/** Endpoint changes only touch the endpoint lists; deleting or ingesting also changes the deliveries. */
function useInvalidate() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return (options: { deliveries: boolean }) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId) }),
      options.deliveries
        ? queryClient.invalidateQueries({ queryKey: queryKeys.deliveries.all(workspaceId) })
        : undefined,
    ]);
}

export function useCreateEndpoint() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: CreateEndpointBody) => dashboardClient().call(createWebhookEndpointContract, { body }),
    onSuccess: () => invalidate({ deliveries: false }),
  });
}

export function useUpdateEndpoint(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: UpdateEndpointBody) =>
      dashboardClient().call(updateWebhookEndpointContract, { params: { id }, body }),
    onSuccess: () => invalidate({ deliveries: false }),
  });
}

export function useDeleteEndpoint(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => dashboardClient().call(deleteWebhookEndpointContract, { params: { id } }),
    onSuccess: () => invalidate({ deliveries: true }),
  });
}

export function useSendTestDelivery(endpoint: TestDeliveryTarget) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => sendTestDelivery(endpoint),
    // Refused tests change nothing, but refreshing is cheap and keeps the counts honest either way.
    onSettled: () => invalidate({ deliveries: true }),
  });
}
