import pg from "pg";
import { TENANT_STATEMENT_EXCEPTIONS } from "./tenant-statement-exceptions";
import { type RecordedStatement, unfilteredTenantStatements } from "./tenant-statement-rule";

/**
 * The role the app's processes log in as during a test run (test/app-server.ts), while the test code's own fixtures and
 * assertions log in as the server's user. pg_stat_statements keeps statements apart by role (its `userid`), so the
 * statements checked are the app's own as it actually ran them: Prisma's generated SQL, the raw queries, the forwarding
 * worker's jobs and the triggers they fire. A superuser, so the tests' databases need no grants: the role is there to
 * attribute statements, not to restrict them.
 */
export const PRODUCT_ROLE = "signalbox_app";

/**
 * Settings for the test run's own PostgreSQL server: statement statistics for every statement, nested ones too (the
 * triggers' statements), and room for all of them (each test file's database keeps its own entries; the check fails if
 * any had to be evicted). Utility statements (BEGIN, SET, LISTEN, DDL) are left out: none reads or writes rows.
 */
export const STATEMENT_STATISTICS_SETTINGS = [
  "shared_preload_libraries=pg_stat_statements",
  "pg_stat_statements.max=50000",
  "pg_stat_statements.track=all",
  "pg_stat_statements.track_utility=off",
];

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Makes the server ready to record the app's statements: the extension, emptied, and the app's role (with the
 * server user's password, so only the user name of a connection string changes). Returns false, with the reason on
 * stderr, when the server does not load pg_stat_statements (an external TEST_DATABASE_URL server started without it).
 */
export async function startRecordingStatements(serverUrl: string): Promise<boolean> {
  return withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ libraries: string }>(
      "SELECT current_setting('shared_preload_libraries') AS libraries",
    );
    if (!rows[0]?.libraries.includes("pg_stat_statements")) {
      console.warn(
        "[tenant statements] NOT checked: the test server does not load pg_stat_statements " +
          "(shared_preload_libraries); the embedded server the tests start by default does.",
      );
      return false;
    }
    await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    const password = decodeURIComponent(new URL(serverUrl).password);
    const role = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [PRODUCT_ROLE]);
    const verb = role.rowCount ? "ALTER" : "CREATE";
    await client.query(`${verb} ROLE ${PRODUCT_ROLE} LOGIN SUPERUSER PASSWORD ${client.escapeLiteral(password)}`);
    await client.query("SELECT pg_stat_statements_reset()");
    return true;
  });
}

/**
 * The connection string an app started by a test uses: the same database as the app's role, when it is on the run's
 * server (an app given its own embedded server, or a proxy in front of this one, keeps what it was given).
 */
export function asProductRole(databaseUrl: string, serverUrl: string): string {
  if (!databaseUrl) return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.host !== new URL(serverUrl).host) return databaseUrl;
  url.username = PRODUCT_ROLE;
  return url.toString();
}

/** Tables with a `workspace_id` column (partitions included), as the migrations made them. */
async function tenantTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT DISTINCT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'workspace_id'`,
  );
  return rows.map((row) => row.table_name);
}

/**
 * Checks every statement the app ran during the run against the rule in test/tenant-statement-rule.ts. Returns a
 * readable report of the offenders (and of entries the statistics had to evict), or null when all is well.
 */
export async function reportUnfilteredStatements(serverUrl: string, templateUrl: string): Promise<string | null> {
  const tables = await withClient(templateUrl, tenantTables);
  return withClient(serverUrl, async (client) => {
    const { rows } = await client.query<RecordedStatement>(
      `SELECT s.query, sum(s.calls)::int AS calls
         FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
        WHERE r.rolname = $1
        GROUP BY s.query`,
      [PRODUCT_ROLE],
    );
    const info = await client.query<{ dealloc: string }>("SELECT dealloc FROM pg_stat_statements_info");
    const evicted = Number(info.rows[0]?.dealloc ?? 0);
    const offenders = unfilteredTenantStatements(rows, tables, TENANT_STATEMENT_EXCEPTIONS);
    if (offenders.length === 0 && evicted === 0) return null;
    const lines = offenders.map(
      (statement) => `- [${statement.tables.join(", ")}] (${statement.calls} calls)\n    ${statement.query}`,
    );
    if (evicted > 0) {
      lines.push(
        `- pg_stat_statements evicted entries ${evicted} times: raise pg_stat_statements.max in test/tenant-statements.ts`,
      );
    }
    return (
      `The app ran ${offenders.length} statement(s) on tenant tables that do not filter by workspace_id ` +
      `(rule: test/tenant-statement-rule.ts; deliberate exceptions: test/tenant-statement-exceptions.ts):\n` +
      lines.join("\n")
    );
  });
}
