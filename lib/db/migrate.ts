import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { runMigrations as installJobQueue } from "graphile-worker";
import { quietJobQueueLogger } from "./job-queue-logger";
import pg from "pg";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// Any constant works; it only has to be the same for every instance so concurrent starts take turns.
const MIGRATION_LOCK_KEY = 72_707_369;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Prisma's own bookkeeping table, so `prisma migrate deploy/status` agree with what we applied. */
const CREATE_BOOKKEEPING = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Migrations in Prisma's folder layout: `<timestamp>_<name>/migration.sql`, applied in name order. */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * Applies every pending migration, each in its own transaction, under a session advisory lock so that
 * instances starting together do not race. Idempotent: applied migrations are skipped, and an applied
 * migration whose file has since changed stops start-up rather than leaving schema and code apart.
 */
export async function migrateDatabase(connectionString: string, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(CREATE_BOOKKEEPING);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const recorded = new Map(rows.map((row) => [row.migration_name, row]));
    const result: MigrationResult = { applied: [], alreadyApplied: [] };

    // Check the whole history before applying anything, so that a pending migration sorted before a changed or
    // failed one is not applied by a run that then stops.
    for (const migration of migrations) {
      const previous = recorded.get(migration.name);
      if (previous?.finished_at && previous.checksum !== migration.checksum) {
        throw new Error(`Migration ${migration.name} was changed after it was applied. Add a new migration instead.`);
      }
      if (previous && !previous.finished_at) {
        throw new Error(
          `Migration ${migration.name} failed earlier and needs attention (see _prisma_migrations.logs).`,
        );
      }
    }
    for (const migration of migrations) {
      if (recorded.has(migration.name)) {
        result.alreadyApplied.push(migration.name);
        continue;
      }
      await applyMigration(client, migration);
      result.applied.push(migration.name);
    }
    // The job queue forwarding runs on (graphile-worker, schema `graphile_worker`) keeps its own migrations.
    await installJobQueue({ connectionString, logger: quietJobQueueLogger });
    return result;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

async function applyMigration(client: pg.Client, migration: Migration): Promise<void> {
  const id = randomUUID();
  await client.query("BEGIN");
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
      [id, migration.checksum, migration.name],
    );
    await client.query(migration.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [
      id,
    ]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new Error(`Migration ${migration.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
