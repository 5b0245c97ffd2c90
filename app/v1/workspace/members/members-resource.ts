import { listMembers } from "@/lib/auth/members";

/** The workspace's members as the API shows them. */
export async function membersData(workspaceId: string) {
  const members = await listMembers({ workspaceId });
  return {
    success: true as const,
    data: { members: members.map((member) => ({ ...member, joinedAt: member.joinedAt.toISOString() })) },
  };
}
