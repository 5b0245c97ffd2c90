import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createEmptyDatabase, dropDatabase } from "@/test/databases";
import { migrateDatabase, readMigrations } from "./migrate";

const server = inject("postgresUrl");
const databases: string[] = [];
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(databases.map((name) => dropDatabase(server, name)));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function emptyDatabase(): Promise<string> {
  const database = await createEmptyDatabase(server, "migrate");
  databases.push(database.name);
  return database.url;
}

/** A migrations folder in Prisma's layout, lock file included (a file, which must be ignored). */
async function migrationsFolder(migrations: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "signalbox-migrations-"));
  folders.push(folder);
  await writeFile(path.join(folder, "migration_lock.toml"), 'provider = "postgresql"\n');
  await writeMigrations(folder, migrations);
  return folder;
}

async function writeMigrations(folder: string, migrations: Record<string, string>): Promise<void> {
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(path.join(folder, name), { recursive: true });
    await writeFile(path.join(folder, name, "migration.sql"), sql);
  }
}

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

interface MigrationRow {
  id: string;
  checksum: string;
  migration_name: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
  applied_steps_count: number;
}

const recorded = (url: string) =>
  query<MigrationRow>(url, `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);

async function tableExists(url: string, table: string): Promise<boolean> {
  const [row] = await query<{ exists: boolean }>(url, `SELECT to_regclass('public."${table}"') IS NOT NULL AS exists`);
  return row?.exists ?? false;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

// Each migration depends on the one before it, so applying them out of order would fail; `steps` records the order.
const FIRST = "20250101000000_first";
const SECOND = "20250102000000_second";
const THIRD = "20250103000000_third";
const MIGRATIONS = {
  [THIRD]: `INSERT INTO "steps" ("name") VALUES ('third');\nALTER TABLE "widgets" ADD COLUMN "size" INTEGER;\n`,
  [FIRST]: `CREATE TABLE "steps" ("n" SERIAL PRIMARY KEY, "name" TEXT NOT NULL);\nINSERT INTO "steps" ("name") VALUES ('first');\n`,
  [SECOND]: `INSERT INTO "steps" ("name") VALUES ('second');\nCREATE TABLE "widgets" ("id" TEXT PRIMARY KEY);\n`,
};

describe("migrateDatabase", () => {
  it("applies migrations in name order and records each the way Prisma does", async () => {
    const url = await emptyDatabase();
    const folder = await migrationsFolder(MIGRATIONS);

    expect(await migrateDatabase(url, folder)).toEqual({ applied: [FIRST, SECOND, THIRD], alreadyApplied: [] });

    expect(
      (await query<{ name: string }>(url, `SELECT "name" FROM "steps" ORDER BY "n"`)).map((row) => row.name),
    ).toEqual(["first", "second", "third"]);
    expect(await tableExists(url, "widgets")).toBe(true);
    const rows = await recorded(url);
    expect(rows.map((row) => row.migration_name)).toEqual([FIRST, SECOND, THIRD]);
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.checksum).toBe(sha256(MIGRATIONS[row.migration_name as keyof typeof MIGRATIONS]));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.applied_steps_count).toBe(1);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
    }
  });

  it("applies nothing on a second run", async () => {
    const url = await emptyDatabase();
    const folder = await migrationsFolder(MIGRATIONS);
    await migrateDatabase(url, folder);
    const before = await recorded(url);

    expect(await migrateDatabase(url, folder)).toEqual({ applied: [], alreadyApplied: [FIRST, SECOND, THIRD] });
    expect(await recorded(url)).toEqual(before);
    expect(await query(url, `SELECT * FROM "steps"`)).toHaveLength(3);
  });

  it("applies a migration added since the last run, and only that one", async () => {
    const url = await emptyDatabase();
    const folder = await migrationsFolder({ [FIRST]: MIGRATIONS[FIRST], [SECOND]: MIGRATIONS[SECOND] });
    await migrateDatabase(url, folder);

    await writeMigrations(folder, { [THIRD]: MIGRATIONS[THIRD] });
    expect(await migrateDatabase(url, folder)).toEqual({ applied: [THIRD], alreadyApplied: [FIRST, SECOND] });
    expect((await recorded(url)).map((row) => row.migration_name)).toEqual([FIRST, SECOND, THIRD]);
    expect(await query(url, `SELECT * FROM "steps"`)).toHaveLength(3);
  });

  it("refuses to run when an applied migration was changed, and changes nothing", async () => {
    const url = await emptyDatabase();
    const folder = await migrationsFolder({ [SECOND]: `CREATE TABLE "widgets" ("id" TEXT PRIMARY KEY);\n` });
    await migrateDatabase(url, folder);
    const before = await recorded(url);

    // The edited migration, plus a new one whose name sorts before it (as a merged branch's can).
    await writeMigrations(folder, {
      [SECOND]: `CREATE TABLE "widgets" ("id" TEXT PRIMARY KEY, "colour" TEXT);\n`,
      [FIRST]: `CREATE TABLE "gadgets" ("id" TEXT PRIMARY KEY);\n`,
    });
    await expect(migrateDatabase(url, folder)).rejects.toThrow(`Migration ${SECOND} was changed after it was applied`);

    expect(await recorded(url)).toEqual(before);
    expect(await tableExists(url, "gadgets")).toBe(false);
    expect(await query(url, `SELECT column_name FROM information_schema.columns WHERE table_name = 'widgets'`)).toEqual(
      [{ column_name: "id" }],
    );
  });

  it("rolls a failing migration back entirely and names it", async () => {
    const url = await emptyDatabase();
    const broken = `CREATE TABLE "gadgets" ("id" TEXT PRIMARY KEY);\nINSERT INTO "no_such_table" VALUES (1);\n`;
    const folder = await migrationsFolder({
      [FIRST]: `CREATE TABLE "widgets" ("id" TEXT PRIMARY KEY);\n`,
      [SECOND]: broken,
    });

    await expect(migrateDatabase(url, folder)).rejects.toThrow(
      new RegExp(`^Migration ${SECOND} failed: .*no_such_table`),
    );

    // The migration before it stays applied (each runs in its own transaction); the failing one leaves no trace.
    expect(await tableExists(url, "widgets")).toBe(true);
    expect(await tableExists(url, "gadgets")).toBe(false);
    expect((await recorded(url)).map((row) => [row.migration_name, row.finished_at !== null])).toEqual([[FIRST, true]]);

    // Nothing is left half-done, so once the file is fixed the next run simply applies it.
    await writeMigrations(folder, { [SECOND]: `CREATE TABLE "gadgets" ("id" TEXT PRIMARY KEY);\n` });
    expect(await migrateDatabase(url, folder)).toEqual({ applied: [SECOND], alreadyApplied: [FIRST] });
    expect(await tableExists(url, "gadgets")).toBe(true);
  });

  it("applies each migration exactly once when instances start together", async () => {
    const url = await emptyDatabase();
    // The sleep keeps the first migration running while the other calls arrive, so without the lock they would overlap.
    const folder = await migrationsFolder({
      [FIRST]: `SELECT pg_sleep(0.3);\nCREATE TABLE "widgets" ("id" TEXT PRIMARY KEY);\n`,
      [SECOND]: `CREATE TABLE "gadgets" ("id" TEXT PRIMARY KEY);\n`,
    });

    const results = await Promise.all([
      migrateDatabase(url, folder),
      migrateDatabase(url, folder),
      migrateDatabase(url, folder),
    ]);

    expect(results.flatMap((result) => result.applied).sort()).toEqual([FIRST, SECOND]);
    expect(results.flatMap((result) => result.alreadyApplied)).toHaveLength(4);
    expect((await recorded(url)).map((row) => row.migration_name)).toEqual([FIRST, SECOND]);
  });

  it("applies the project's own prisma/migrations to an empty database", async () => {
    const url = await emptyDatabase();
    const names = (await readMigrations()).map((migration) => migration.name);
    expect(names.length).toBeGreaterThan(0);

    expect(await migrateDatabase(url)).toEqual({ applied: names, alreadyApplied: [] });
    const rows = await recorded(url);
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    expect(rows.every((row) => row.finished_at !== null && row.applied_steps_count === 1)).toBe(true);
    expect(await migrateDatabase(url)).toEqual({ applied: [], alreadyApplied: names });
  });

  it("makes the oldest existing user the operator when upgrading to members and invitations", async () => {
    const upgrade = "20261125000000_members_invitations";
    const earlier = (await readMigrations()).filter((migration) => migration.name < upgrade);
    const url = await emptyDatabase();
    await migrateDatabase(url, await migrationsFolder(Object.fromEntries(earlier.map((m) => [m.name, m.sql]))));
    // The oldest by creation time wins, the id breaking a tie; insertion order and id order alone must not decide.
    await query(
      url,
      `INSERT INTO "users" ("id", "email", "created_at", "updated_at") VALUES
         ('usr_a', 'newest@example.com', '2026-03-01', now()),
         ('usr_c', 'tied@example.com', '2026-01-01', now()),
         ('usr_b', 'first@example.com', '2026-01-01', now())`,
    );

    expect((await migrateDatabase(url)).applied[0]).toBe(upgrade);
    expect(await query(url, `SELECT "id", "is_operator" FROM "users" ORDER BY "id"`)).toEqual([
      { id: "usr_a", is_operator: false },
      { id: "usr_b", is_operator: true },
      { id: "usr_c", is_operator: false },
    ]);
  });
});
