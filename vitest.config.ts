import path from "node:path";
import { defineConfig } from "vitest/config";

// Three projects: `unit` (no database, no network), `integration` (a real PostgreSQL, a fresh database per test
// file, and for HTTP tests the real app started as its own process) and `faults` (test/faults: the real app under
// load while it, its database or its clients misbehave; same setup as integration). README "Testing" says more.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    env: { NEXT_TELEMETRY_DISABLED: "1" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/*.integration.test.ts", "**/*.fault.test.ts", "node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude: ["node_modules/**", "e2e/**"],
          globalSetup: ["test/global-setup.ts"],
          // Every answer from the app must conform to its OpenAPI document (test/openapi-conformance).
          setupFiles: ["test/database-per-file.ts", "test/openapi-conformance/setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "faults",
          include: ["test/faults/**/*.fault.test.ts"],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/database-per-file.ts"],
          testTimeout: 120_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
