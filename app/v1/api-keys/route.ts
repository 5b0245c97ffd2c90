import { route } from "@/lib/api/route";
import { ApiError } from "@/lib/errors";
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { createApiKeyContract, listApiKeysContract } from "@/lib/contracts/workspace-admin";
import { toApiKeyResource } from "./api-key-resource";

// GET /v1/api-keys — the workspace's keys (never their secrets).
export const GET = route(listApiKeysContract, async ({ auth }) => ({
  success: true as const,
  data: { apiKeys: (await listApiKeys({ workspaceId: auth.workspace.id })).map(toApiKeyResource) },
}));

// POST /v1/api-keys — a new key; the secret is in this answer only.
export const POST = route(createApiKeyContract, async ({ auth, body }) => {
  // A live key spends the workspace's money: owners make those; members make test keys. (A test key never gets here:
  // it lacks the keys:admin scope.)
  if (body.mode === "live" && auth.role === "member")
    throw new ApiError("forbidden", "Only an owner of this workspace can create live keys; members create test keys.");
  const { key, apiKey } = await createApiKey({
    workspaceId: auth.workspace.id,
    name: body.name,
    mode: body.mode,
    scopes: body.scopes,
    createdByUserId: auth.userId ?? undefined,
  });
  return { success: true as const, data: { key, apiKey: toApiKeyResource(apiKey) } };
});
