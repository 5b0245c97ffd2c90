import { ApiError } from "@/lib/errors";
import { route } from "@/lib/api/route";
import { findApiKey, revokeApiKey } from "@/lib/auth/api-keys";
import { revokeApiKeyContract } from "@/lib/contracts/workspace-admin";
import { toApiKeyResource } from "../api-key-resource";

// DELETE /v1/api-keys/:id — revoke a key; it stops working at once.
export const DELETE = route(revokeApiKeyContract, async ({ auth, params }) => {
  await revokeApiKey({ workspaceId: auth.workspace.id, apiKeyId: params.id });
  const key = await findApiKey({ workspaceId: auth.workspace.id, apiKeyId: params.id });
  if (!key) throw new ApiError("not_found", "No such API key.");
  return { success: true as const, data: toApiKeyResource(key) };
});
