import { createHash, timingSafeEqual } from "node:crypto";
import { db, type DbClient } from "@/lib/db/client";
import type { ApiKeyMode } from "@/lib/db/generated/enums";
import { API_KEY_SCOPES, allowedScopes, knownScopes, type ApiKeyScope } from "@/lib/contracts/scopes";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { createId, randomBase62 } from "@/lib/ids";

export const API_KEY_PATTERN = /^sbx_(live|test)_[0-9A-Za-z]{32,64}$/;
// 40 base62 characters carry 238 random bits (the floor is 192).
const SECRET_LENGTH = 40;
// `lastUsedAt` is written at most this often per key, so a busy key does not write on every request.
const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** A fresh secret: the full key (shown once), its hash (stored) and a display prefix (stored, shown in lists). */
export function generateApiKey(mode: ApiKeyMode): { key: string; hashedKey: string; start: string } {
  const key = `sbx_${mode}_${randomBase62(SECRET_LENGTH)}`;
  return { key, hashedKey: hashApiKey(key), start: key.slice(0, `sbx_${mode}_`.length + 4) };
}

interface CreateApiKeyOptions {
  workspaceId: string;
  name: string;
  mode: ApiKeyMode;
  /** Defaults to every scope the mode allows (a test key never gets keys:admin). */
  scopes?: readonly ApiKeyScope[];
  createdByUserId?: string;
  /** Run inside a caller's transaction. */
  client?: DbClient;
}

/**
 * Creates a key and returns the full secret, which is never retrievable again. At most MAX_API_KEYS_PER_WORKSPACE
 * unrevoked keys per workspace: each key has its own rate limit, so minting keys must not multiply it without bound.
 */
export async function createApiKey(options: CreateApiKeyOptions) {
  const allowed = allowedScopes(options.mode);
  const scopes = [...new Set(options.scopes ?? allowed)];
  const refused = scopes.filter((scope) => !allowed.includes(scope));
  if (refused.length)
    throw new ApiError("validation_error", `A ${options.mode} key cannot have ${refused.join(", ")}.`, {
      details: [{ path: "scopes", message: `${refused.join(", ")} is not allowed for a ${options.mode} key` }],
    });
  const { key, hashedKey, start } = generateApiKey(options.mode);
  const create = async (client: DbClient) => {
    await client.$executeRaw`SELECT id FROM workspaces WHERE id = ${options.workspaceId} FOR UPDATE`;
    const active = await client.apiKey.count({ where: { workspaceId: options.workspaceId, revokedAt: null } });
    const limit = env().MAX_API_KEYS_PER_WORKSPACE;
    if (active >= limit)
      throw new ApiError(
        "validation_error",
        `This workspace has ${active} active API keys, the most it may have (MAX_API_KEYS_PER_WORKSPACE=${limit}). Revoke one first.`,
      );
    return client.apiKey.create({
      data: {
        id: createId("key"),
        workspaceId: options.workspaceId,
        name: options.name,
        mode: options.mode,
        hashedKey,
        start,
        scopes: API_KEY_SCOPES.filter((scope) => scopes.includes(scope)),
        createdByUserId: options.createdByUserId,
      },
      omit: { hashedKey: true },
    });
  };
  const record = await (options.client ? create(options.client) : db().$transaction(create));
  return { key, apiKey: withKnownScopes(record) };
}

export async function revokeApiKey(options: { workspaceId: string; apiKeyId: string }): Promise<boolean> {
  const { count } = await db().apiKey.updateMany({
    where: { id: options.apiKeyId, workspaceId: options.workspaceId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

const listedColumns = {
  id: true,
  name: true,
  mode: true,
  start: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

const withKnownScopes = <Row extends { scopes: string[] }>(row: Row) => ({ ...row, scopes: knownScopes(row.scopes) });

/** A workspace's keys, newest first, revoked ones included; never a secret or a hash. */
export async function listApiKeys(options: { workspaceId: string }) {
  const keys = await db().apiKey.findMany({
    where: { workspaceId: options.workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: listedColumns,
  });
  return keys.map(withKnownScopes);
}

/** One key of the workspace, or null (another workspace's key is as unknown as a missing one). */
export async function findApiKey(options: { workspaceId: string; apiKeyId: string }) {
  const key = await db().apiKey.findFirst({
    where: { id: options.apiKeyId, workspaceId: options.workspaceId },
    select: listedColumns,
  });
  return key && withKnownScopes(key);
}

interface KeyRow {
  id: string;
  hashed_key: string;
  mode: ApiKeyMode;
  revoked_at: Date | null;
  last_used_at: Date | null;
  workspace_id: string;
  workspace_name: string;
  scopes: string[];
}

export interface ApiKeyPrincipal {
  apiKeyId: string;
  mode: ApiKeyMode;
  workspace: { id: string; name: string };
}

/**
 * Resolves a presented key to its workspace, or null when it is malformed, unknown or revoked.
 * The lookup goes through the unique hash index; the final comparison is constant-time.
 *
 * Why looking up by hash is not a timing oracle: the index compares SHA-256(presented) with stored hashes, and how far
 * a comparison gets before it differs depends on the hash, not on the key. An attacker who varies a key character
 * by character changes the whole hash each time, so a timing difference tells them at most a prefix of some stored
 * hash, which does not help to find a key (that would take a SHA-256 preimage of 238 random bits). Nothing about the
 * key itself is ever compared with a variable-time comparison.
 */
export async function verifyApiKey(
  presented: string,
): Promise<(ApiKeyPrincipal & { scopes: readonly ApiKeyScope[] }) | null> {
  if (!API_KEY_PATTERN.test(presented)) return null;
  const hashedKey = hashApiKey(presented);
  // Every authenticated request runs this, so it is one indexed join in SQL: the equivalent nested Prisma select
  // costs a few tenths of a millisecond more, which the enrichment engine's 5 ms overhead budget notices.
  const [record] = await db().$queryRaw<KeyRow[]>`
    SELECT k.id, k.hashed_key, k.mode::text AS mode, k.scopes, k.revoked_at, k.last_used_at, w.id AS workspace_id, w.name AS workspace_name
    FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
    WHERE k.hashed_key = ${hashedKey}`;
  if (!record || record.revoked_at) return null;
  if (!timingSafeEqual(Buffer.from(record.hashed_key), Buffer.from(hashedKey))) return null;
  touchLastUsed(record.workspace_id, record.id, record.last_used_at);
  return {
    apiKeyId: record.id,
    mode: record.mode,
    scopes: knownScopes(record.scopes),
    workspace: { id: record.workspace_id, name: record.workspace_name },
  };
}

function touchLastUsed(workspaceId: string, apiKeyId: string, lastUsedAt: Date | null): void {
  const threshold = new Date(Date.now() - LAST_USED_WRITE_INTERVAL_MS);
  if (lastUsedAt && lastUsedAt > threshold) return;
  // Bookkeeping only: the request must not wait for it or fail because of it.
  void db()
    .apiKey.updateMany({
      where: { workspaceId, id: apiKeyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: threshold } }] },
      data: { lastUsedAt: new Date() },
    })
    .catch((error: unknown) =>
      console.warn("Could not record API key use:", error instanceof Error ? error.message : error),
    );
}

/** True while the key exists and is not revoked; for responses that outlive the request's check (event streams). */
export async function isApiKeyActive(workspaceId: string, apiKeyId: string): Promise<boolean> {
  return (await db().apiKey.count({ where: { workspaceId, id: apiKeyId, revokedAt: null } })) === 1;
}
