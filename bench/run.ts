/**
 * The benchmark suite (`npm run bench`; `npm run bench:smoke` for the short CI version). Everything runs on this
 * machine over loopback, in one run, so every target is a ratio against a baseline measured minutes apart:
 *
 * 1. a fresh production build if the sources changed, and a fresh embedded PostgreSQL in a temporary folder;
 * 2. the real app (the launcher compiled, as `npm start` runs it, in its own process; a second one with
 *    INGEST_FAST_PATH=false for ingest through the Next.js route handler) and the bare node:http baselines
 *    (bench/baselines/): single-row INSERT (and its twin with the NOTIFY trigger), group commit, and no database;
 * 3. scenarios: ingest, scaling (with another fast-path app process on the same database), forwarding (worker apps
 *    started by the scenario, a receiver and the bare forwarder, each in its own process), enrichment, listing, ack
 *    (bench/scenarios/), each load generated in its own process (bench/load.ts), search (the listing's filters at
 *    a million deliveries, page by page from the bench process), and retention (a day of deliveries expired);
 * 4. a table of the targets and whether each holds; the figures are written to bench/results/ (git-ignored).
 *
 * Flags: --smoke (seconds instead of minutes, small datasets), --only=ingest,scaling,forwarding,enrichment,listing,ack,search,retention,
 * --ingest-loads=1024x50,1048576x20 (only these ingest loads, body bytes × connections), --forwarding-profile (the
 * forwarding worker apps under --cpu-prof, their profiles summed in the log and kept in bench/results/), --strict
 * (exit 1 when a target does not hold; by default only a scenario that fails to run makes the exit code non-zero).
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { disconnectDb } from "@/lib/db/client";
import { buildApp, LAUNCHER_BUNDLE, staleBuildReason } from "@/lib/launcher/build";
import { startFakeHunter, type FakeHunter } from "@/test/fakes/hunter-server";
import { FULL, SMOKE } from "./lib/config";
import {
  BASELINE_TABLES,
  createBaselineTables,
  createForwardQueueTables,
  startBenchDatabase,
  waitForQuiet,
  type BenchDatabase,
} from "./lib/database";
import { createBenchAccount } from "./lib/fixtures";
import { ROOT, startServerProcess, type ServerProcess } from "./lib/processes";
import { checksTable, formatTable, type Baselines, type BenchContext, type ScenarioOutcome } from "./lib/report";
import { ackScenario } from "./scenarios/ack";
import { enrichmentScenario } from "./scenarios/enrichment";
import { forwardingScenario } from "./scenarios/forwarding";
import { ingestScenario } from "./scenarios/ingest";
import { listingScenario } from "./scenarios/listing";
import { retentionScenario } from "./scenarios/retention";
import { scalingScenario } from "./scenarios/scaling";
import { searchScenario } from "./scenarios/search";

const SCENARIOS = ["ingest", "scaling", "forwarding", "enrichment", "listing", "ack", "search", "retention"] as const;
type ScenarioName = (typeof SCENARIOS)[number];

const args = process.argv.slice(2);
const preset = args.includes("--smoke") ? SMOKE : FULL;
// --ingest-loads=1024x50,1048576x100: only these ingest loads (body bytes × connections) of the preset.
const ingestLoads = args
  .find((arg) => arg.startsWith("--ingest-loads="))
  ?.slice("--ingest-loads=".length)
  .split(",");
const config: typeof preset = ingestLoads
  ? {
      ...preset,
      ingest: {
        ...preset.ingest,
        loads: preset.ingest.loads.filter((load) => ingestLoads.includes(`${load.bodyBytes}x${load.connections}`)),
      },
    }
  : preset;
// --forwarding-profile: the forwarding scenario's worker apps run with --cpu-prof (a run to read, not to quote).
if (args.includes("--forwarding-profile")) config.forwarding = { ...config.forwarding, cpuProfile: true };
const strict = args.includes("--strict");
const only = args
  .find((arg) => arg.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",") ?? [...SCENARIOS];
const selected = (name: ScenarioName) => only.includes(name);

const started = performance.now();
function log(message: string): void {
  console.info(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
    loadAverageAtStart: os.loadavg(),
  };
}

async function main(): Promise<number> {
  const host = machine();
  log(
    `${config.mode} run on ${host.cpus} × ${host.cpuModel}, ${host.memoryGiB} GiB, Node ${host.node}; load average ${host.loadAverageAtStart.map((load) => load.toFixed(1)).join(" ")}`,
  );
  const reason = staleBuildReason(ROOT);
  if (reason) {
    log(`building the app (${reason})`);
    buildApp(ROOT);
  }

  const processes: ServerProcess[] = [];
  let database: BenchDatabase | undefined;
  let fake: FakeHunter | undefined;
  const outcomes: ScenarioOutcome[] = [];
  const failures: { scenario: string; error: string }[] = [];
  let cleanedUp: Promise<void> | undefined;
  let interrupted = false;
  const cleanUp = () =>
    (cleanedUp ??= (async () => {
      for (const child of processes.reverse()) await child.stop().catch(() => {});
      await fake?.close().catch(() => {});
      await disconnectDb().catch(() => {});
      await database?.stop();
    })());
  // Ctrl-C mid-run: stop the app, the baselines and the temporary PostgreSQL rather than leave them running.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      interrupted = true;
      log(`${signal} received, stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    database = await startBenchDatabase();
    await createBaselineTables(database.pool);
    await createForwardQueueTables(database.pool);
    process.env.DATABASE_URL = database.url;
    process.env.SIGNALBOX_SECRET = randomBytes(32).toString("base64url");
    log("embedded PostgreSQL started and migrated");

    fake = await startFakeHunter();
    const placeholderBase = "http://127.0.0.1";
    const ingestAccount = await createBenchAccount("Bench ingest", placeholderBase);
    const listingAccount = await createBenchAccount("Bench listing", placeholderBase);
    const enrichmentAccount = await createBenchAccount("Bench enrichment", placeholderBase);
    const scalingAccount = await createBenchAccount("Bench scaling", placeholderBase);
    const searchAccount = await createBenchAccount("Bench search", placeholderBase);
    const forwardingAccount = await createBenchAccount("Bench forwarding", placeholderBase);
    const retentionAccount = await createBenchAccount("Bench retention", placeholderBase);

    const appEnv = {
      DATABASE_URL: database.url,
      SIGNALBOX_SECRET: process.env.SIGNALBOX_SECRET,
      HUNTER_API_KEY: fake.apiKey,
      HUNTER_API_URL: fake.baseUrl,
      OUTBOUND_ALLOW_LOOPBACK: "true",
      ENRICHMENT_PROVIDERS_DISABLED: "website,fingerprints,company-store,public-filings",
      ENRICHMENT_PROVIDER_ORDER: "hunter",
      // No forwarding worker beside what is measured; the forwarding scenario starts its worker apps itself.
      FORWARD_WORKER: "false",
    };
    const startServer = async (script: string, env: Record<string, string>, options?: { nodeArgs?: string[] }) => {
      const server = await startServerProcess(script, env, options);
      processes.push(server);
      return server;
    };
    const app = await startServer(LAUNCHER_BUNDLE, appEnv);
    // The same app with ingest through the Next.js route handler, for the ingest scenario.
    const routeHandlerApp = await startServer(LAUNCHER_BUNDLE, { ...appEnv, INGEST_FAST_PATH: "false" });
    // The scaling scenario's second instance: another launcher on the same database, as behind a load balancer.
    const secondApp = selected("scaling") ? await startServer(LAUNCHER_BUNDLE, appEnv) : undefined;
    // A database baseline writes rows of the ingest account into its own table (bench/baselines/baseline-table.ts).
    const startBaseline = async (script: string, table?: string) => {
      const env = table && {
        DATABASE_URL: database!.url,
        BASELINE_TABLE: table,
        BASELINE_WORKSPACE_ID: ingestAccount.workspaceId,
        BASELINE_ENDPOINT_ID: ingestAccount.endpointId,
      };
      return startServer(path.join("bench", "baselines", script), env || {});
    };
    const baselines: Baselines = {
      singleRow: await startBaseline("single-row.ts", BASELINE_TABLES.singleRow.name),
      singleRowNotify: await startBaseline("single-row.ts", BASELINE_TABLES.singleRowNotify.name),
      groupCommit: await startBaseline("group-commit.ts", BASELINE_TABLES.groupCommit.name),
      noDatabase: await startBaseline("no-database.ts"),
    };
    log(
      `app on ${app.baseUrl} (route handler ingest: ${routeHandlerApp.baseUrl}), baselines on ${Object.entries(
        baselines,
      )
        .map(([name, server]) => `${server.baseUrl} (${name})`)
        .join(", ")}`,
    );

    const context: BenchContext = {
      config,
      pool: database.pool,
      app,
      routeHandlerApp,
      baselines,
      appEnv,
      startServer,
      log,
    };
    const plan: [ScenarioName, () => Promise<ScenarioOutcome>][] = [
      ["ingest", () => ingestScenario(context, ingestAccount.endpointId)],
      ["scaling", () => scalingScenario(context, [app, secondApp!], scalingAccount.endpointId)],
      ["forwarding", () => forwardingScenario(context, forwardingAccount)],
      // Before the million-row seed, whose autovacuum and checkpoint tail would otherwise land in its figures.
      ["enrichment", () => enrichmentScenario(context, enrichmentAccount)],
      ["listing", () => listingScenario(context, listingAccount)],
      ["ack", () => ackScenario(context, listingAccount)],
      ["search", () => searchScenario(context, searchAccount)],
      ["retention", () => retentionScenario(context, retentionAccount)],
    ];
    for (const [name, run] of plan) {
      if (interrupted) break;
      if (!selected(name)) continue;
      if (name === "ack" && !selected("listing")) {
        // Ack works on the listing scenario's seeded deliveries.
        failures.push({ scenario: name, error: "needs the listing scenario (its seeded deliveries)" });
        continue;
      }
      try {
        // Each scenario starts with the previous one's writes finished and flushed, so it does not pay for them.
        await waitForQuiet(database.pool);
        await database.pool.query("CHECKPOINT");
        outcomes.push(await run());
      } catch (error) {
        if (interrupted) break;
        log(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
        failures.push({ scenario: name, error: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    await cleanUp();
  }

  const seconds = (performance.now() - started) / 1000;
  const checks = outcomes.flatMap((outcome) => outcome.checks);
  const report = [
    "",
    ...outcomes.flatMap((outcome) => outcome.tables.flatMap((table) => [formatTable(table.header, table.rows), ""])),
    `Targets (${config.mode} run, ${seconds.toFixed(0)} s; ${host.cpus} × ${host.cpuModel}, ${host.memoryGiB} GiB, Node ${host.node}; load average ${host.loadAverageAtStart.map((load) => load.toFixed(1)).join(" ")} at start, ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")} at end):`,
    checksTable(checks),
    ...failures.map((failure) => `Scenario ${failure.scenario} FAILED: ${failure.error}`),
    "",
  ].join("\n");
  console.info(report);

  const resultsDir = path.join(ROOT, "bench", "results");
  await mkdir(resultsDir, { recursive: true });
  const stamp = new Date()
    .toISOString()
    .replaceAll(":", "-")
    .replace(/\.\d+Z$/, "Z");
  const json = JSON.stringify(
    {
      mode: config.mode,
      startedAt: new Date(Date.now() - seconds * 1000).toISOString(),
      seconds,
      machine: { ...host, loadAverageAtEnd: os.loadavg() },
      config,
      checks,
      failures,
      outcomes,
    },
    null,
    2,
  );
  await writeFile(path.join(resultsDir, `${stamp}-${config.mode}.json`), json);
  await writeFile(path.join(resultsDir, `latest-${config.mode}.json`), json);
  log(`results written to bench/results/latest-${config.mode}.json`);

  if (failures.length) return 1;
  if (strict && checks.some((check) => !check.holds)) return 1;
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
