import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { verifyApiKey } from "@/lib/auth/api-keys";
import { DEMO_USER_EMAIL, ensureDemoWorkspace } from "./demo-workspace";
import { verifyPassword } from "@/lib/auth/password";

describe("ensureDemoWorkspace", () => {
  it("seeds exactly once, even when instances start together, and its secrets work", async () => {
    const results = await Promise.all([ensureDemoWorkspace(), ensureDemoWorkspace(), ensureDemoWorkspace()]);
    const seeded = results.filter((result) => result !== null);
    expect(seeded).toHaveLength(1);
    expect(await db().workspace.count()).toBe(1);
    expect(await db().apiKey.count()).toBe(2);

    const demo = seeded[0]!;
    expect(await verifyApiKey(demo.liveKey)).toMatchObject({ mode: "live", workspace: { id: demo.workspaceId } });
    expect(await verifyApiKey(demo.testKey)).toMatchObject({ mode: "test", workspace: { id: demo.workspaceId } });

    const user = await db().user.findUniqueOrThrow({
      where: { email: DEMO_USER_EMAIL },
      include: { memberships: true },
    });
    expect(await verifyPassword(demo.password, user.passwordHash ?? "")).toBe(true);
    expect(user.memberships).toEqual([expect.objectContaining({ workspaceId: demo.workspaceId, role: "owner" })]);

    expect(await ensureDemoWorkspace()).toBeNull();
  });
});
