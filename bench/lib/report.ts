import type pg from "pg";
import type { BenchConfig } from "./config";
import type { ServerProcess } from "./processes";

/** One target of the issue, as measured in this run. */
export interface Check {
  target: string;
  measured: string;
  limit: string;
  holds: boolean;
}

/** A table for the printed report: [what, figures…] rows. */
export interface Table {
  header: string[];
  rows: string[][];
}

/** What a scenario hands back: its figures (written to the JSON), tables for the printed report, and its targets. */
export interface ScenarioOutcome {
  name: string;
  figures: Record<string, unknown>;
  tables: Table[];
  checks: Check[];
}

/** The bare servers the app is measured against (bench/baselines/), each in its own process. */
export interface Baselines {
  singleRow: ServerProcess;
  /** The single-row baseline on a table with the app's NOTIFY trigger. */
  singleRowNotify: ServerProcess;
  groupCommit: ServerProcess;
  noDatabase: ServerProcess;
}

export interface BenchContext {
  config: BenchConfig;
  pool: pg.Pool;
  app: ServerProcess;
  /** A second app process with INGEST_FAST_PATH=false: ingest through the Next.js route handler. */
  routeHandlerApp: ServerProcess;
  baselines: Baselines;
  /** The environment every app process of the run starts with (FORWARD_WORKER=false among it). */
  appEnv: Record<string, string>;
  /** Starts a server process (startServerProcess) that the run stops at its end, or on Ctrl-C, if it is still up. */
  startServer: (
    script: string,
    env: Record<string, string>,
    options?: { nodeArgs?: string[] },
  ) => Promise<ServerProcess>;
  log: (message: string) => void;
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 2 : 1)} ms` : "n/a");
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "n/a");

/** A plain-text table with aligned columns. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export function checksTable(checks: Check[]): string {
  return formatTable(
    ["Target", "Measured", "Limit", "Holds"],
    checks.map((check) => [check.target, check.measured, check.limit, check.holds ? "yes" : "NO"]),
  );
}
