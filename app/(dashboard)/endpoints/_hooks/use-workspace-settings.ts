"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import type { ClientInput } from "@/lib/contracts/contract";
import { getWorkspaceContract, updateWorkspaceContract } from "@/lib/contracts/workspace";

export type UpdateWorkspaceBody = ClientInput<typeof updateWorkspaceContract>["body"];

/** The workspace's own settings (GET /v1/workspace): its default delivery retention. */
export function useWorkspaceSettings() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.workspace(workspaceId ?? null),
    queryFn: async () => (await dashboardClient().call(getWorkspaceContract, {})).data.workspace,
    enabled: workspaceId !== undefined,
  });
}

/** Changes the workspace's settings; the endpoints' effective retention follows the default, so they refresh too. */
export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return useMutation({
    mutationFn: (body: UpdateWorkspaceBody) => dashboardClient().call(updateWorkspaceContract, { body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.workspace(workspaceId), answer.data.workspace);
      return queryClient.invalidateQueries({ queryKey: queryKeys.endpoints.all(workspaceId) });
    },
  });
}
