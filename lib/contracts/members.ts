import { z } from "zod";
import { defineContract, envelope } from "./contract";

export const signUpPolicySchema = z
  .enum(["closed", "invite", "open"])
  .meta({ description: "Who may create an account: the server's SIGNUP setting." });
const roleSchema = z.enum(["owner", "member"], { error: "must be `owner` or `member`" });
export const invitationEmailSchema = z
  .string()
  .trim()
  .max(254, { error: "must be at most 254 characters" })
  .pipe(z.email({ error: "must be an email address like you@example.com" }));

export const memberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(["owner", "member"]),
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: "WorkspaceMember" });

export const invitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(["owner", "member"]),
    invitedBy: z.string().nullable().meta({ description: "Name (or email) of whoever sent it." }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: "Invitation" });

/** A new invitation: its link carries the only copy of the secret token. */
export const createdInvitationSchema = z.object({
  invitation: invitationSchema,
  url: z.string().meta({ description: "The invitation link, shown once: send it to the invitee yourself." }),
});

export const getCurrentUserContract = defineContract({
  operationId: "getCurrentUser",
  method: "GET",
  path: "/v1/me",
  tag: "Workspace",
  summary: "The signed-in dashboard user",
  description: "Who is signed in, whether they operate this server, and the server's sign-up policy.",
  auth: "workspace",
  access: "session",
  response: envelope(
    z.object({
      user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), operator: z.boolean() }),
      signUp: signUpPolicySchema,
    }),
  ),
  errors: ["unauthorized", "forbidden"],
});

export const listMembersContract = defineContract({
  operationId: "listMembers",
  method: "GET",
  path: "/v1/workspace/members",
  tag: "Workspace",
  summary: "The workspace's members",
  description: "Owners first. Needs a dashboard session (member emails are not for API keys).",
  auth: "workspace",
  access: "session",
  response: envelope(z.object({ members: z.array(memberSchema) })),
  errors: ["unauthorized", "forbidden"],
});

export const updateMemberContract = defineContract({
  operationId: "updateMember",
  method: "PATCH",
  path: "/v1/workspace/members/{userId}",
  tag: "Workspace",
  summary: "Change a member's role",
  description: "Owners only. The last owner cannot step down.",
  auth: "workspace",
  access: "owner",
  params: z.object({ userId: z.string().min(1).max(100).meta({ description: "The member's user id (`usr_…`)." }) }),
  body: z.strictObject({ role: roleSchema }),
  response: envelope(z.object({ members: z.array(memberSchema) })),
  errors: ["validation_error", "unauthorized", "forbidden", "not_found"],
});

export const removeMemberContract = defineContract({
  operationId: "removeMember",
  method: "DELETE",
  path: "/v1/workspace/members/{userId}",
  tag: "Workspace",
  summary: "Remove a member, or leave",
  description: "An owner removes anyone; a member may remove themselves (leave). The last owner cannot leave.",
  auth: "workspace",
  access: "session",
  params: z.object({ userId: z.string().min(1).max(100).meta({ description: "The member's user id (`usr_…`)." }) }),
  response: envelope(z.object({ members: z.array(memberSchema) })),
  errors: ["validation_error", "unauthorized", "forbidden", "not_found"],
});

export const listInvitationsContract = defineContract({
  operationId: "listInvitations",
  method: "GET",
  path: "/v1/workspace/invitations",
  tag: "Workspace",
  summary: "Pending invitations into the workspace",
  description: "Owners only. Used, revoked and expired invitations are not listed.",
  auth: "workspace",
  access: "owner",
  response: envelope(z.object({ invitations: z.array(invitationSchema) })),
  errors: ["unauthorized", "forbidden"],
});

export const createInvitationContract = defineContract({
  operationId: "createInvitation",
  method: "POST",
  path: "/v1/workspace/invitations",
  tag: "Workspace",
  summary: "Invite someone into the workspace",
  description:
    "Owners only. Answers a link that works for 7 days, once, for this email address only; an earlier pending link for the same email stops working. Signalbox sends no email: pass the link on yourself.",
  auth: "workspace",
  access: "owner",
  body: z.strictObject({ email: invitationEmailSchema, role: roleSchema.default("member") }),
  response: envelope(createdInvitationSchema),
  successStatus: 201,
  errors: ["validation_error", "unauthorized", "forbidden", "rate_limited"],
});

export const revokeInvitationContract = defineContract({
  operationId: "revokeInvitation",
  method: "DELETE",
  path: "/v1/workspace/invitations/{id}",
  tag: "Workspace",
  summary: "Revoke a pending invitation",
  description: "Owners only. The link stops working at once.",
  auth: "workspace",
  access: "owner",
  params: z.object({ id: z.string().min(1).max(100).meta({ description: "The invitation's id (`inv_…`)." }) }),
  response: envelope(z.object({ invitations: z.array(invitationSchema) })),
  errors: ["unauthorized", "forbidden", "not_found"],
});
