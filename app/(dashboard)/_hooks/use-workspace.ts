"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { ApiClientError } from "@/lib/client/api-client";
import { dashboardClient, selectedWorkspaceId, selectWorkspace } from "@/lib/client/dashboard-client";
import { queryKeys } from "@/lib/client/query-keys";
import { listWorkspacesContract } from "@/lib/contracts/workspace-admin";

// The selection lives in localStorage (lib/client/dashboard-client.ts). A "storage" event tells other tabs; in this
// tab, switching dispatches one itself, so every subscriber (these hooks and any page's own) sees the change.
function subscribe(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

function readSelection(): string | null {
  // An empty string is how "no selection" is stored (dashboard-client has no way to remove the entry).
  return selectedWorkspaceId() || null;
}

/**
 * The workspace the dashboard acts in, for query keys: `undefined` until the browser is known (server render and
 * hydration), then the stored id or `null` (the server then uses the user's first workspace). Queries wait for a
 * value other than `undefined`, so a page does not fetch once under a `null` key and again under the real one.
 */
export function useWorkspaceId(): string | null | undefined {
  return useSyncExternalStore<string | null | undefined>(subscribe, readSelection, () => undefined);
}

// Bumped on every switch; the shell keys the page by it, so a page's local state (selection, filters, open
// dialogs) starts over in the new workspace instead of pointing at the old one's rows.
let generation = 0;
const generationListeners = new Set<() => void>();

export function useWorkspaceGeneration(): number {
  return useSyncExternalStore(
    (onChange) => {
      generationListeners.add(onChange);
      return () => generationListeners.delete(onChange);
    },
    () => generation,
    () => 0,
  );
}

/** Remembers a workspace choice (`null`: the default one) and tells every subscriber in this tab. */
export function storeWorkspaceSelection(workspaceId: string | null): void {
  selectWorkspace(workspaceId ?? "");
  window.dispatchEvent(new StorageEvent("storage"));
}

/** Switches the dashboard to another workspace: stores the choice and drops every cached answer of the old one. */
export function useSwitchWorkspace(): (workspaceId: string | null) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (workspaceId: string | null) => {
      if (workspaceId === readSelection()) return;
      storeWorkspaceSelection(workspaceId);
      generation += 1;
      for (const listener of generationListeners) listener();
      // Drop every answer of the old workspace (the pages remount and fetch under the new keys). Removing rather
      // than refetching: a refetch of a query still keyed by the old workspace would store the new one's data there.
      // The workspace list is the user's, not the workspace's: it stays (the switcher would flash otherwise).
      const predicate = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== queryKeys.workspaces()[0];
      void queryClient.cancelQueries({ predicate });
      queryClient.removeQueries({ predicate });
    },
    [queryClient],
  );
}

/** The workspaces the signed-in user belongs to. */
export function useWorkspaces() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: queryKeys.workspaces(),
    queryFn: async () => (await dashboardClient().call(listWorkspacesContract, {})).data.workspaces,
    enabled: workspaceId !== undefined,
    staleTime: 60_000,
  });
}

/** A stored workspace the user no longer belongs to (or another user's, on a shared browser) answers 404. */
export function isUnknownWorkspaceError(error: unknown): boolean {
  return error instanceof ApiClientError && error.status === 404;
}

/** The workspace the dashboard acts in: the stored choice, or with none stored the user's first (as the server picks). */
export function currentWorkspace<W extends { id: string }>(
  workspaces: readonly W[],
  workspaceId: string | null | undefined,
): W | undefined {
  return workspaces.find((workspace) => workspace.id === workspaceId) ?? workspaces[0];
}

/** The selected workspace with the user's role in it; undefined while the list loads (or when it failed). */
export function useCurrentWorkspace() {
  const workspaceId = useWorkspaceId();
  return currentWorkspace(useWorkspaces().data ?? [], workspaceId);
}
