/**
 * Where a database baseline writes: a table shaped like `webhook_deliveries` (bench/lib/database.ts makes it), rows of
 * one workspace and endpoint, through a node-postgres pool of its own.
 *
 * Environment: DATABASE_URL, BASELINE_TABLE, BASELINE_WORKSPACE_ID, BASELINE_ENDPOINT_ID, DATABASE_POOL_SIZE.
 */
import process from "node:process";
import pg from "pg";

export const table = process.env.BASELINE_TABLE ?? "bench_baseline";
if (!/^[a-z_]+$/.test(table)) throw new Error("BASELINE_TABLE must be a plain identifier");
export const workspaceId = process.env.BASELINE_WORKSPACE_ID ?? "";
export const endpointId = process.env.BASELINE_ENDPOINT_ID ?? "";

export const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
