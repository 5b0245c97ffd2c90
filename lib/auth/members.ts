import { db, type DbClient } from "@/lib/db/client";
import type { WorkspaceRole } from "@/lib/db/generated/enums";
import { ApiError } from "@/lib/errors";

/** A workspace's members, owners first, then by when they joined. */
export async function listMembers(options: { workspaceId: string }) {
  const members = await db().workspaceMember.findMany({
    where: { workspaceId: options.workspaceId },
    orderBy: [{ role: "asc" }, { createdAt: "asc" }, { userId: "asc" }],
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return members.map((member) => ({
    userId: member.user.id,
    email: member.user.email,
    name: member.user.name,
    role: member.role,
    joinedAt: member.createdAt,
  }));
}

/** The caller's role in the workspace, or null when not a member. */
export async function memberRole(options: { workspaceId: string; userId: string }): Promise<WorkspaceRole | null> {
  const member = await db().workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId: options.workspaceId, userId: options.userId } },
    select: { role: true },
  });
  return member?.role ?? null;
}

/**
 * Every change of membership takes the workspace's row lock first, so two owners demoting each other at once cannot
 * leave the workspace without an owner.
 */
async function lockWorkspace(tx: DbClient, workspaceId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
}

async function assertAnotherOwner(tx: DbClient, workspaceId: string, userId: string): Promise<void> {
  const owners = await tx.workspaceMember.count({ where: { workspaceId, role: "owner", userId: { not: userId } } });
  if (owners === 0)
    throw new ApiError("validation_error", "A workspace needs an owner: make someone else owner first.", {
      details: [{ path: "role", message: "is the last owner's" }],
    });
}

/** The member's current row, after taking the workspace's lock; 404 when there is no such member. */
async function lockedMember(tx: DbClient, options: { workspaceId: string; userId: string }) {
  await lockWorkspace(tx, options.workspaceId);
  const current = await tx.workspaceMember.findUnique({
    where: { workspaceId_userId: { workspaceId: options.workspaceId, userId: options.userId } },
    select: { role: true },
  });
  if (!current) throw new ApiError("not_found", "No such member in this workspace.");
  return current;
}

/** Gives a member another role; the last owner cannot step down. */
export async function changeMemberRole(options: { workspaceId: string; userId: string; role: WorkspaceRole }) {
  await db().$transaction(async (tx) => {
    const current = await lockedMember(tx, options);
    if (current.role === "owner" && options.role !== "owner")
      await assertAnotherOwner(tx, options.workspaceId, options.userId);
    await tx.workspaceMember.update({
      where: { workspaceId_userId: { workspaceId: options.workspaceId, userId: options.userId } },
      data: { role: options.role },
    });
  });
}

/** Removes a member (an owner removing someone, or a member leaving); the last owner cannot leave. */
export async function removeMember(options: { workspaceId: string; userId: string }) {
  await db().$transaction(async (tx) => {
    const current = await lockedMember(tx, options);
    if (current.role === "owner") await assertAnotherOwner(tx, options.workspaceId, options.userId);
    await tx.workspaceMember.delete({
      where: { workspaceId_userId: { workspaceId: options.workspaceId, userId: options.userId } },
    });
  });
}
