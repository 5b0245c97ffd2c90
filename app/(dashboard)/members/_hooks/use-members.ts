"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { Invitation } from "@/app/(dashboard)/_components/pending-invitations";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import {
  createInvitationContract,
  listInvitationsContract,
  listMembersContract,
  type memberSchema,
  removeMemberContract,
  revokeInvitationContract,
  updateMemberContract,
} from "@/lib/contracts/members";
import type { Role } from "../_lib/roles";

export type Member = z.output<typeof memberSchema>;

export function useMembers() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.members.list(workspaceId ?? null),
    queryFn: async () => (await dashboardClient().call(listMembersContract, {})).data.members,
    enabled: workspaceId !== undefined,
  });
}

/** Pending invitations; only owners may list them (the page shows them to owners only). */
export function useInvitations() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.members.invitations(workspaceId ?? null),
    queryFn: async () => (await dashboardClient().call(listInvitationsContract, {})).data.invitations,
    enabled: workspaceId !== undefined,
  });
}

/**
 * Membership changes answer the new member list: store it rather than fetching it again. (Removing oneself is leaving:
 * the page then moves to another workspace, which drops this one's answers.)
 */
function useStoreMembers() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return (members: Member[]) => queryClient.setQueryData(queryKeys.members.list(workspaceId), members);
}

export function useChangeRole() {
  const store = useStoreMembers();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { userId: string; role: Role }) =>
      (
        await dashboardClient().call(updateMemberContract, {
          params: { userId: input.userId },
          body: { role: input.role },
        })
      ).data.members,
    onSuccess: (members) => {
      store(members);
      // The user may have changed their own role, which the workspace list carries (and the pages act on).
      return queryClient.invalidateQueries({ queryKey: queryKeys.workspaces() });
    },
  });
}

export function useRemoveMember() {
  const store = useStoreMembers();
  return useMutation({
    mutationFn: async (userId: string) =>
      (await dashboardClient().call(removeMemberContract, { params: { userId } })).data.members,
    onSuccess: store,
  });
}

function useStoreInvitations() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return {
    store: (invitations: Invitation[]) =>
      queryClient.setQueryData(queryKeys.members.invitations(workspaceId), invitations),
    invalidate: () => queryClient.invalidateQueries({ queryKey: queryKeys.members.invitations(workspaceId) }),
  };
}

export function useCreateInvitation() {
  const { invalidate } = useStoreInvitations();
  return useMutation({
    mutationFn: async (body: { email: string; role: Role }) =>
      (await dashboardClient().call(createInvitationContract, { body })).data,
    onSuccess: invalidate,
  });
}

export function useRevokeInvitation() {
  const { store } = useStoreInvitations();
  return useMutation({
    mutationFn: async (id: string) =>
      (await dashboardClient().call(revokeInvitationContract, { params: { id } })).data.invitations,
    onSuccess: store,
  });
}
