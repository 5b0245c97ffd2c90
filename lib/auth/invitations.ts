import { createHash } from "node:crypto";
import { db, type DbClient } from "@/lib/db/client";
import type { WorkspaceRole } from "@/lib/db/generated/enums";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { createId, randomBase62 } from "@/lib/ids";
import { hashPassword } from "./password";
import { assertPasswordLength, normalizeEmail, uniqueEmail } from "./users";
import { createWorkspace } from "./workspaces";

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Pending invitations a workspace (or the operators, for sign-up invitations) may hold at once. */
export const MAX_PENDING_INVITATIONS = 100;
const TOKEN_PATTERN = /^sbx_inv_[0-9A-Za-z]{40}$/;

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const pending = () => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } });

const listedColumns = {
  id: true,
  email: true,
  role: true,
  createdAt: true,
  expiresAt: true,
  invitedBy: { select: { email: true, name: true } },
} as const;

type ListedInvitation = {
  id: string;
  email: string;
  role: WorkspaceRole;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: { email: string; name: string | null } | null;
};

/** An invitation as the API shows it: never its token or hash. */
export function invitationResource(invitation: ListedInvitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    invitedBy: invitation.invitedBy ? (invitation.invitedBy.name ?? invitation.invitedBy.email) : null,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** The link a token is accepted at. */
export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/invite/${token}`;
}

/**
 * A new invitation link for `email`: into `workspaceId` with `role`, or (workspaceId null) an operator's sign-up
 * invitation. An earlier pending link for the same email and workspace stops working, so one link is live at a time.
 * The token is in this answer only; the database keeps its SHA-256.
 */
export async function createInvitation(options: {
  workspaceId: string | null;
  email: string;
  role: WorkspaceRole;
  invitedByUserId: string;
}) {
  if (!options.workspaceId) assertSignUpInvitationsAllowed();
  const email = normalizeEmail(options.email);
  const token = `sbx_inv_${randomBase62(40)}`;
  const invitation = await db().$transaction(async (tx) => {
    await lockInvitationScope(tx, options.workspaceId);
    await assertInvitable(tx, options.workspaceId, email);
    await tx.invitation.updateMany({
      where: { workspaceId: options.workspaceId, email, ...pending() },
      data: { revokedAt: new Date() },
    });
    if (
      (await tx.invitation.count({ where: { workspaceId: options.workspaceId, ...pending() } })) >=
      MAX_PENDING_INVITATIONS
    )
      throw new ApiError(
        "rate_limited",
        `At most ${MAX_PENDING_INVITATIONS} invitations can be pending at once; revoke some first.`,
        { headers: { "Retry-After": "3600" } },
      );
    return tx.invitation.create({
      data: {
        id: createId("inv"),
        workspaceId: options.workspaceId,
        email,
        role: options.workspaceId ? options.role : "owner",
        tokenHash: hashInvitationToken(token),
        invitedByUserId: options.invitedByUserId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      },
      select: listedColumns,
    });
  });
  return { token, invitation };
}

/**
 * Serializes invitation writes per workspace (or for the sign-up scope): without it, two invitations for one email
 * created at once would each revoke the other's predecessor and both stay live, and the pending limit could be passed.
 */
async function lockInvitationScope(tx: DbClient, workspaceId: string | null): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`invitations:${workspaceId ?? "sign-up"}`}, 0))`;
}

/** Sign-up invitations make new workspaces, which SIGNUP=closed rules out (invitations into workspaces still work). */
function assertSignUpInvitationsAllowed(): void {
  if (env().SIGNUP === "closed")
    throw new ApiError(
      "forbidden",
      "Sign-up is closed on this server (SIGNUP=closed): invite people into a workspace instead, or set SIGNUP=invite.",
    );
}

async function assertInvitable(tx: DbClient, workspaceId: string | null, email: string): Promise<void> {
  const user = await tx.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) return;
  if (!workspaceId)
    throw new ApiError("validation_error", "This person has an account already.", {
      details: [{ path: "email", message: "has an account already" }],
    });
  if (await tx.workspaceMember.count({ where: { workspaceId, userId: user.id } }))
    throw new ApiError("validation_error", "This person is a member of the workspace already.", {
      details: [{ path: "email", message: "is a member already" }],
    });
}

/** Pending invitations of a workspace (or, with null, the operators' sign-up invitations), newest first. */
export async function listPendingInvitations(options: { workspaceId: string | null }) {
  return db().invitation.findMany({
    where: { workspaceId: options.workspaceId, ...pending() },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: listedColumns,
  });
}

/** Stops a pending invitation's link; false when there is no such pending invitation in that scope. */
export async function revokeInvitation(options: { workspaceId: string | null; invitationId: string }) {
  const { count } = await db().invitation.updateMany({
    where: { id: options.invitationId, workspaceId: options.workspaceId, ...pending() },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: WorkspaceRole;
  workspace: { id: string; name: string } | null;
  invitedBy: string | null;
  expiresAt: Date;
  /** Whether an account with the invitation's email exists (it signs in to accept rather than signing up). */
  accountExists: boolean;
}

/** The pending invitation behind a link's token, or null (unknown, used, revoked or expired all read the same). */
export async function findInvitation(token: string): Promise<PendingInvitation | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const found = await db().invitation.findFirst({
    where: { tokenHash: hashInvitationToken(token), ...pending() },
    select: {
      id: true,
      email: true,
      role: true,
      expiresAt: true,
      workspace: { select: { id: true, name: true } },
      invitedBy: { select: { email: true, name: true } },
    },
  });
  if (!found) return null;
  const accountExists = (await db().user.count({ where: { email: found.email } })) > 0;
  return {
    id: found.id,
    email: found.email,
    role: found.role,
    workspace: found.workspace,
    invitedBy: found.invitedBy ? (found.invitedBy.name ?? found.invitedBy.email) : null,
    expiresAt: found.expiresAt,
    accountExists,
  };
}

const INVALID_LINK = () => new ApiError("not_found", "This invitation link is not valid any more. Ask for a new one.");

/** Marks the token's invitation used, inside the caller's transaction; only one acceptance can win a race. */
async function claimInvitation(tx: DbClient, token: string) {
  if (!TOKEN_PATTERN.test(token)) throw INVALID_LINK();
  const [claimed] = await tx.$queryRaw<
    { id: string; workspace_id: string | null; email: string; role: WorkspaceRole }[]
  >`
    UPDATE invitations SET accepted_at = now()
    WHERE token_hash = ${hashInvitationToken(token)} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
    RETURNING id, workspace_id, email, role::text AS role`;
  if (!claimed) throw INVALID_LINK();
  return claimed;
}

/**
 * A signed-in user accepts an invitation into a workspace. The link is bound to its email: another account cannot use
 * it. Returns the workspace joined.
 */
export async function acceptInvitation(options: { token: string; userId: string }): Promise<{ workspaceId: string }> {
  return db().$transaction(async (tx) => {
    const invitation = await claimInvitation(tx, options.token);
    const user = await tx.user.findUniqueOrThrow({ where: { id: options.userId }, select: { email: true } });
    if (user.email !== invitation.email)
      throw new ApiError("forbidden", `This invitation is for ${invitation.email}. Sign in with that account.`);
    if (!invitation.workspace_id)
      throw new ApiError("validation_error", "A sign-up invitation is for a new account; you have one already.");
    await tx.workspaceMember.upsert({
      where: { workspaceId_userId: { workspaceId: invitation.workspace_id, userId: options.userId } },
      create: { workspaceId: invitation.workspace_id, userId: options.userId, role: invitation.role },
      update: {},
    });
    return { workspaceId: invitation.workspace_id };
  });
}

/**
 * Creates the account an invitation is for (its email), then joins the inviting workspace, or for a sign-up
 * invitation creates the invitee's own workspace named `workspaceName`.
 */
export async function createAccountFromInvitation(options: {
  token: string;
  name?: string;
  password: string;
  workspaceName?: string;
}): Promise<{ userId: string; email: string; workspaceId: string }> {
  assertPasswordLength(options.password);
  const passwordHash = await hashPassword(options.password);
  return uniqueEmail(() =>
    db().$transaction(async (tx) => {
      const invitation = await claimInvitation(tx, options.token);
      const user = await tx.user.create({
        data: { id: createId("usr"), email: invitation.email, name: options.name?.trim() || null, passwordHash },
        select: { id: true, email: true },
      });
      if (invitation.workspace_id) {
        await tx.workspaceMember.create({
          data: { workspaceId: invitation.workspace_id, userId: user.id, role: invitation.role },
        });
        return { userId: user.id, email: user.email, workspaceId: invitation.workspace_id };
      }
      assertSignUpInvitationsAllowed();
      const name = options.workspaceName?.trim();
      if (!name)
        throw new ApiError("validation_error", "Name your workspace.", {
          details: [{ path: "workspaceName", message: "is required" }],
        });
      const workspace = await createWorkspace({ name, ownerUserId: user.id, client: tx });
      return { userId: user.id, email: user.email, workspaceId: workspace.id };
    }),
  );
}
