import type { z } from "zod";
import type { ApiKeyScope } from "@/lib/contracts/scopes";
import type { apiKeySchema } from "@/lib/contracts/workspace-admin";

interface StoredApiKey {
  id: string;
  name: string;
  mode: "live" | "test";
  start: string;
  scopes: ApiKeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * A key as the API shows it: exactly the documented fields, whatever the database row carries besides (a created
 * key's row has its workspace and creator too, which clients already know and the contract does not declare).
 */
export function toApiKeyResource(key: StoredApiKey): z.output<typeof apiKeySchema> {
  return {
    id: key.id,
    name: key.name,
    mode: key.mode,
    start: key.start,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
