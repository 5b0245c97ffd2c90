import { z } from "zod";
import { defineContract, envelope } from "./contract";
import { API_KEY_SCOPES } from "./scopes";

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(["live", "test"]),
    start: z.string().meta({ description: "The key's first characters, to tell keys apart." }),
    scopes: z.array(z.enum(API_KEY_SCOPES)).meta({ description: "What the key may do." }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "ApiKey" });

export const listApiKeysContract = defineContract({
  operationId: "listApiKeys",
  scope: "keys:admin",
  method: "GET",
  path: "/v1/api-keys",
  tag: "Workspace",
  summary: "List the workspace's API keys",
  description: "Newest first, revoked ones included. Secrets are never returned after creation.",
  auth: "workspace",
  response: envelope(z.object({ apiKeys: z.array(apiKeySchema) })),
  errors: ["unauthorized"],
});

export const createApiKeyContract = defineContract({
  operationId: "createApiKey",
  scope: "keys:admin",
  method: "POST",
  path: "/v1/api-keys",
  tag: "Workspace",
  summary: "Create an API key",
  description:
    "The full key is in this answer only: store it now. In the dashboard, members create test keys; live keys (they spend the workspace's money) are for owners.",
  auth: "workspace",
  body: z.strictObject({
    name: z
      .string()
      .trim()
      .min(1, { error: "must not be empty" })
      .max(100, { error: "must be at most 100 characters" }),
    mode: z.enum(["live", "test"], { error: "must be `live` or `test`" }),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { error: `must be one of ${API_KEY_SCOPES.join(", ")}` }))
      .min(1, { error: "must name at least one scope" })
      .max(API_KEY_SCOPES.length)
      .optional()
      .meta({
        description:
          "What the key may do: `inbox:read` (endpoints and deliveries), `inbox:ack`, `endpoints:admin`, `enrichment` (priced data and video details), `keys:admin`. Default: every scope the mode allows; a test key never gets `keys:admin`.",
      }),
  }),
  response: envelope(
    z.object({ apiKey: apiKeySchema, key: z.string().meta({ description: "The secret, shown once." }) }),
  ),
  successStatus: 201,
  errors: ["validation_error", "unauthorized", "forbidden"],
});

export const revokeApiKeyContract = defineContract({
  operationId: "revokeApiKey",
  scope: "keys:admin",
  method: "DELETE",
  path: "/v1/api-keys/{id}",
  tag: "Workspace",
  summary: "Revoke an API key",
  description:
    "The key stops working at once. Revoking a revoked key is a no-op. In the dashboard, members revoke test keys only.",
  auth: "workspace",
  params: z.object({ id: z.string().min(1).max(100).meta({ description: "API key id (`key_…`)." }) }),
  response: envelope(apiKeySchema),
  errors: ["unauthorized", "forbidden", "not_found"],
});

const ledgerEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(["usage", "credit", "allowance", "period_reset"]),
  operation: z.string().nullable(),
  keyMode: z.enum(["live", "test"]).nullable(),
  costCents: z.number().int(),
  subscriptionDeltaCents: z.number().int(),
  purchasedDeltaCents: z.number().int(),
  cached: z.boolean(),
  latencyMs: z.number().int().nullable(),
  records: z.number().int().nullable(),
  note: z.string().nullable(),
  createdAt: z.iso.datetime(),
});

export const getUsageContract = defineContract({
  operationId: "getUsage",
  method: "GET",
  path: "/v1/usage",
  tag: "Workspace",
  summary: "Enrichment usage and balances",
  description:
    "Balances, spend per day (UTC), calls and cost per operation over the last `days`, and the most recent ledger entries.",
  auth: "workspace",
  query: z.object({
    days: z.coerce
      .number()
      .int()
      .min(1)
      .max(365)
      .default(30)
      .meta({ description: "How many days back, counting today (UTC), 1–365 (default 30)." }),
  }),
  response: envelope(
    z.object({
      balances: z.object({
        subscriptionAllowanceCents: z.number().int(),
        subscriptionRemainingCents: z.number().int(),
        purchasedBalanceCents: z.number().int(),
      }),
      spendPerDay: z.array(
        z.object({
          day: z.string().meta({ description: "YYYY-MM-DD" }),
          costCents: z.number().int(),
          calls: z.number().int(),
        }),
      ),
      operations: z.array(
        z.object({
          operation: z.string(),
          calls: z.number().int(),
          costCents: z.number().int(),
          cachedCalls: z.number().int(),
          testCalls: z.number().int(),
        }),
      ),
      recent: z.array(ledgerEntrySchema),
    }),
  ),
  errors: ["validation_error", "unauthorized"],
});

export const listWorkspacesContract = defineContract({
  operationId: "listWorkspaces",
  method: "GET",
  path: "/v1/workspaces",
  tag: "Workspace",
  summary: "The workspaces the signed-in user belongs to",
  description: "For a dashboard session; an API key sees only its own workspace.",
  auth: "workspace",
  response: envelope(
    z.object({
      workspaces: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(["owner", "member"]) })),
    }),
  ),
  errors: ["unauthorized"],
});
