"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import {
  createSignUpInvitationContract,
  creditWorkspaceContract,
  getUnknownEndpointRequestsContract,
  listOperatorWorkspacesContract,
  listSignUpInvitationsContract,
  revokeSignUpInvitationContract,
} from "@/lib/contracts/operator";

export type OperatorWorkspace = z.output<typeof creditWorkspaceContract.response>["data"];
type SignUpInvitations = z.output<typeof listSignUpInvitationsContract.response>["data"];

/** Every workspace on the server (at most 100), narrowed by `search` (name, id or owner email). */
export function useOperatorWorkspaces(search: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.operator.workspaces(search),
    queryFn: async () =>
      (await dashboardClient().call(listOperatorWorkspacesContract, { query: { q: search || undefined } })).data
        .workspaces,
    // While a new search loads, the last answer stays on screen.
    placeholderData: keepPreviousData,
    // Balances move with every live call on the server: show them as they are whenever the page opens.
    refetchOnMount: "always",
    enabled: workspaceId !== undefined,
  });
}

/** Ingest requests for endpoint ids that exist nowhere, counted by the instance that answers, since it started. */
export function useUnknownEndpointRequests() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.operator.unknownEndpointRequests(),
    queryFn: async () => (await dashboardClient().call(getUnknownEndpointRequestsContract, {})).data,
    refetchOnMount: "always",
    enabled: workspaceId !== undefined,
  });
}

/** Adds to a workspace's purchased balance; answers the workspace with its new balances. */
export function useCreditWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { workspaceId: string; amountCents: number; note?: string }) =>
      (
        await dashboardClient().call(creditWorkspaceContract, {
          params: { id: input.workspaceId },
          body: { amountCents: input.amountCents, note: input.note },
        })
      ).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.operator.workspaceLists() }),
  });
}

export function useSignUpInvitations() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.operator.signUpInvitations(),
    queryFn: async () => (await dashboardClient().call(listSignUpInvitationsContract, {})).data,
    enabled: workspaceId !== undefined,
  });
}

export function useCreateSignUpInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string) =>
      (await dashboardClient().call(createSignUpInvitationContract, { body: { email } })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.operator.signUpInvitations() }),
  });
}

export function useRevokeSignUpInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (await dashboardClient().call(revokeSignUpInvitationContract, { params: { id } })).data,
    // The answer is the list as it is now: store it rather than fetching it again.
    onSuccess: (answer: SignUpInvitations) => queryClient.setQueryData(queryKeys.operator.signUpInvitations(), answer),
  });
}
