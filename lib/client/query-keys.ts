/**
 * react-query keys, one factory per resource (`all → lists() → list(input)`), scoped by workspace so switching
 * workspaces never shows another workspace's cached data.
 */
export const queryKeys = {
  workspace: (workspaceId: string | null) => ["workspace", workspaceId] as const,
  workspaces: () => ["workspaces"] as const,
  deliveries: {
    all: (workspaceId: string | null) => ["deliveries", workspaceId] as const,
    lists: (workspaceId: string | null) => [...queryKeys.deliveries.all(workspaceId), "list"] as const,
    list: (workspaceId: string | null, filters: { endpointId?: string; unacknowledged?: "true" | "false" }) =>
      [...queryKeys.deliveries.lists(workspaceId), filters] as const,
    detail: (workspaceId: string | null, id: string) => [...queryKeys.deliveries.all(workspaceId), "detail", id] as const,
  },
  endpoints: {
    all: (workspaceId: string | null) => ["endpoints", workspaceId] as const,
    list: (workspaceId: string | null) => [...queryKeys.endpoints.all(workspaceId), "list"] as const,
  },
  apiKeys: {
    all: (workspaceId: string | null) => ["api-keys", workspaceId] as const,
  },
  usage: (workspaceId: string | null, days: number) => ["usage", workspaceId, days] as const,
};
