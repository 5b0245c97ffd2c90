/** The two workspace roles in words, as the members page and its forms show them. */
export const ROLE_LABELS = { owner: "Owner", member: "Member" } as const;

export const ROLE_DESCRIPTIONS = {
  owner: "Everything, including live keys (they spend the workspace's money), members and invitations.",
  member: "Endpoints, deliveries, usage and test keys; no live keys, no changes to who belongs here.",
} as const;

export type Role = keyof typeof ROLE_LABELS;

/** How a member is named in sentences and labels: their name, else their email. */
export function memberName(member: { name: string | null; email: string }): string {
  return member.name?.trim() || member.email;
}
