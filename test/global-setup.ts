import type { TestProject } from "vitest/node";
import path from "node:path";
import { migrateDatabase } from "@/lib/db/migrate";
import { buildApp, staleBuildReason } from "@/lib/launcher/build";
import { createEmptyDatabase, dropDatabase } from "./databases";
import { startTestPostgres } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL server for the run and one migrated template database that every test file clones. HTTP tests start
 * the real app, so a stale production build is rebuilt here, once, before test files run in parallel.
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
  return async () => {
    await dropDatabase(server.url, template.name).catch(() => {});
    await server.stop();
  };
}
