import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { WorkspaceRole } from "@/lib/db/generated/enums";
import { changeMemberRole, listMembers, memberRole, removeMember } from "./members";
import { createAccount } from "./users";

let serial = 0;

/** A workspace owned by a new user, plus `others` more users in it with the given roles. */
async function workspaceWith(...others: WorkspaceRole[]) {
  serial += 1;
  const first = await createAccount({
    email: `first-${serial}@example.com`,
    password: "correct horse battery",
    workspaceName: `Team ${serial}`,
  });
  const userIds = [first.userId];
  for (const [index, role] of others.entries()) {
    const other = await createAccount({
      email: `other-${serial}-${index}@example.com`,
      password: "correct horse battery",
      workspaceName: "Elsewhere",
    });
    await db().workspaceMember.create({ data: { workspaceId: first.workspaceId, userId: other.userId, role } });
    userIds.push(other.userId);
  }
  return { workspaceId: first.workspaceId, userIds };
}

const owners = (workspaceId: string) => db().workspaceMember.count({ where: { workspaceId, role: "owner" } });

describe("roles", () => {
  it("lists owners first, then by joining order", async () => {
    const team = await workspaceWith("member", "owner", "member");
    const members = await listMembers({ workspaceId: team.workspaceId });
    expect(members.map((member) => [member.userId, member.role])).toEqual([
      [team.userIds[0], "owner"],
      [team.userIds[2], "owner"],
      [team.userIds[1], "member"],
      [team.userIds[3], "member"],
    ]);
  });

  it("keeps the last owner from stepping down or leaving, until there is another owner", async () => {
    const team = await workspaceWith("member");
    const [owner, member] = team.userIds as [string, string];
    const lastOwner = { code: "validation_error", details: [{ path: "role" }] };
    await expect(
      changeMemberRole({ workspaceId: team.workspaceId, userId: owner, role: "member" }),
    ).rejects.toMatchObject(lastOwner);
    await expect(removeMember({ workspaceId: team.workspaceId, userId: owner })).rejects.toMatchObject(lastOwner);
    expect(await memberRole({ workspaceId: team.workspaceId, userId: owner })).toBe("owner");
    // Re-stating the owner's own role is not stepping down.
    await changeMemberRole({ workspaceId: team.workspaceId, userId: owner, role: "owner" });

    await changeMemberRole({ workspaceId: team.workspaceId, userId: member, role: "owner" });
    await changeMemberRole({ workspaceId: team.workspaceId, userId: owner, role: "member" });
    await removeMember({ workspaceId: team.workspaceId, userId: owner });
    expect(await listMembers({ workspaceId: team.workspaceId })).toEqual([
      expect.objectContaining({ userId: member, role: "owner" }),
    ]);
  });

  it("leaves one owner when two owners demote each other, or both leave, at the same moment", async () => {
    for (let round = 0; round < 6; round += 1) {
      const team = await workspaceWith("owner");
      const [a, b] = team.userIds as [string, string];
      const demotions = await Promise.allSettled([
        changeMemberRole({ workspaceId: team.workspaceId, userId: a, role: "member" }),
        changeMemberRole({ workspaceId: team.workspaceId, userId: b, role: "member" }),
      ]);
      expect(demotions.map((result) => result.status).sort(), `round ${round}`).toEqual(["fulfilled", "rejected"]);
      expect(await owners(team.workspaceId)).toBe(1);

      const pair = await workspaceWith("owner");
      await Promise.allSettled(pair.userIds.map((userId) => removeMember({ workspaceId: pair.workspaceId, userId })));
      expect(await owners(pair.workspaceId), `round ${round}`).toBe(1);
    }
  });

  it("answers 404 for someone who is not a member of this workspace", async () => {
    const team = await workspaceWith();
    const stranger = await workspaceWith();
    const notFound = { code: "not_found" };
    for (const userId of ["usr_unknown", stranger.userIds[0]!]) {
      await expect(removeMember({ workspaceId: team.workspaceId, userId })).rejects.toMatchObject(notFound);
      await expect(changeMemberRole({ workspaceId: team.workspaceId, userId, role: "owner" })).rejects.toMatchObject(
        notFound,
      );
    }
    expect(await memberRole({ workspaceId: stranger.workspaceId, userId: stranger.userIds[0]! })).toBe("owner");
    expect(await memberRole({ workspaceId: team.workspaceId, userId: stranger.userIds[0]! })).toBeNull();
  });
});
