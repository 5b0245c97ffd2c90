import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { WorkspaceRole } from "@/lib/db/generated/enums";
import { randomBase62 } from "@/lib/ids";
import {
  acceptInvitation,
  createAccountFromInvitation,
  createInvitation,
  findInvitation,
  listPendingInvitations,
  MAX_PENDING_INVITATIONS,
  revokeInvitation,
} from "./invitations";
import { memberRole } from "./members";
import { createAccount, findOrCreateOAuthUser, listUserWorkspaces, oauthSignInAllowed } from "./users";

// Sign-up by operator invitation only. env() is read once per file (lib/env.ts), so this is set before any use;
// lib/auth/sign-up-policy.integration.test.ts covers SIGNUP=closed.
process.env.SIGNUP = "invite";

const PASSWORD = "correct horse battery";
let serial = 0;

/** A user with a workspace of their own, which they own. */
async function owner(label = "owner") {
  serial += 1;
  return createAccount({ email: `${label}-${serial}@example.com`, password: PASSWORD, workspaceName: `${label} ws` });
}

async function invite(
  workspaceId: string | null,
  email: string,
  invitedByUserId: string,
  role: WorkspaceRole = "member",
) {
  return createInvitation({ workspaceId, email, role, invitedByUserId });
}

const pendingCount = (workspaceId: string | null, email?: string) =>
  db().invitation.count({
    where: {
      workspaceId,
      ...(email ? { email } : {}),
      acceptedAt: null,
      revokedAt: null,
      expiresAt: { gt: new Date() },
    },
  });

const userId = async (email: string) => (await db().user.findUnique({ where: { email } }))?.id;

/** The settled outcomes of racing `attempts`: how many won, and the codes of those that lost. */
async function race(attempts: Promise<unknown>[]) {
  const results = await Promise.allSettled(attempts);
  return {
    won: results.filter((result) => result.status === "fulfilled").length,
    lost: results.flatMap((result) =>
      result.status === "rejected" ? [(result.reason as { code?: string }).code] : [],
    ),
  };
}

describe("invitation tokens", () => {
  it("stores only the token's SHA-256, and never lists the token or its hash", async () => {
    const inviter = await owner();
    const { token, invitation } = await invite(inviter.workspaceId, "Dana@Example.com", inviter.userId);
    expect(token).toMatch(/^sbx_inv_[0-9A-Za-z]{40}$/);

    const row = await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    const hash = createHash("sha256").update(token).digest("hex");
    expect(row.tokenHash).toBe(hash);
    expect(JSON.stringify(row)).not.toContain(token.slice("sbx_inv_".length));
    expect(row.email).toBe("dana@example.com");

    const listed = JSON.stringify(await listPendingInvitations({ workspaceId: inviter.workspaceId }));
    expect(listed).toContain(invitation.id);
    expect(listed).not.toContain(hash);
    expect(listed).not.toContain(token);
    expect(await findInvitation(token)).toMatchObject({ id: invitation.id, email: "dana@example.com" });
    // The hash is not a token: presenting it finds nothing.
    expect(await findInvitation(hash)).toBeNull();
  });

  it("keeps one live link per email and workspace: a new one replaces the old", async () => {
    const inviter = await owner();
    const other = await owner("other");
    const first = await invite(inviter.workspaceId, "erin@example.com", inviter.userId);
    const elsewhere = await invite(other.workspaceId, "erin@example.com", other.userId);
    const second = await invite(inviter.workspaceId, "ERIN@example.com", inviter.userId);

    expect(await findInvitation(first.token)).toBeNull();
    expect(await findInvitation(second.token)).toMatchObject({ id: second.invitation.id });
    expect(await findInvitation(elsewhere.token)).toMatchObject({ id: elsewhere.invitation.id });
    expect((await listPendingInvitations({ workspaceId: inviter.workspaceId })).map((row) => row.id)).toEqual([
      second.invitation.id,
    ]);
  });

  it("keeps one live link when the same email is invited many times at once", async () => {
    const inviter = await owner();
    const created = await Promise.all(
      Array.from({ length: 8 }, () => invite(inviter.workspaceId, "rush@example.com", inviter.userId)),
    );
    expect(created).toHaveLength(8);
    expect(await pendingCount(inviter.workspaceId, "rush@example.com")).toBe(1);
  });

  it("refuses expired, revoked, used, unknown and malformed links alike", async () => {
    const inviter = await owner();
    const expired = await invite(inviter.workspaceId, "expired@example.com", inviter.userId);
    await db().invitation.update({
      where: { id: expired.invitation.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const revoked = await invite(inviter.workspaceId, "revoked@example.com", inviter.userId);
    expect(await revokeInvitation({ workspaceId: inviter.workspaceId, invitationId: revoked.invitation.id })).toBe(
      true,
    );
    const used = await invite(inviter.workspaceId, "used@example.com", inviter.userId);
    await createAccountFromInvitation({ token: used.token, password: PASSWORD });
    const unknown = `sbx_inv_${randomBase62(40)}`;

    // A signed-in user whose email matches each link, so only the link's state can refuse it.
    const refusals = [];
    for (const [email, token] of [
      ["expired@example.com", expired.token],
      ["revoked@example.com", revoked.token],
      ["used@example.com", used.token],
      ["unknown@example.com", unknown],
      ["malformed@example.com", "sbx_inv_short"],
    ] as const) {
      expect(await findInvitation(token), email).toBeNull();
      const account = await createAccountFromInvitation({ token, password: PASSWORD }).catch((error: unknown) => error);
      const user =
        (await userId(email)) ?? (await createAccount({ email, password: PASSWORD, workspaceName: "Own" })).userId;
      const accepted = await acceptInvitation({ token, userId: user }).catch((error: unknown) => error);
      refusals.push(account, accepted);
    }
    const shapes = refusals.map((error) => ({ code: (error as { code?: string }).code, message: String(error) }));
    expect(new Set(shapes.map((shape) => JSON.stringify(shape))).size).toBe(1);
    expect(shapes[0]!.code).toBe("not_found");
  });

  it("cannot be revoked from another workspace or from the sign-up scope", async () => {
    const inviter = await owner();
    const stranger = await owner("stranger");
    const { token, invitation } = await invite(inviter.workspaceId, "kept@example.com", inviter.userId);
    expect(await revokeInvitation({ workspaceId: stranger.workspaceId, invitationId: invitation.id })).toBe(false);
    expect(await revokeInvitation({ workspaceId: null, invitationId: invitation.id })).toBe(false);
    expect(await findInvitation(token)).not.toBeNull();

    const signUp = await invite(null, "kept-signup@example.com", inviter.userId);
    expect(await revokeInvitation({ workspaceId: inviter.workspaceId, invitationId: signUp.invitation.id })).toBe(
      false,
    );
    expect(await findInvitation(signUp.token)).not.toBeNull();
    expect(await revokeInvitation({ workspaceId: null, invitationId: signUp.invitation.id })).toBe(true);
    expect(await findInvitation(signUp.token)).toBeNull();
  });
});

describe("accepting an invitation into a workspace", () => {
  it("creates the invitee's account with the invited role, in the inviting workspace only", async () => {
    const inviter = await owner();
    const { token } = await invite(inviter.workspaceId, "Fay@Example.com", inviter.userId, "member");
    const account = await createAccountFromInvitation({ token, name: " Fay ", password: PASSWORD });
    expect(account).toMatchObject({ email: "fay@example.com", workspaceId: inviter.workspaceId });
    expect(await listUserWorkspaces(account.userId)).toEqual([
      { id: inviter.workspaceId, name: "owner ws", role: "member" },
    ]);
    expect(await db().user.findUniqueOrThrow({ where: { id: account.userId } })).toMatchObject({
      name: "Fay",
      isOperator: false,
    });
  });

  it("is bound to the invited email: another account cannot use the link, which still works for its owner", async () => {
    const inviter = await owner();
    const intruder = await owner("intruder");
    const invitee = await owner("invitee");
    const { token } = await invite(inviter.workspaceId, invitee.email, inviter.userId, "owner");

    await expect(acceptInvitation({ token, userId: intruder.userId })).rejects.toMatchObject({ code: "forbidden" });
    expect(await memberRole({ workspaceId: inviter.workspaceId, userId: intruder.userId })).toBeNull();

    expect(await acceptInvitation({ token, userId: invitee.userId })).toEqual({ workspaceId: inviter.workspaceId });
    expect(await memberRole({ workspaceId: inviter.workspaceId, userId: invitee.userId })).toBe("owner");
  });

  it("refuses an account for an email that has one already, and keeps the link for signing in", async () => {
    const inviter = await owner();
    const { token } = await invite(inviter.workspaceId, "late@example.com", inviter.userId);
    const late = await createAccount({ email: "late@example.com", password: PASSWORD, workspaceName: "Late" });
    await expect(createAccountFromInvitation({ token, password: PASSWORD })).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "email" }],
    });
    expect(await acceptInvitation({ token, userId: late.userId })).toEqual({ workspaceId: inviter.workspaceId });
  });

  it("lets exactly one of two concurrent account creations from one link win", async () => {
    const inviter = await owner();
    const { token } = await invite(inviter.workspaceId, "twice@example.com", inviter.userId);
    const outcome = await race([
      createAccountFromInvitation({ token, password: PASSWORD }),
      createAccountFromInvitation({ token, password: PASSWORD }),
    ]);
    expect(outcome.won).toBe(1);
    expect(outcome.lost).toHaveLength(1);
    expect(await db().user.count({ where: { email: "twice@example.com" } })).toBe(1);
    expect(await db().workspaceMember.count({ where: { workspaceId: inviter.workspaceId } })).toBe(2);
  });

  it("lets exactly one of two concurrent acceptances of one link win", async () => {
    const inviter = await owner();
    const invitee = await owner("racer");
    const { token } = await invite(inviter.workspaceId, invitee.email, inviter.userId);
    const outcome = await race([
      acceptInvitation({ token, userId: invitee.userId }),
      acceptInvitation({ token, userId: invitee.userId }),
    ]);
    expect(outcome).toEqual({ won: 1, lost: ["not_found"] });
    expect(await memberRole({ workspaceId: inviter.workspaceId, userId: invitee.userId })).toBe("member");
  });

  it("refuses to invite a member, and accepting while already a member keeps the member's role", async () => {
    const inviter = await owner();
    await expect(invite(inviter.workspaceId, inviter.email, inviter.userId)).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "email" }],
    });
    // Invited as a member, then made an owner another way before accepting: accepting must not demote.
    const invitee = await owner("promoted");
    const { token } = await invite(inviter.workspaceId, invitee.email, inviter.userId, "member");
    await db().workspaceMember.create({
      data: { workspaceId: inviter.workspaceId, userId: invitee.userId, role: "owner" },
    });
    expect(await acceptInvitation({ token, userId: invitee.userId })).toEqual({ workspaceId: inviter.workspaceId });
    expect(await memberRole({ workspaceId: inviter.workspaceId, userId: invitee.userId })).toBe("owner");
    expect(await db().workspaceMember.count({ where: { workspaceId: inviter.workspaceId } })).toBe(2);
    expect(await findInvitation(token)).toBeNull();
  });
});

describe("the pending limit", () => {
  it(`holds at ${MAX_PENDING_INVITATIONS} pending per workspace, not counting used, revoked or expired ones`, async () => {
    const inviter = await owner();
    const other = await owner("other");
    const row = (index: number, extra: object = {}) => ({
      id: `inv_fill${index}`,
      workspaceId: inviter.workspaceId,
      email: `fill-${index}@example.com`,
      tokenHash: `fill-${index}`,
      expiresAt: new Date(Date.now() + 3_600_000),
      ...extra,
    });
    await db().invitation.createMany({
      data: [
        ...Array.from({ length: MAX_PENDING_INVITATIONS - 1 }, (_, index) => row(index)),
        row(1000, { expiresAt: new Date(Date.now() - 1000) }),
        row(1001, { revokedAt: new Date() }),
        row(1002, { acceptedAt: new Date() }),
      ],
    });
    // One place left, four invitations at once: one gets it.
    const outcome = await race(
      ["last", "rival-1", "rival-2", "rival-3"].map((name) =>
        invite(inviter.workspaceId, `${name}@example.com`, inviter.userId),
      ),
    );
    expect(outcome.won).toBe(1);
    expect(outcome.lost).toEqual(["rate_limited", "rate_limited", "rate_limited"]);
    await expect(invite(inviter.workspaceId, "over@example.com", inviter.userId)).rejects.toMatchObject({
      code: "rate_limited",
    });
    const [winner] = await listPendingInvitations({ workspaceId: inviter.workspaceId });
    expect(await pendingCount(inviter.workspaceId)).toBe(MAX_PENDING_INVITATIONS);
    // Re-inviting a pending email replaces its link, so it still works at the limit; so does another workspace.
    await invite(inviter.workspaceId, winner!.email, inviter.userId);
    await invite(other.workspaceId, "over@example.com", other.userId);
    expect(await revokeInvitation({ workspaceId: inviter.workspaceId, invitationId: "inv_fill0" })).toBe(true);
    await invite(inviter.workspaceId, "over@example.com", inviter.userId);
    expect(await pendingCount(inviter.workspaceId)).toBe(MAX_PENDING_INVITATIONS);
  });
});

describe("sign-up invitations (SIGNUP=invite)", () => {
  it("create the invitee's account with a workspace they own, named by them", async () => {
    const operator = await owner("operator");
    const { token, invitation } = await invite(null, "Gil@Example.com", operator.userId);
    expect(invitation.role).toBe("owner");
    await expect(createAccountFromInvitation({ token, password: PASSWORD, workspaceName: "  " })).rejects.toMatchObject(
      { code: "validation_error", details: [{ path: "workspaceName" }] },
    );
    // The refusal changed nothing: the link still works and no account was made.
    expect(await userId("gil@example.com")).toBeUndefined();

    const account = await createAccountFromInvitation({ token, password: PASSWORD, workspaceName: " Gil's lab " });
    expect(account.email).toBe("gil@example.com");
    expect(account.workspaceId).not.toBe(operator.workspaceId);
    expect(await listUserWorkspaces(account.userId)).toEqual([
      { id: account.workspaceId, name: "Gil's lab", role: "owner" },
    ]);
    expect(await db().workspaceMember.count({ where: { workspaceId: operator.workspaceId } })).toBe(1);
    expect(await findInvitation(token)).toBeNull();
  });

  it("are refused for an email with an account, and cannot be accepted by a signed-in account", async () => {
    const operator = await owner("operator");
    await expect(invite(null, operator.email, operator.userId)).rejects.toMatchObject({
      code: "validation_error",
      details: [{ path: "email" }],
    });
    const { token } = await invite(null, "hal@example.com", operator.userId);
    const hal = await createAccount({ email: "hal@example.com", password: PASSWORD, workspaceName: "Hal" });
    await expect(acceptInvitation({ token, userId: hal.userId })).rejects.toMatchObject({ code: "validation_error" });
    expect(await listUserWorkspaces(hal.userId)).toHaveLength(1);
  });

  it("let exactly one of two concurrent sign-ups from one link win, with one workspace", async () => {
    const operator = await owner("operator");
    const { token } = await invite(null, "ivy@example.com", operator.userId);
    const before = await db().workspace.count();
    const outcome = await race([
      createAccountFromInvitation({ token, password: PASSWORD, workspaceName: "Ivy 1" }),
      createAccountFromInvitation({ token, password: PASSWORD, workspaceName: "Ivy 2" }),
    ]);
    expect(outcome.won).toBe(1);
    expect(await db().workspace.count()).toBe(before + 1);
  });
});

describe("OAuth with SIGNUP=invite", () => {
  it("signs in existing accounts only, creating none", async () => {
    const existing = await owner("oauth");
    expect(await oauthSignInAllowed(existing.email.toUpperCase())).toBe(true);
    expect(await oauthSignInAllowed("newcomer@example.com")).toBe(false);
    expect(await findOrCreateOAuthUser({ email: existing.email })).toBe(existing.userId);
    await expect(findOrCreateOAuthUser({ email: "newcomer@example.com" })).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(await userId("newcomer@example.com")).toBeUndefined();
  });
});
