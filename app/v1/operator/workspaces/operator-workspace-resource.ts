import type { listAllWorkspaces } from "@/lib/auth/operators";

type ListedWorkspace = Awaited<ReturnType<typeof listAllWorkspaces>>[number];

/** A workspace as the operator pages show it. */
export const operatorWorkspaceResource = (workspace: ListedWorkspace) => ({
  ...workspace,
  createdAt: workspace.createdAt.toISOString(),
});
