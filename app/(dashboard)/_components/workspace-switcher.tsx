"use client";

import { useEffect, useId } from "react";
import {
  currentWorkspace,
  isUnknownWorkspaceError,
  useSwitchWorkspace,
  useWorkspaceId,
  useWorkspaces,
} from "../_hooks/use-workspace";

/**
 * Picks the workspace every page acts in. A stored choice the user no longer belongs to (or another user's, on a
 * shared browser) answers 404: fall back to the user's default workspace.
 */
export function WorkspaceSwitcher() {
  const id = useId();
  const workspaceId = useWorkspaceId();
  const switchWorkspace = useSwitchWorkspace();
  const workspaces = useWorkspaces();
  const stale = workspaceId && isUnknownWorkspaceError(workspaces.error);

  useEffect(() => {
    if (stale) {
      switchWorkspace(null);
      void workspaces.refetch();
    }
  }, [stale, switchWorkspace, workspaces]);

  const list = workspaces.data ?? [];
  const current = currentWorkspace(list, workspaceId);

  if (!current) {
    return (
      <span className="shell-workspace muted" aria-live="polite">
        {workspaces.isError ? "Workspaces unavailable" : "Loading workspace…"}
      </span>
    );
  }
  if (list.length === 1) {
    return (
      <span className="shell-workspace" title="Workspace">
        <span className="visually-hidden">Workspace: </span>
        {current.name}
      </span>
    );
  }
  return (
    <span className="shell-workspace">
      <label htmlFor={id} className="visually-hidden">
        Workspace
      </label>
      <select id={id} className="select" value={current.id} onChange={(event) => switchWorkspace(event.target.value)}>
        {list.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
    </span>
  );
}
