import { z } from "zod";
import { defineContract, envelope } from "./contract";

export const workspaceSchema = z
  .object({
    id: z.string().meta({ example: "ws_0ujtsYcgvSTl8PAuAdqWYSMnLOv" }),
    name: z.string(),
    createdAt: z.iso.datetime(),
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
