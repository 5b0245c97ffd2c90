"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import type { ClientInput } from "@/lib/contracts/contract";
import {
  createDestinationContract,
  deleteDestinationContract,
  updateDestinationContract,
} from "@/lib/contracts/forwarding";
import type { DestinationBody } from "../_lib/destination-form";

export type UpdateDestinationBody = NonNullable<ClientInput<typeof updateDestinationContract>["body"]>;

/** Changing an endpoint's destinations only changes its destination list. */
function useInvalidateDestinations(endpointId: string) {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.destinations.list(workspaceId, endpointId) });
}

/** Resolves to the new destination with its signing secret, which no later answer carries. */
export function useCreateDestination(endpointId: string) {
  const invalidate = useInvalidateDestinations(endpointId);
  return useMutation({
    mutationFn: async (body: DestinationBody) =>
      (await dashboardClient().call(createDestinationContract, { params: { id: endpointId }, body })).data,
    onSuccess: () => invalidate(),
  });
}

export function useUpdateDestination(endpointId: string, destinationId: string) {
  const invalidate = useInvalidateDestinations(endpointId);
  return useMutation({
    mutationFn: async (body: UpdateDestinationBody) =>
      (
        await dashboardClient().call(updateDestinationContract, {
          params: { id: endpointId, destinationId },
          body,
        })
      ).data,
    onSuccess: () => invalidate(),
  });
}

export function useDeleteDestination(endpointId: string, destinationId: string) {
  const invalidate = useInvalidateDestinations(endpointId);
  return useMutation({
    mutationFn: () => dashboardClient().call(deleteDestinationContract, { params: { id: endpointId, destinationId } }),
    onSuccess: () => invalidate(),
  });
}
