import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { STATEMENT_STATISTICS_SETTINGS } from "./tenant-statements";

export interface TestPostgres {
  /** Connection string of the server's maintenance database (`postgres`). */
  url: string;
  stop: () => Promise<void>;
}

/**
 * The PostgreSQL server a test run uses: TEST_DATABASE_URL or DATABASE_URL when set (databases are created on it),
 * otherwise an embedded server in a temporary folder that is deleted afterwards, recording statement statistics for the
 * workspace_id check (test/tenant-statements.ts).
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (external) return { url: external, stop: async () => {} };
  const dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-test-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true, settings: STATEMENT_STATISTICS_SETTINGS });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
