import process from "node:process";
import { defineConfig } from "prisma/config";

// `prisma generate` needs no schema engine, yet the CLI insists on downloading one. Offline (and in CI) that
// download fails, so for `generate` alone point the CLI at a harmless executable unless one is configured.
// Migrations never use the engine: lib/db/migrate.ts applies prisma/migrations itself.
if (process.argv.includes("generate") && !process.env.PRISMA_SCHEMA_ENGINE_BINARY) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}

// The URL is only read by CLI commands that talk to a database (`prisma migrate deploy`, `prisma studio`).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/signalbox" },
});
