import { describe, expect, it } from "vitest";
import { statementCode, type TenantStatementException, unfilteredTenantStatements } from "./tenant-statement-rule";

const TENANT_TABLES = ["webhook_endpoints", "webhook_deliveries", "api_keys"];

const offenders = (queries: string[], exceptions: TenantStatementException[] = []) =>
  unfilteredTenantStatements(
    queries.map((query) => ({ query, calls: 1 })),
    TENANT_TABLES,
    exceptions,
  ).map((statement) => statement.query);

describe("unfilteredTenantStatements", () => {
  it("reports a statement on a tenant table that never names workspace_id, Prisma's and raw SQL alike", () => {
    const prisma = 'SELECT "public"."webhook_endpoints"."id" FROM "public"."webhook_endpoints" WHERE "id" = $1';
    const raw = "UPDATE webhook_deliveries\n   SET acknowledged_at = now()\n WHERE id = ANY($1)";
    expect(offenders([prisma, raw])).toEqual([
      prisma,
      "UPDATE webhook_deliveries SET acknowledged_at = now() WHERE id = ANY($1)",
    ]);
  });

  it("accepts a workspace given as a parameter, joins from it, and inserts of workspace_id", () => {
    expect(
      offenders([
        'SELECT "id" FROM "public"."webhook_endpoints" WHERE ("public"."webhook_endpoints"."workspace_id" = $1 AND "id" = $2)',
        'SELECT "id" FROM "public"."webhook_endpoints" WHERE "workspace_id" IN ($1,$2)',
        "UPDATE webhook_deliveries SET acknowledged_at = now() WHERE $1 = workspace_id",
        "DELETE FROM webhook_deliveries WHERE workspace_id = ANY($1::text[])",
        "SELECT id FROM webhook_endpoints WHERE (workspace_id, id) IN (SELECT * FROM unnest($1::text[], $2::text[]))",
        "SELECT r.ord FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS r (id, workspace_id, ord) LEFT JOIN webhook_endpoints e ON e.id = r.id AND e.workspace_id = r.workspace_id",
        "SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.workspace_id = d.workspace_id AND e.id = d.webhook_endpoint_id WHERE e.workspace_id = $1",
        'INSERT INTO "public"."api_keys" ("id","workspace_id","name") VALUES ($1,$2,$3)',
      ]),
    ).toEqual([]);
  });

  it("reports a join on workspace_id that no parameter narrows, and a filter that excludes one workspace", () => {
    expect(
      offenders([
        "SELECT k.id FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hashed_key = $1",
        'SELECT "id" FROM "public"."webhook_endpoints" WHERE "workspace_id" <> $1',
      ]),
    ).toHaveLength(2);
  });

  it("leaves statements on other tables alone, and does not take a longer name for a tenant table", () => {
    expect(
      offenders([
        'SELECT "id" FROM "public"."users" WHERE "email" = $1',
        "SELECT webhook_endpoints_total FROM stats",
        "SELECT count(*) FROM graphile_worker._private_jobs",
      ]),
    ).toEqual([]);
  });

  it("does not count workspace_id in a comment or a string literal as a filter", () => {
    expect(
      offenders([
        "SELECT id FROM api_keys /* workspace_id */ WHERE hashed_key = $1",
        "SELECT id FROM api_keys WHERE name = 'workspace_id' -- workspace_id",
      ]),
    ).toHaveLength(2);
  });

  it("lets a listed exception through, and only that one", () => {
    const exceptions = [{ matches: /WHERE "hashed_key" = \$1/, reason: "authentication" }];
    expect(
      offenders(
        ['SELECT "id" FROM "public"."api_keys" WHERE "hashed_key" = $1', 'SELECT "id" FROM "public"."api_keys"'],
        exceptions,
      ),
    ).toEqual(['SELECT "id" FROM "public"."api_keys"']);
  });
});

describe("statementCode", () => {
  it("drops comments and literals and collapses whitespace", () => {
    expect(statementCode("SELECT 'a -- b' -- c\n  FROM t /* d\n e */ WHERE x = ''''")).toBe(
      "SELECT '' FROM t WHERE x = ''",
    );
  });
});
