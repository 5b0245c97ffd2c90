import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createId, randomBase62 } from "@/lib/ids";
import { createAccountFromInvitation, createInvitation, findInvitation } from "./invitations";
import { createAccount, findOrCreateOAuthUser, listUserWorkspaces, oauthSignInAllowed } from "./users";

// SIGNUP unset: the default, closed. (env() is read once per file; invitations.integration.test.ts covers `invite`,
// users.integration.test.ts `open`.)
delete process.env.SIGNUP;

const PASSWORD = "correct horse battery";
const userCount = (email: string) => db().user.count({ where: { email } });

describe("SIGNUP=closed (the default)", () => {
  it("refuses sign-up invitations, and still lets owners invite people into their workspace", async () => {
    const owner = await createAccount({ email: "owner@example.com", password: PASSWORD, workspaceName: "Home" });
    await expect(
      createInvitation({ workspaceId: null, email: "new@example.com", role: "owner", invitedByUserId: owner.userId }),
    ).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("SIGNUP=closed") });
    expect(await db().invitation.count({ where: { workspaceId: null } })).toBe(0);

    const { token } = await createInvitation({
      workspaceId: owner.workspaceId,
      email: "joiner@example.com",
      role: "member",
      invitedByUserId: owner.userId,
    });
    const joiner = await createAccountFromInvitation({ token, password: PASSWORD });
    expect(await listUserWorkspaces(joiner.userId)).toEqual([{ id: owner.workspaceId, name: "Home", role: "member" }]);
  });

  it("refuses a sign-up invitation issued before sign-up was closed, creating nothing", async () => {
    const token = `sbx_inv_${randomBase62(40)}`;
    await db().invitation.create({
      data: {
        id: createId("inv"),
        workspaceId: null,
        email: "earlier@example.com",
        role: "owner",
        tokenHash: createHash("sha256").update(token).digest("hex"),
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    const workspaces = await db().workspace.count();
    await expect(
      createAccountFromInvitation({ token, password: PASSWORD, workspaceName: "Mine" }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(await userCount("earlier@example.com")).toBe(0);
    expect(await db().workspace.count()).toBe(workspaces);
    // Nothing was used up: opening sign-up again would let the link work.
    expect(await findInvitation(token)).not.toBeNull();
  });

  it("lets OAuth sign in existing accounts only, creating none", async () => {
    const known = await createAccount({ email: "known@example.com", password: PASSWORD, workspaceName: "K" });
    expect(await oauthSignInAllowed("Known@Example.com")).toBe(true);
    expect(await findOrCreateOAuthUser({ email: "KNOWN@example.com" })).toBe(known.userId);
    expect(await oauthSignInAllowed("stranger@example.com")).toBe(false);
    await expect(findOrCreateOAuthUser({ email: "stranger@example.com", name: "S" })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await userCount("stranger@example.com")).toBe(0);
  });
});
