"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { ApiKeyScope } from "@/lib/contracts/scopes";
import { useWorkspaceId } from "@/app/(dashboard)/_hooks/use-workspace";
import { dashboardClient } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import {
  type apiKeySchema,
  createApiKeyContract,
  listApiKeysContract,
  revokeApiKeyContract,
} from "@/lib/contracts/workspace-admin";

export type ApiKey = z.output<typeof apiKeySchema>;

export function useApiKeys() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.apiKeys.all(workspaceId ?? null),
    queryFn: () => dashboardClient().call(listApiKeysContract, {}),
    select: (answer) => answer.data.apiKeys,
    enabled: workspaceId !== undefined,
  });
}

function useInvalidateApiKeys() {
  const queryClient = useQueryClient();
  const workspaceId = useWorkspaceId() ?? null;
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all(workspaceId) });
}

export function useCreateApiKey() {
  const invalidate = useInvalidateApiKeys();
  return useMutation({
    mutationFn: (body: { name: string; mode: "live" | "test"; scopes: ApiKeyScope[] }) =>
      dashboardClient().call(createApiKeyContract, { body }),
    onSuccess: invalidate,
  });
}

export function useRevokeApiKey() {
  const invalidate = useInvalidateApiKeys();
  return useMutation({
    mutationFn: (id: string) => dashboardClient().call(revokeApiKeyContract, { params: { id } }),
    onSuccess: invalidate,
  });
}
