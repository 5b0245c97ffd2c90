import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { createdInvitationSchema, invitationEmailSchema, invitationSchema, signUpPolicySchema } from "./members";

const operatorWorkspaceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    owners: z.array(z.string()).meta({ description: "Email addresses of the workspace's owners." }),
    memberCount: z.number().int(),
    subscriptionAllowanceCents: z.number().int(),
    subscriptionRemainingCents: z.number().int(),
    purchasedBalanceCents: z.number().int(),
  })
  .meta({ id: "OperatorWorkspace" });

const signUpInvitationsSchema = z.object({ signUp: signUpPolicySchema, invitations: z.array(invitationSchema) });

export const listOperatorWorkspacesContract = defineContract({
  operationId: "listOperatorWorkspaces",
  method: "GET",
  path: "/v1/operator/workspaces",
  tag: "Operator",
  summary: "Every workspace on this server, with its balances",
  description: "Operators only (dashboard session). At most 100, by name; `q` narrows by name, id or owner email.",
  auth: "workspace",
  access: "operator",
  query: z.object({
    q: z
      .string()
      .trim()
      .max(200)
      .optional()
      .meta({ description: "Text in the workspace's name, its exact id, or text in an owner's email." }),
  }),
  response: envelope(z.object({ workspaces: z.array(operatorWorkspaceSchema) })),
  errors: ["validation_error", "unauthorized", "forbidden"],
});

export const creditWorkspaceContract = defineContract({
  operationId: "creditWorkspace",
  method: "POST",
  path: "/v1/operator/workspaces/{id}/credits",
  tag: "Operator",
  summary: "Add funds to a workspace",
  description:
    "Operators only. Adds to the purchased balance and writes a ledger entry naming the operator (the same as `npm run billing -- credit`).",
  auth: "workspace",
  access: "operator",
  params: z.object({ id: z.string().min(1).max(100).meta({ description: "The workspace's id (`ws_…`)." }) }),
  body: z.strictObject({
    amountCents: z
      .number({ error: "must be a whole number of cents" })
      .int({ error: "must be a whole number of cents" })
      .min(1, { error: "must be at least 1" })
      .max(10_000_000, { error: "must be at most 10000000 (100,000.00)" }),
    note: z.string().trim().max(200, { error: "must be at most 200 characters" }).optional(),
  }),
  response: envelope(operatorWorkspaceSchema),
  errors: ["validation_error", "unauthorized", "forbidden", "not_found"],
});

export const listSignUpInvitationsContract = defineContract({
  operationId: "listSignUpInvitations",
  method: "GET",
  path: "/v1/operator/invitations",
  tag: "Operator",
  summary: "Pending sign-up invitations",
  description: "Operators only. A sign-up invitation lets one person create an account with a workspace of their own.",
  auth: "workspace",
  access: "operator",
  response: envelope(signUpInvitationsSchema),
  errors: ["unauthorized", "forbidden"],
});

export const createSignUpInvitationContract = defineContract({
  operationId: "createSignUpInvitation",
  method: "POST",
  path: "/v1/operator/invitations",
  tag: "Operator",
  summary: "Invite someone to sign up",
  description:
    "Operators only, and only when sign-up is not `closed` (SIGNUP=invite). The link works for 7 days, once, for this email address.",
  auth: "workspace",
  access: "operator",
  body: z.strictObject({ email: invitationEmailSchema }),
  response: envelope(createdInvitationSchema),
  successStatus: 201,
  errors: ["validation_error", "unauthorized", "forbidden", "rate_limited"],
});

export const revokeSignUpInvitationContract = defineContract({
  operationId: "revokeSignUpInvitation",
  method: "DELETE",
  path: "/v1/operator/invitations/{id}",
  tag: "Operator",
  summary: "Revoke a sign-up invitation",
  description: "Operators only. The link stops working at once.",
  auth: "workspace",
  access: "operator",
  params: z.object({ id: z.string().min(1).max(100).meta({ description: "The invitation's id (`inv_…`)." }) }),
  response: envelope(signUpInvitationsSchema),
  errors: ["unauthorized", "forbidden", "not_found"],
});

export const getUnknownEndpointRequestsContract = defineContract({
  operationId: "getUnknownEndpointRequests",
  method: "GET",
  path: "/v1/operator/unknown-endpoint-requests",
  tag: "Operator",
  summary: "Ingest requests for endpoint ids that exist nowhere",
  description:
    "Operators only. Counted, never stored, by the server instance that answers this request, since it started (each instance counts its own: add them up behind a load balancer). A steady count means senders still use deleted endpoints, or someone is guessing ids.",
  auth: "workspace",
  access: "operator",
  response: envelope(
    z.object({
      count: z.number().int().meta({ description: "Ingest requests answered 404 because no endpoint has the id." }),
      since: z.iso.datetime().meta({ description: "When this instance started counting." }),
    }),
  ),
  errors: ["unauthorized", "forbidden"],
});
