/**
 * Where ingest's time goes (`npm run bench:profile -- [--body=1024] [--connections=50] [--seconds=10] [--target=app]`):
 * one load against one server on a fresh embedded PostgreSQL, with the figures a throughput number alone hides —
 *
 * - CPU seconds per 1,000 deliveries of the server process and of PostgreSQL (its backends and background writers),
 *   so it shows which side of the wire is the bottleneck;
 * - PostgreSQL's view: WAL bytes and records per delivery, commits (round trips that end a transaction) per delivery,
 *   statements per commit, rows per INSERT;
 * - for the app (`--target=app`, started with --cpu-prof), its CPU profile summed by self time per area (node:http,
 *   node-postgres, Prisma, JSON, the framework, garbage collection, our code) and the hottest functions.
 *
 * Targets: app, groupCommit, singleRow (the bench baselines). The .cpuprofile is kept in bench/results/ for DevTools.
 * Environment: PROFILE_NODE_ARGS (more flags for the app's node, e.g. --trace-gc), PROFILE_SERVER_OUTPUT (a file for
 * what the server printed), PROFILE_SQL (one statement run on the database before the load, for experiments).
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import type pg from "pg";
import { disconnectDb } from "@/lib/db/client";
import { buildApp, LAUNCHER_BUNDLE, staleBuildReason } from "@/lib/launcher/build";
import { BASELINE_TABLES, createBaselineTables, startBenchDatabase, waitForQuiet } from "./lib/database";
import { createBenchAccount } from "./lib/fixtures";
import { ROOT, runLoad, startServerProcess, trackPeakRss, type ServerProcess } from "./lib/processes";
import { summarizeCpuProfile } from "./lib/cpu-profile";
import { cpuTimes, postgresCpu, postgresCpuSpent } from "./lib/cpu-usage";

const args = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => {
      const [name, value = ""] = arg.slice(2).split("=");
      return [name!, value];
    }),
);
const bodyBytes = Number(args.get("body") ?? 1024);
const connections = Number(args.get("connections") ?? 50);
const seconds = Number(args.get("seconds") ?? 10);
const target = args.get("target") ?? "app";
if (!["app", "groupCommit", "singleRow"].includes(target)) throw new Error("--target is app, groupCommit or singleRow");

interface DatabaseCounters {
  walBytes: number;
  walRecords: number;
  walFullPageImages: number;
  commits: number;
  rows: number;
}

async function databaseCounters(pool: pg.Pool, table: string): Promise<DatabaseCounters> {
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT (SELECT wal_records FROM pg_stat_wal)::text AS wal_records,
            (SELECT wal_fpi FROM pg_stat_wal)::text AS wal_fpi,
            (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::text AS commits,
            (SELECT count(*) FROM ${table})::text AS rows,
            pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS wal_position`,
  );
  const row = rows[0]!;
  return {
    walBytes: Number(row.wal_position),
    walRecords: Number(row.wal_records),
    walFullPageImages: Number(row.wal_fpi),
    commits: Number(row.commits),
    rows: Number(row.rows),
  };
}

/**
 * Backends report their statistics (commits, WAL records) at most once a second while busy and within about ten
 * seconds once idle: wait that long before reading them. WAL bytes come from the WAL position, rows from a count.
 */
async function settledCounters(pool: pg.Pool, table: string): Promise<DatabaseCounters> {
  await waitForQuiet(pool);
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  return databaseCounters(pool, table);
}

async function main(): Promise<void> {
  const reason = staleBuildReason(ROOT);
  if (reason && target === "app") buildApp(ROOT);
  const resultsDir = path.join(ROOT, "bench", "results");
  const profileDir = path.join(os.tmpdir(), `signalbox-profile-${process.pid}`);
  await mkdir(resultsDir, { recursive: true });

  const database = await startBenchDatabase();
  const processes: ServerProcess[] = [];
  let loadStarted = 0;
  let loadMs = 0;
  let stopped = 0;
  try {
    await createBaselineTables(database.pool);
    process.env.DATABASE_URL = database.url;
    process.env.SIGNALBOX_SECRET = randomBytes(32).toString("base64url");
    const account = await createBenchAccount("Profile ingest", "http://127.0.0.1");

    const table =
      target === "app"
        ? "webhook_deliveries"
        : target === "groupCommit"
          ? BASELINE_TABLES.groupCommit.name
          : BASELINE_TABLES.singleRow.name;
    const server =
      target === "app"
        ? await startServerProcess(
            LAUNCHER_BUNDLE,
            {
              DATABASE_URL: database.url,
              SIGNALBOX_SECRET: process.env.SIGNALBOX_SECRET,
            },
            {
              nodeArgs: [
                "--cpu-prof",
                `--cpu-prof-dir=${profileDir}`,
                ...(process.env.PROFILE_NODE_ARGS ?? "").split(" ").filter(Boolean),
              ],
            },
          )
        : await startServerProcess(
            path.join("bench", "baselines", `${target === "groupCommit" ? "group-commit" : "single-row"}.ts`),
            {
              DATABASE_URL: database.url,
              BASELINE_TABLE: table,
              BASELINE_WORKSPACE_ID: account.workspaceId,
              BASELINE_ENDPOINT_ID: account.endpointId,
            },
          );
    processes.push(server);
    const url = target === "app" ? `${server.baseUrl}/webhooks/ingest/${account.endpointId}` : `${server.baseUrl}/`;
    const job = {
      kind: "cannon" as const,
      url,
      method: "POST" as const,
      headers: { "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" },
      bodyBytes,
      connections,
      durationSeconds: seconds,
    };
    if (process.env.PROFILE_SQL) await database.pool.query(process.env.PROFILE_SQL);
    // A short warm-up so the profile is of steady state, not of the first JIT compilations.
    await runLoad({ ...job, durationSeconds: Math.min(2, seconds) });

    const before = await settledCounters(database.pool, table);
    const pgBefore = await postgresCpu(database.pool);
    const serverBefore = await cpuTimes(server.pid);
    loadStarted = performance.now();
    const rss = await trackPeakRss(server.pid);
    const result = await runLoad(job);
    const peakRss = await rss.stop();
    loadMs = result.durationSeconds * 1000;
    const serverAfter = await cpuTimes(server.pid);
    const serverSystem = serverAfter.system - serverBefore.system;
    const serverCpu = serverAfter.user - serverBefore.user + serverSystem;
    const pgAfter = await postgresCpu(database.pool);
    const after = await settledCounters(database.pool, table);
    const postgresCpuSeconds = postgresCpuSpent(pgBefore, pgAfter);

    const deliveries = after.rows - before.rows;
    const perThousand = (value: number) => ((value / deliveries) * 1000).toFixed(2);
    const commits = after.commits - before.commits;
    console.info(
      [
        `Target ${target}, ${bodyBytes} B bodies × ${connections} connections, ${seconds} s; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${os.loadavg()[0]!.toFixed(1)}`,
        `  ${result.rps.toFixed(0)} req/s, p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, server peak RSS ${(peakRss / 1048576).toFixed(0)} MiB; ${deliveries} deliveries stored; statuses ${JSON.stringify(result.statuses)}`,
        `  CPU s per 1,000 deliveries: server ${perThousand(serverCpu)}, PostgreSQL ${perThousand(postgresCpuSeconds)} (server ${serverCpu.toFixed(1)} s of which kernel ${serverSystem.toFixed(1)} s, PostgreSQL ${postgresCpuSeconds.toFixed(1)} s of ${result.durationSeconds.toFixed(1)} s)`,
        `  WAL per delivery: ${((after.walBytes - before.walBytes) / deliveries).toFixed(0)} bytes, ${((after.walRecords - before.walRecords) / deliveries).toFixed(1)} records, ${((after.walFullPageImages - before.walFullPageImages) / deliveries).toFixed(2)} full-page images`,
        `  Commits: ${commits} (${(deliveries / commits).toFixed(1)} deliveries per commit, counting every transaction of the database)`,
      ].join("\n"),
    );
    if (process.env.PROFILE_SERVER_OUTPUT) await writeFile(process.env.PROFILE_SERVER_OUTPUT, server.output());
  } finally {
    stopped = performance.now();
    for (const child of processes) await child.stop().catch(() => {});
    await disconnectDb().catch(() => {});
    await database.stop();
  }

  if (target !== "app") return;
  const [file] = (await readdir(profileDir).catch(() => [])).filter((name) => name.endsWith(".cpuprofile"));
  if (!file) return console.info("  (no CPU profile was written)");
  const kept = path.join(resultsDir, `ingest-${bodyBytes}-${connections}.cpuprofile`);
  await rename(path.join(profileDir, file), kept);
  await rm(profileDir, { recursive: true, force: true });
  // The profile ends when the server exits, just after `stopped`: keep only the samples of the measured load.
  const window = { fromEndMs: stopped - loadStarted, lengthMs: loadMs };
  console.info(summarizeCpuProfile(JSON.parse(await readFile(kept, "utf8")), ROOT, window));
  console.info(`  Profile: ${path.relative(ROOT, kept)} (open in Chrome DevTools → Performance)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
