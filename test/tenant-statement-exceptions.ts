import type { TenantStatementException } from "./tenant-statement-rule";

/**
 * The app's statements on tenant tables that do not name one workspace, on purpose: each finds the workspace from
 * something else a request carries, or is an operator's view of all of them. README "Scaling out" says what each costs
 * on a sharded PostgreSQL. Add one only with its reason; patterns are as narrow as the statement allows.
 */
export const TENANT_STATEMENT_EXCEPTIONS: TenantStatementException[] = [
  {
    matches:
      /^SELECT k\.id, .* FROM api_keys k JOIN workspaces w ON w\.id = k\.workspace_id WHERE k\.hashed_key = \$1$/,
    reason:
      "Authentication: an API request carries only its key, whose hash finds the key and so the workspace " +
      "(api_keys is a reference table when sharded).",
  },
  {
    matches:
      /^SELECT .* FROM "public"\."workspace_members" WHERE "public"\."workspace_members"\."user_id" = \$1 ORDER BY /,
    reason:
      "A signed-in user's workspaces (the session's workspace switcher): memberships span workspaces " +
      "(workspace_members is a reference table when sharded).",
  },
  {
    matches: /^SELECT .* FROM "public"\."invitations" WHERE \("public"\."invitations"\."token_hash" = \$1 AND /,
    reason:
      "An invitation link carries only its token; a sign-up invitation has no workspace at all " +
      "(invitations is a reference table when sharded).",
  },
  {
    matches:
      /^(SELECT|UPDATE) .*"public"\."invitations" .*WHERE \(("public"\."invitations"\."id" = \$\d+ AND )?"public"\."invitations"\."workspace_id" IS NULL AND /,
    reason:
      "An operator's sign-up invitations: they belong to no workspace yet (SIGNUP=invite; invitations is a " +
      "reference table when sharded).",
  },
  {
    matches: /^SELECT .* FROM "public"\."invitations" WHERE "public"\."invitations"\."id" = \$1 LIMIT \$2 OFFSET \$3$/,
    reason:
      "Prisma reads a created invitation back by its id (the row may have no workspace: a sign-up invitation; " +
      "invitations is a reference table when sharded).",
  },
  {
    matches: /^SELECT e\.id, e\.workspace_id, .* FROM webhook_endpoints e WHERE e\.id = ANY\(\$1::text\[\]\)$/,
    reason:
      "Ingest: a sender's URL names only the endpoint, and this finds its workspace. Remembered per instance and " +
      "checked again by the INSERT, so it runs for endpoints not seen lately (lib/inbox/ingest-endpoints.ts).",
  },
  {
    matches:
      /^SELECT .* FROM "public"\."workspaces" WHERE \(.* OR EXISTS\(SELECT "t0"\."workspace_id" FROM "public"\."workspace_members" AS "t0" /,
    reason:
      "The operator's list of every workspace, searched by an owner's email (operators see all workspaces; " +
      "workspaces and workspace_members are reference tables when sharded).",
  },
  {
    matches:
      /^SELECT .* FROM "public"\."enrichment_cache" WHERE \("public"\."enrichment_cache"\."key" = \$1 AND "public"\."enrichment_cache"\."workspace_id" <> \$2 /,
    reason:
      "Another workspace's paid answer is a source like a provider (lib/billing/answer-cache.ts): it reads every " +
      "workspace's answers for one input, every shard when sharded.",
  },
  {
    matches:
      /^SELECT e\.workspace_id, e\.id, coalesce\(e\.retention, w\.delivery_retention\) AS policy FROM webhook_endpoints e JOIN workspaces w ON w\.id = e\.workspace_id$/,
    reason:
      "The deliveries' upkeep reads every endpoint's retention once a pass (lib/inbox/delivery-retention.ts): a " +
      "background sweep over all workspaces, every shard when sharded; the deletes it then runs name their workspace.",
  },
];
