import type { TestProject } from "vitest/node";
import path from "node:path";
import { migrateDatabase } from "@/lib/db/migrate";
import { buildApp, staleBuildReason } from "@/lib/launcher/build";
import { createEmptyDatabase, dropDatabase } from "./databases";
import { startTestPostgres } from "./postgres-server";
import { reportUnfilteredStatements, startRecordingStatements } from "./tenant-statements";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    templateDatabase: string;
    /** Whether apps started by tests log in as the app's role, whose statements the run checks at its end. */
    checksTenantStatements: boolean;
  }
}

/**
 * One PostgreSQL server for the run and one migrated template database that every test file clones. HTTP tests start
 * the real app, so a stale production build is rebuilt here, once, before test files run in parallel. At the end, the
 * run fails if the app ran a statement on tenant data without filtering by workspace_id (test/tenant-statements.ts).
 */
export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "..");
  // SIGNALBOX_TEST_SKIP_BUILD=1: for a run of database-only files while sources are being edited (the app is not started).
  if (process.env.SIGNALBOX_TEST_SKIP_BUILD !== "1" && staleBuildReason(root)) buildApp(root);
  const server = await startTestPostgres();
  const template = await createEmptyDatabase(server.url, "template");
  await migrateDatabase(template.url);
  project.provide("postgresUrl", server.url);
  project.provide("templateDatabase", template.name);
  const checksTenantStatements = await startRecordingStatements(server.url);
  project.provide("checksTenantStatements", checksTenantStatements);
  return async () => {
    const report = checksTenantStatements
      ? await reportUnfilteredStatements(server.url, template.url).catch(
          (error: unknown) => `Could not check the app's statements for workspace_id: ${String(error)}`,
        )
      : null;
    await dropDatabase(server.url, template.name).catch(() => {});
    await server.stop();
    if (report) {
      // Vitest only logs an error thrown here; the exit code is what makes the run fail.
      process.exitCode = 1;
      throw new Error(report);
    }
  };
}
