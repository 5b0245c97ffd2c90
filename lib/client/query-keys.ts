/** The deliveries list's filters, as the API's query string takes them. */
type DeliveryListFilters = {
  endpointId?: string;
  unacknowledged?: "true" | "false";
  eventType?: string;
  q?: string;
  since?: string;
  until?: string;
  payload?: string;
};

/**
 * react-query keys, one factory per resource (`all → lists() → list(input)`), scoped by workspace so switching
 * workspaces never shows another workspace's cached data. Every key the dashboard uses comes from here. A key built
 * on another (`latest` on `list`, `rawText` on `detail`, `options` on `endpoints.all`) is matched when the shorter
 * one is used as a prefix (invalidating `deliveries.all` reaches all of them), never when it is used with `exact: true`.
 */
export const queryKeys = {
  workspace: (workspaceId: string | null) => ["workspace", workspaceId] as const,
  workspaces: () => ["workspaces"] as const,
  /** The signed-in user (GET /v1/me): theirs, not a workspace's. */
  me: () => ["me"] as const,
  deliveries: {
    all: (workspaceId: string | null) => ["deliveries", workspaceId] as const,
    lists: (workspaceId: string | null) => [...queryKeys.deliveries.all(workspaceId), "list"] as const,
    list: (workspaceId: string | null, filters: DeliveryListFilters) =>
      [...queryKeys.deliveries.lists(workspaceId), filters] as const,
    /** The list's first page, polled for new arrivals; kept apart from the list so polling never moves its rows. */
    latest: (workspaceId: string | null, filters: DeliveryListFilters) =>
      [...queryKeys.deliveries.list(workspaceId, filters), "latest"] as const,
    /** The event types received, of one endpoint or (`endpointId` null) the workspace, for the filter bar. */
    eventTypes: (workspaceId: string | null, endpointId: string | null) =>
      [...queryKeys.deliveries.all(workspaceId), "event-types", endpointId] as const,
    detail: (workspaceId: string | null, id: string) =>
      [...queryKeys.deliveries.all(workspaceId), "detail", id] as const,
    /** A delivery's exact body as text (for "copy as curl"). */
    rawText: (workspaceId: string | null, id: string) =>
      [...queryKeys.deliveries.detail(workspaceId, id), "raw-text"] as const,
    /** A delivery's forwards and their attempts (the drawer's Forwarding part). */
    attempts: (workspaceId: string | null, id: string) =>
      [...queryKeys.deliveries.detail(workspaceId, id), "attempts"] as const,
  },
  endpoints: {
    all: (workspaceId: string | null) => ["endpoints", workspaceId] as const,
    list: (workspaceId: string | null) => [...queryKeys.endpoints.all(workspaceId), "list"] as const,
    /** The first 100 endpoints in one page, for the deliveries page's filter and counts (the Endpoints page pages `list`). */
    options: (workspaceId: string | null) => [...queryKeys.endpoints.all(workspaceId), "options"] as const,
  },
  /**
   * One endpoint's destinations. Not under `endpoints.all`: refreshing the endpoints after deleting one would ask
   * for the deleted endpoint's destinations (a 404) while its card is still shown.
   */
  destinations: {
    all: (workspaceId: string | null) => ["destinations", workspaceId] as const,
    list: (workspaceId: string | null, endpointId: string) =>
      [...queryKeys.destinations.all(workspaceId), endpointId] as const,
  },
  /** One endpoint's refused ingest requests; apart from `endpoints.all` for the same reason as `destinations`. */
  rejections: {
    all: (workspaceId: string | null) => ["rejections", workspaceId] as const,
    list: (workspaceId: string | null, endpointId: string) =>
      [...queryKeys.rejections.all(workspaceId), endpointId] as const,
  },
  apiKeys: {
    all: (workspaceId: string | null) => ["api-keys", workspaceId] as const,
  },
  usage: (workspaceId: string | null, days: number) => ["usage", workspaceId, days] as const,
  members: {
    all: (workspaceId: string | null) => ["members", workspaceId] as const,
    list: (workspaceId: string | null) => [...queryKeys.members.all(workspaceId), "list"] as const,
    /** Pending invitations into the workspace (owners only). */
    invitations: (workspaceId: string | null) => [...queryKeys.members.all(workspaceId), "invitations"] as const,
  },
  /** The operator pages show the whole server, whichever workspace is selected. */
  operator: {
    all: () => ["operator"] as const,
    workspaceLists: () => [...queryKeys.operator.all(), "workspaces"] as const,
    workspaces: (search: string) => [...queryKeys.operator.workspaceLists(), search] as const,
    signUpInvitations: () => [...queryKeys.operator.all(), "sign-up-invitations"] as const,
    unknownEndpointRequests: () => [...queryKeys.operator.all(), "unknown-endpoint-requests"] as const,
  },
};
