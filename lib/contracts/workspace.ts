import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { retentionPolicyInput, retentionPolicySchema } from "./retention";

export const workspaceSchema = z
  .object({
    id: z.string().meta({ example: "ws_0ujtsYcgvSTl8PAuAdqWYSMnLOv" }),
    name: z.string(),
    createdAt: z.iso.datetime(),
    deliveryRetention: retentionPolicySchema.nullable().meta({
      description:
        "How long deliveries are kept on endpoints without a `retention` of their own; null: everything is kept.",
    }),
  })
  .meta({ id: "Workspace" });

export const getWorkspaceContract = defineContract({
  operationId: "getWorkspace",
  method: "GET",
  path: "/v1/workspace",
  tag: "Workspace",
  summary: "The workspace the API key belongs to",
  description:
    "Answers who the presented key belongs to and whether it is a live or a test key (`apiKey` is null for a dashboard session), with the workspace's balances.",
  auth: "workspace",
  response: envelope(
    z.object({
      workspace: workspaceSchema,
      apiKey: z.object({ id: z.string(), mode: z.enum(["live", "test"]) }).nullable(),
      balances: z
        .object({
          subscriptionAllowanceCents: z.number().int(),
          subscriptionRemainingCents: z.number().int(),
          purchasedBalanceCents: z.number().int(),
          periodStartedAt: z.iso.datetime(),
        })
        .meta({
          description:
            "Enrichment money, in cents: the monthly allowance, what is left of it this period, and the purchased balance.",
        }),
    }),
  ),
  errors: ["unauthorized"],
});

export const updateWorkspaceContract = defineContract({
  operationId: "updateWorkspace",
  scope: "endpoints:admin",
  method: "PATCH",
  path: "/v1/workspace",
  tag: "Workspace",
  summary: "Change the workspace's settings",
  description:
    "`deliveryRetention`: how long deliveries are kept on endpoints without a `retention` of their own (`null`: everything is kept). In the dashboard, owners only; an API key needs `endpoints:admin` (which may set any endpoint's `retention` too).",
  auth: "workspace",
  body: z
    .strictObject({
      deliveryRetention: retentionPolicyInput.nullable().optional(),
    })
    .refine((body) => Object.keys(body).length > 0, { error: "send at least one field to change" }),
  response: envelope(z.object({ workspace: workspaceSchema })),
  errors: ["validation_error", "unauthorized", "forbidden"],
});
