import { route } from "@/lib/api/route";
import { listUserWorkspaces } from "@/lib/auth/users";
import { listWorkspacesContract } from "@/lib/contracts/workspace-admin";

// GET /v1/workspaces — the signed-in user's workspaces (a key sees only its own).
export const GET = route(listWorkspacesContract, async ({ auth }) => ({
  success: true as const,
  data: {
    workspaces: auth.userId
      ? await listUserWorkspaces(auth.userId)
      : [{ id: auth.workspace.id, name: auth.workspace.name, role: "member" as const }],
  },
}));
