import type { TestProject } from "vitest/node";
import { migrateDatabase } from "@/lib/db/migrate";
import { createEmptyDatabase, dropDatabase } from "./databases";
import { startTestPostgres } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    templateDatabase: string;
  }
}

/** One PostgreSQL server for the run and one migrated template database that every test file clones. */
export default async function setup(project: TestProject) {
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
