import os from "node:os";
import type pg from "pg";
import type { IngestLoad } from "../lib/config";
import type { CannonJob, LoadResult } from "../load";
import { cpuSeconds, postgresCpu, postgresCpuSpent, sampleMachineTicks } from "../lib/cpu-usage";
import { waitForQuiet } from "../lib/database";
import { runLoad, type ServerProcess } from "../lib/processes";
import { ms, ratio, type BenchContext, type ScenarioOutcome } from "../lib/report";

const HEADERS = { "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" };
/** Below this idle share of the machine during a load, the cores are what limits it. */
const CPU_BOUND_IDLE = 0.1;

type Shape = "one process" | "two processes";

interface ScalingRun {
  shape: Shape;
  round: number;
  /** Sum over the load generators. */
  rps: number;
  /** Worst over the load generators. */
  p50: number;
  p99: number;
  non200: number;
  /** Rows the run stored (requests still in flight when a generator stopped included). */
  deliveries: number;
  /** From the first generator's start to the last one's end. */
  seconds: number;
  /** CPU of the app processes under load and of all of PostgreSQL, until every accepted delivery was written. */
  appCpuSeconds: number;
  postgresCpuSeconds: number;
  /** The load generators' own CPU while they ran. */
  generatorCpuSeconds: number;
  walBytes: number;
  /** Transactions that got a transaction id: the group-commit INSERTs, plus the rate limiter's shared-count upserts. */
  writeTransactions: number;
  /** Idle share of all cores over `seconds` (the generators' start-up and exit excluded). */
  machineIdle: number;
  loads: LoadResult[];
}

interface DatabaseState {
  deliveries: number;
  walLsn: bigint;
  nextXid: bigint;
}

/** Exact counts (the statistics views lag by up to seconds): the endpoint's rows, the WAL position, the next xid. */
async function databaseState(pool: pg.Pool, endpointId: string): Promise<DatabaseState> {
  const { rows } = await pool.query<{ deliveries: number; lsn: string; xid: string }>(
    `SELECT (SELECT count(*) FROM webhook_deliveries WHERE webhook_endpoint_id = $1)::int AS deliveries,
            pg_current_wal_lsn()::text AS lsn, pg_snapshot_xmax(pg_current_snapshot())::text AS xid`,
    [endpointId],
  );
  const [high, low] = rows[0]!.lsn.split("/").map((part) => BigInt(`0x${part}`));
  return { deliveries: rows[0]!.deliveries, walLsn: (high! << 32n) + low!, nextXid: BigInt(rows[0]!.xid) };
}

const non200 = (result: LoadResult) =>
  Object.entries(result.statuses).reduce((sum, [status, count]) => sum + (status === "200" ? 0 : count), 0) +
  result.errors;
const bodyLabel = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1024} KB`);
const loadLabel = (load: IngestLoad) => `${bodyLabel(load.bodyBytes)} × ${load.connections}`;
const percent = (share: number) => (Number.isFinite(share) ? `${(share * 100).toFixed(0)} %` : "n/a");
const perThousand = (value: number, deliveries: number) => ((value / deliveries) * 1000).toFixed(2);

/**
 * One load against `servers` at once: the connections split evenly, one generator per server, all started together.
 * CPU is read before the generators start and once the database is quiet again, so the deliveries a run accepted
 * are paid for in full.
 */
async function measure(
  context: BenchContext,
  endpointId: string,
  servers: ServerProcess[],
  load: IngestLoad,
  shape: Shape,
  round: number,
): Promise<ScalingRun> {
  const { pool } = context;
  await waitForQuiet(pool);
  const before = await databaseState(pool, endpointId);
  const postgresBefore = await postgresCpu(pool);
  const appBefore = await Promise.all(servers.map((server) => cpuSeconds(server.pid)));
  const machine = sampleMachineTicks();
  const job = (server: ServerProcess): CannonJob => ({
    kind: "cannon",
    url: `${server.baseUrl}/webhooks/ingest/${endpointId}`,
    method: "POST",
    headers: HEADERS,
    bodyBytes: load.bodyBytes,
    connections: load.connections / servers.length,
    durationSeconds: load.seconds,
  });
  const loads = await Promise.all(servers.map((server) => runLoad(job(server))));
  await machine.stop();
  await waitForQuiet(pool);
  const appAfter = await Promise.all(servers.map((server) => cpuSeconds(server.pid)));
  const postgresAfter = await postgresCpu(pool);
  const after = await databaseState(pool, endpointId);

  // From the first generator's start to the last one's end: their start-up and exit are outside, while in a short run
  // the generators' own windows may barely overlap.
  const ran = loads.map((result) => result.ran!);
  const from = Math.min(...ran.map((run) => run.startedAt));
  const to = Math.max(...ran.map((run) => run.endedAt));
  return {
    shape,
    round,
    rps: loads.reduce((sum, result) => sum + result.rps, 0),
    p50: Math.max(...loads.map((result) => result.latency.p50)),
    p99: Math.max(...loads.map((result) => result.latency.p99)),
    non200: loads.reduce((sum, result) => sum + non200(result), 0),
    deliveries: after.deliveries - before.deliveries,
    seconds: (to - from) / 1000,
    appCpuSeconds: appAfter.reduce((sum, cpu, index) => sum + cpu - appBefore[index]!, 0),
    postgresCpuSeconds: postgresCpuSpent(postgresBefore, postgresAfter),
    generatorCpuSeconds: ran.reduce((sum, run) => sum + run.cpuSeconds, 0),
    walBytes: Number(after.walLsn - before.walLsn),
    writeTransactions: Number(after.nextXid - before.nextXid),
    machineIdle: machine.idleShareWithin(from, to),
    loads,
  };
}

/**
 * Cores kept busy during a run: the app processes, PostgreSQL, the load generators, and the rest of the machine's busy
 * time (other processes, and kernel work charged to none). App and PostgreSQL CPU include the write-back after the
 * generators stop, so their shares are slightly high and the rest slightly low.
 */
function coresBusy(run: ScalingRun, cores: number): number[] {
  const measured = [run.appCpuSeconds, run.postgresCpuSeconds, run.generatorCpuSeconds].map((cpu) => cpu / run.seconds);
  return [...measured, (1 - run.machineIdle) * cores - measured.reduce((sum, busy) => sum + busy, 0)];
}

/** App and PostgreSQL CPU milliseconds per delivery. */
const serverCpuMs = (run: ScalingRun) => ((run.appCpuSeconds + run.postgresCpuSeconds) / run.deliveries) * 1000;

/**
 * One line a load: how far the second process took it, whether the machine had cores left (and how many of the busy
 * ones went to the rest of the machine), and what a delivery cost the app and PostgreSQL in CPU with two processes.
 */
function conclusion(load: IngestLoad, one: ScalingRun, two: ScalingRun, cores: number): string {
  const [oneBound, twoBound] = [one, two].map((run) => run.machineIdle < CPU_BOUND_IDLE);
  const verdict =
    oneBound && twoBound
      ? "CPU-bound"
      : oneBound || twoBound
        ? `CPU-bound with ${oneBound ? "one" : "two"} only`
        : "not CPU-bound";
  return (
    `${loadLabel(load)}: 2 processes ${ratio(two.rps / one.rps)} one process (${two.rps.toFixed(0)} vs ` +
    `${one.rps.toFixed(0)} req/s); machine idle ${percent(one.machineIdle)} with one, ${percent(two.machineIdle)} ` +
    `with two: ${verdict} (rest of the machine ${coresBusy(two, cores)[3]!.toFixed(2)} cores); app + PG CPU per ` +
    `delivery ${serverCpuMs(two).toFixed(2)} ms with two, ${ratio(serverCpuMs(two) / serverCpuMs(one))} one's`
  );
}

/**
 * Ingest past one process: the same load against one app process and against two (same database, same endpoint,
 * the connections split evenly between them), interleaved over rounds, the best run of each shape counting. Besides
 * throughput and latency, each run's CPU per delivery of the app and of PostgreSQL, WAL per delivery, deliveries per
 * write transaction and the machine's idle share say which resource runs out first.
 */
export async function scalingScenario(
  context: BenchContext,
  servers: [ServerProcess, ServerProcess],
  endpointId: string,
): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const shapes: [Shape, ServerProcess[]][] = [
    ["one process", servers.slice(0, 1)],
    ["two processes", servers],
  ];
  // The second process is fresh: both are warmed up under the two-process shape, so neither pays for its JIT in a run.
  if (config.scaling.warmupSeconds > 0) {
    log("scaling: warming up both app processes");
    const warmup = { bodyBytes: 1024, connections: 100, seconds: config.scaling.warmupSeconds, rounds: 1 };
    await measure(context, endpointId, servers, warmup, "two processes", 0);
  }

  const measured = [];
  for (const load of config.scaling.loads) {
    const runs: ScalingRun[] = [];
    for (let round = 1; round <= load.rounds; round += 1) {
      // Alternate which shape goes first, so that neither always runs right after the other's write-back.
      const order = round % 2 === 1 ? shapes : [...shapes].reverse();
      for (const [shape, group] of order) {
        log(`scaling: ${loadLabel(load)}, ${shape}, round ${round}/${load.rounds}`);
        runs.push(await measure(context, endpointId, group, load, shape, round));
      }
    }
    const best = (shape: Shape) => runs.filter((run) => run.shape === shape).reduce((a, b) => (b.rps > a.rps ? b : a));
    measured.push({ load, runs, one: best("one process"), two: best("two processes") });
  }

  const cores = os.cpus().length;
  const rounds = (load: IngestLoad) => (load.rounds > 1 ? `best of ${load.rounds}` : "one run");
  const row = (load: IngestLoad, run: ScalingRun, runs: ScalingRun[]) => [
    `${loadLabel(load)}, ${run.shape} (${rounds(load)})`,
    run.rps.toFixed(0),
    ms(run.p50),
    ms(run.p99),
    perThousand(run.appCpuSeconds, run.deliveries),
    perThousand(run.postgresCpuSeconds, run.deliveries),
    `${(run.walBytes / run.deliveries / 1024).toFixed(1)} KiB`,
    (run.deliveries / run.writeTransactions).toFixed(1),
    coresBusy(run, cores)
      .map((busy) => busy.toFixed(2))
      .join(" / "),
    percent(run.machineIdle),
    String(runs.reduce((sum, other) => sum + (other.shape === run.shape ? other.non200 : 0), 0)),
  ];
  return {
    name: "scaling",
    figures: {
      cores,
      loads: measured.map(({ load, one, two }) => ({
        load,
        one,
        two,
        throughputRatio: two.rps / one.rps,
        conclusion: conclusion(load, one, two, cores),
      })),
      runs: measured.flatMap((entry) => entry.runs),
    },
    tables: [
      {
        header: [
          "Scaling ingest (connections in total)",
          "req/s",
          "worst p50",
          "worst p99",
          "app CPU s / 1k",
          "PG CPU s / 1k",
          "WAL / delivery",
          "deliveries / xact",
          `cores busy (of ${cores}): app / PG / load gen / rest`,
          "machine idle",
          "non-200 (all runs)",
        ],
        rows: measured.flatMap(({ load, runs, one, two }) => [row(load, one, runs), row(load, two, runs)]),
      },
      {
        header: ["Scaling, conclusion"],
        rows: measured.map(({ load, one, two }) => [conclusion(load, one, two, cores)]),
      },
    ],
    checks: [],
  };
}
