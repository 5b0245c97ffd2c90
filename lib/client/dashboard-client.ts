import { DASHBOARD_HEADER, WORKSPACE_HEADER } from "@/lib/contracts/dashboard-headers";
import { createApiClient } from "./api-client";

const WORKSPACE_STORAGE_KEY = "signalbox.workspace";

export function selectedWorkspaceId(): string | null {
  return typeof window === "undefined" ? null : window.localStorage.getItem(WORKSPACE_STORAGE_KEY);
}

export function selectWorkspace(workspaceId: string): void {
  window.localStorage.setItem(WORKSPACE_STORAGE_KEY, workspaceId);
}

/**
 * The typed client as the dashboard uses it: same-origin, authenticated by the session cookie, with the header that
 * proves the request comes from our pages (CSRF) and the workspace the user selected.
 */
export function dashboardHeaders(): Record<string, string> {
  const workspaceId = selectedWorkspaceId();
  return { [DASHBOARD_HEADER]: "1", ...(workspaceId ? { [WORKSPACE_HEADER]: workspaceId } : {}) };
}

export function dashboardClient() {
  return createApiClient({ headers: dashboardHeaders() });
}
