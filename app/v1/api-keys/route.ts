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
  // A live key spends the workspace's money: owners make those; members make test keys. A test key cannot make one
  // either, or a member could turn their test key into a live one.
  if (body.mode === "live" && (auth.role === "member" || auth.mode === "test"))
    throw new ApiError(
      "forbidden",
      "Only an owner of this workspace (or a live key) can create live keys; members and test keys can create test keys.",
    );
  const { key, apiKey } = await createApiKey({
    workspaceId: auth.workspace.id,
    name: body.name,
    mode: body.mode,
    scopes: body.scopes,
    createdByUserId: auth.userId ?? undefined,
  });
  return { success: true as const, data: { key, apiKey: toApiKeyResource(apiKey) } };
});
