import { ApiError } from "@/lib/errors";
import { route } from "@/lib/api/route";
import { findApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { revokeApiKeyContract } from "@/lib/contracts/workspace-admin";
import { toApiKeyResource } from "../api-key-resource";

// DELETE /v1/api-keys/:id — revoke a key; it stops working at once. Members revoke test keys only (test keys lack the
// keys:admin scope and never get here).
export const DELETE = route(revokeApiKeyContract, async ({ auth, params }) => {
  const found = await findApiKey({ workspaceId: auth.workspace.id, apiKeyId: params.id });
  if (!found) throw new ApiError("not_found", "No such API key.");
  if (found.mode === "live" && auth.role === "member")
    throw new ApiError("forbidden", "Only an owner of this workspace can revoke live keys.");
  await revokeApiKey({ workspaceId: auth.workspace.id, apiKeyId: params.id });
  const key = await findApiKey({ workspaceId: auth.workspace.id, apiKeyId: params.id });
  return { success: true as const, data: toApiKeyResource(key ?? found) };
});
