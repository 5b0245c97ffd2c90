import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey, hashApiKey, revokeApiKey, verifyApiKey } from "./api-keys";
import { createWorkspace } from "./workspaces";

describe("API keys on a real database", () => {
  it("stores only the hash and a display prefix, never the key", async () => {
    const workspace = await createWorkspace({ name: "Acme" });
    const { key, apiKey } = await createApiKey({ workspaceId: workspace.id, name: "ci", mode: "live" });

    expect(key).toMatch(/^sbx_live_[0-9A-Za-z]{40}$/);
    expect(apiKey).not.toHaveProperty("hashedKey");
    const rows = await db().$queryRaw<Record<string, unknown>[]>`SELECT * FROM api_keys WHERE id = ${apiKey.id}`;
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(key);
    expect(rows[0]?.hashed_key).toBe(hashApiKey(key));
    expect(rows[0]?.start).toBe(key.slice(0, 13));
  });

  it("resolves a valid key to its workspace and mode, and records its use", async () => {
    const workspace = await createWorkspace({ name: "Beta" });
    const { key, apiKey } = await createApiKey({ workspaceId: workspace.id, name: "test", mode: "test" });

    const principal = await verifyApiKey(key);
    expect(principal).toEqual({
      apiKeyId: apiKey.id,
      mode: "test",
      // A test key gets every scope but keys:admin unless told otherwise.
      scopes: ["inbox:read", "inbox:ack", "endpoints:admin", "enrichment"],
      workspace: { id: workspace.id, name: "Beta" },
    });
    await expect
      .poll(async () => (await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt)
      .not.toBeNull();
  });

  it("rejects malformed, unknown and revoked keys", async () => {
    const workspace = await createWorkspace({ name: "Gamma" });
    const { key, apiKey } = await createApiKey({ workspaceId: workspace.id, name: "soon revoked", mode: "live" });

    expect(await verifyApiKey("not-a-key")).toBeNull();
    expect(await verifyApiKey(`sbx_live_${"A".repeat(40)}`)).toBeNull();
    expect(await verifyApiKey(key.slice(0, -1))).toBeNull();

    expect(await revokeApiKey({ workspaceId: workspace.id, apiKeyId: apiKey.id })).toBe(true);
    expect(await verifyApiKey(key)).toBeNull();
    expect(await revokeApiKey({ workspaceId: workspace.id, apiKeyId: apiKey.id })).toBe(false);
  });

  it("does not let one workspace revoke another's key", async () => {
    const owner = await createWorkspace({ name: "Owner" });
    const intruder = await createWorkspace({ name: "Intruder" });
    const { key, apiKey } = await createApiKey({ workspaceId: owner.id, name: "k", mode: "live" });

    expect(await revokeApiKey({ workspaceId: intruder.id, apiKeyId: apiKey.id })).toBe(false);
    expect(await verifyApiKey(key)).not.toBeNull();
  });
});
