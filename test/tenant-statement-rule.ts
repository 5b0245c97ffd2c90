/** A statement as pg_stat_statements recorded it (constants replaced by $1, $2, …) and how often it ran. */
export interface RecordedStatement {
  query: string;
  calls: number;
}

/** A statement that spans workspaces by design, and why. */
export interface TenantStatementException {
  /** Matches the statement's text, whitespace collapsed to single spaces. */
  matches: RegExp;
  reason: string;
}

export interface UnfilteredStatement extends RecordedStatement {
  /** The tenant tables it names. */
  tables: string[];
}

const identifier = (name: string) => new RegExp(`(?<![\\w$])"?${name}"?(?![\\w$])`);
const COLUMN = String.raw`(?<![\w$])(?:"?\w+"?\.)*"?workspace_id"?(?![\w$])`;
const PARAMETER = String.raw`\(?\s*\$\d+`;
/** The ways a statement names the workspace it is about (see the rule below). */
const WORKSPACE_FILTERS = [
  // workspace_id = $1, workspace_id IN ($1, $2), workspace_id = ANY($1)
  new RegExp(String.raw`${COLUMN}\s*(?:=|IN)\s*(?:ANY\s*)?${PARAMETER}`, "i"),
  // $1 = workspace_id
  new RegExp(String.raw`\$\d+(?:::\w+)?\s*=\s*${COLUMN}`),
  // (workspace_id, id) IN (…), (workspace_id, id) = ANY(…): Prisma's compound keys, unnest()ed batches
  new RegExp(String.raw`\([^()]*${COLUMN}[^()]*\)\s*(?:=|IN)\s*(?:ANY\s*)?\(`, "i"),
  // unnest($1::text[], $2::text[]) AS r (id, workspace_id): a batch's rows, each with its workspace as a parameter
  new RegExp(String.raw`unnest\(\s*\$\d+[^)]*\)(?: WITH ORDINALITY)? AS \w+ \([^)]*${COLUMN}`, "i"),
  // INSERT INTO t (…, workspace_id, …): the row is written to its workspace
  new RegExp(String.raw`INSERT INTO [^(]+\([^)]*${COLUMN}`, "i"),
];

/** The text that can name tables and columns: without string literals and comments, whitespace collapsed. */
export function statementCode(query: string): string {
  return query
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\/\*[\s\S]*?\*\//g, " ")
    .replace(/--[^\n]*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The rule: a statement that names a tenant table (one with a `workspace_id` column) must say which workspace it is
 * about, by comparing `workspace_id` with a parameter (`workspace_id = $1`, `IN ($1, …)`, `= ANY($1)`, a compound
 * `(workspace_id, id) IN (…)`, a batch `unnest($1, …) AS r (…, workspace_id, …)` joined on it) or by writing it (`INSERT INTO t (…, workspace_id, …)`, which puts the row on its
 * workspace's shard). One such filter covers the tables joined to the filtered one on workspace_id. What fails: no
 * mention of the workspace at all, `workspace_id <> $1`, or a join on workspace_id with no workspace given: each reads
 * every workspace's rows, which a sharded PostgreSQL answers by asking every shard.
 * The rule reads the statement's text, not its plan: a filter inside an OR, or on a table other than the one read,
 * passes; review has to catch those. `exceptions` are the statements that span workspaces by design.
 */
export function unfilteredTenantStatements(
  statements: RecordedStatement[],
  tenantTables: string[],
  exceptions: TenantStatementException[],
): UnfilteredStatement[] {
  const tablePatterns = tenantTables.map((table) => ({ table, pattern: identifier(table) }));
  const offenders: UnfilteredStatement[] = [];
  for (const statement of statements) {
    const code = statementCode(statement.query);
    const tables = tablePatterns.filter(({ pattern }) => pattern.test(code)).map(({ table }) => table);
    if (tables.length === 0 || WORKSPACE_FILTERS.some((filter) => filter.test(code))) continue;
    if (exceptions.some((exception) => exception.matches.test(code))) continue;
    offenders.push({ query: code, calls: statement.calls, tables });
  }
  return offenders.sort((a, b) => a.query.localeCompare(b.query));
}
