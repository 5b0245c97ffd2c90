import type { IngestLoad } from "../lib/config";
import type { CannonJob, LoadResult } from "../load";
import { waitForQuiet } from "../lib/database";
import { currentRss, runLoad, trackPeakRss, type ServerProcess } from "../lib/processes";
import { mb, ms, ratio, type BenchContext, type Check, type ScenarioOutcome } from "../lib/report";

/** The headers every ingest load sends. */
export const INGEST_HEADERS = { "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" };
const SMALL_BODY = 1024;
const RSS_LIMIT = 400 * 1024 * 1024;
const MAXIMUM_P99_RATIO = 1.5;

type TargetName = "app" | "routeHandler" | "groupCommit" | "singleRow" | "singleRowNotify" | "noDatabase";

/** The baselines: every server but the app's two ingest paths. */
const isBaseline = (name: TargetName) => name !== "app" && name !== "routeHandler";

interface Target {
  name: TargetName;
  label: string;
  server: ServerProcess;
  url: string;
}

interface IngestRun extends LoadResult {
  target: TargetName;
  bodyBytes: number;
  connections: number;
  round: number;
  peakRssBytes: number;
  rssBeforeBytes: number;
}

/** One server's figures for one load: its best run (by req/s) and, over all its runs, the peak RSS and the non-200s. */
interface TargetFigures {
  best: IngestRun;
  peakRssBytes: number;
  rssBeforeBytes: number;
  non200: number;
}

/** Answers other than 200, and requests with no answer at all. */
export const non200 = (result: LoadResult) =>
  Object.entries(result.statuses).reduce((sum, [status, count]) => sum + (status === "200" ? 0 : count), 0) +
  result.errors;

export const bodyLabel = (bytes: number) => (bytes >= 1_048_576 ? `${bytes / 1_048_576} MiB` : `${bytes / 1024} KB`);
const loadLabel = (load: IngestLoad) => `${bodyLabel(load.bodyBytes)} × ${load.connections}`;

async function cannon(context: BenchContext, target: Target, load: IngestLoad, round: number) {
  await waitForQuiet(context.pool);
  const job: CannonJob = {
    kind: "cannon",
    url: target.url,
    method: "POST",
    headers: INGEST_HEADERS,
    bodyBytes: load.bodyBytes,
    connections: load.connections,
    durationSeconds: load.seconds,
  };
  const rssBeforeBytes = await currentRss(target.server.pid);
  const rss = await trackPeakRss(target.server.pid);
  const result = await runLoad(job);
  const peakRssBytes = await rss.stop();
  return {
    ...result,
    target: target.name,
    bodyBytes: load.bodyBytes,
    connections: load.connections,
    round,
    peakRssBytes,
    rssBeforeBytes,
  } satisfies IngestRun;
}

function figuresOf(runs: IngestRun[]): TargetFigures {
  const best = runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const peak = runs.reduce((a, b) => (b.peakRssBytes > a.peakRssBytes ? b : a));
  return {
    best,
    peakRssBytes: peak.peakRssBytes,
    rssBeforeBytes: peak.rssBeforeBytes,
    non200: runs.reduce((sum, run) => sum + non200(run), 0),
  };
}

/**
 * Each load against every server, `rounds` times, the servers interleaved and the order rotated each round so that
 * none always runs right after the heaviest writer. The NOTIFY twin of the single-row baseline, which shows what the
 * trigger costs one-commit-per-request writes, runs at small bodies only.
 */
async function measureLoad(context: BenchContext, targets: Target[], load: IngestLoad) {
  const servers =
    load.bodyBytes <= SMALL_BODY ? targets : targets.filter((target) => target.name !== "singleRowNotify");
  const runs: IngestRun[] = [];
  for (let round = 1; round <= load.rounds; round += 1) {
    const shift = (round - 1) % servers.length;
    for (const target of [...servers.slice(shift), ...servers.slice(0, shift)]) {
      context.log(`ingest: ${loadLabel(load)}, ${target.label}, round ${round}/${load.rounds}`);
      runs.push(await cannon(context, target, load, round));
    }
  }
  const byTarget = new Map(
    servers.map((target) => [target.name, figuresOf(runs.filter((run) => run.target === target.name))]),
  );
  return { load, runs, byTarget };
}

type MeasuredLoad = Awaited<ReturnType<typeof measureLoad>>;

/**
 * What the app is held to at a load: at small bodies the group-commit baseline (≥ 0.8× its req/s), at larger ones the
 * better of the two database baselines (≥ 1.0×); and at every size a p99 at most 1.5× that baseline's. The targets
 * are the fast path's; the route handler's ratios to the same baselines (and to the fast path) are reported only.
 */
function comparisonOf({ load, byTarget }: MeasuredLoad) {
  const figures = (name: TargetName) => byTarget.get(name)!;
  const app = figures("app").best;
  const routeHandler = figures("routeHandler").best;
  const groupCommit = figures("groupCommit").best;
  const singleRow = figures("singleRow").best;
  const small = load.bodyBytes <= SMALL_BODY;
  const reference = small || groupCommit.rps >= singleRow.rps ? groupCommit : singleRow;
  const ratiosOf = (server: IngestRun) => ({
    throughputRatio: server.rps / reference.rps,
    p99Ratio: server.latency.p99 / reference.latency.p99,
    vsGroupCommit: server.rps / groupCommit.rps,
    vsSingleRow: server.rps / singleRow.rps,
    vsNoDatabase: server.rps / figures("noDatabase").best.rps,
  });
  const fastPath = ratiosOf(app);
  return {
    reference: reference.target,
    minimumThroughputRatio: small ? 0.8 : 1,
    throughputRatio: fastPath.throughputRatio,
    p99Ratio: fastPath.p99Ratio,
    appVsGroupCommit: fastPath.vsGroupCommit,
    appVsSingleRow: fastPath.vsSingleRow,
    appVsNoDatabase: fastPath.vsNoDatabase,
    routeHandler: { ...ratiosOf(routeHandler), vsFastPath: routeHandler.rps / app.rps },
  };
}

/**
 * Ingest throughput, latency and memory: JSON bodies of 1 KB, 100 KB and 1 MiB at fixed concurrency against the app's
 * two ingest paths (the launcher's fast path, and the Next.js route handler of a second app process started with
 * INGEST_FAST_PATH=false) and the bare baselines (bench/baselines/): single-row INSERT (and its twin with the NOTIFY
 * trigger), group commit, and HTTP with no database, the ceiling. Reports the best run of each, every server's peak
 * RSS, and both paths' ratios to each baseline.
 */
export async function ingestScenario(context: BenchContext, endpointId: string): Promise<ScenarioOutcome> {
  const { config, baselines, log } = context;
  const bare = (name: TargetName, label: string, server: ServerProcess): Target => ({
    name,
    label,
    server,
    url: `${server.baseUrl}/`,
  });
  const targets: Target[] = [
    bare("groupCommit", "bare group commit", baselines.groupCommit),
    {
      name: "app",
      label: "app ingest, fast path",
      server: context.app,
      url: `${context.app.baseUrl}/webhooks/ingest/${endpointId}`,
    },
    {
      name: "routeHandler",
      label: "app ingest, Next.js route handler",
      server: context.routeHandlerApp,
      url: `${context.routeHandlerApp.baseUrl}/webhooks/ingest/${endpointId}`,
    },
    bare("singleRow", "bare single-row INSERT", baselines.singleRow),
    bare("noDatabase", "bare HTTP, no database", baselines.noDatabase),
    bare("singleRowNotify", "bare single-row INSERT + NOTIFY trigger", baselines.singleRowNotify),
  ];
  const labelOf = (name: TargetName) => targets.find((target) => target.name === name)!.label;

  const warmup = { bodyBytes: SMALL_BODY, connections: 50, seconds: config.ingest.warmupSeconds, rounds: 1 };
  for (const target of warmup.seconds > 0 ? targets : []) {
    log(`ingest: warming up ${target.label}`);
    await cannon(context, target, warmup, 0);
  }
  const measured: MeasuredLoad[] = [];
  for (const load of config.ingest.loads) measured.push(await measureLoad(context, targets, load));
  const compared = measured.map((entry) => ({ ...entry, comparison: comparisonOf(entry) }));

  // The memory target is about the load with the most bytes in flight (100 concurrent 1 MiB uploads in a full run).
  const inFlight = ({ load }: MeasuredLoad) => load.bodyBytes * load.connections;
  const largest = measured.reduce((a, b) => (inFlight(b) > inFlight(a) ? b : a));
  const appPeak = largest.byTarget.get("app")!;
  const non200Of = (wanted: (name: TargetName) => boolean) =>
    measured.reduce(
      (sum, { byTarget }) =>
        sum + [...byTarget].reduce((total, [name, figures]) => total + (wanted(name) ? figures.non200 : 0), 0),
      0,
    );
  const appNon200 = non200Of((name) => name === "app");
  const baselineNon200 = non200Of(isBaseline);

  const checks: Check[] = compared.flatMap(({ load, byTarget, comparison }) => {
    const app = byTarget.get("app")!.best;
    const reference = byTarget.get(comparison.reference)!.best;
    return [
      {
        target: `Ingest ${loadLabel(load)}: req/s vs ${labelOf(comparison.reference)}`,
        measured: `${ratio(comparison.throughputRatio)} (${app.rps.toFixed(0)} vs ${reference.rps.toFixed(0)})`,
        limit: `≥ ${ratio(comparison.minimumThroughputRatio)}`,
        holds: comparison.throughputRatio >= comparison.minimumThroughputRatio,
      },
      {
        target: `Ingest ${loadLabel(load)}: p99 vs ${labelOf(comparison.reference)}`,
        measured: `${ratio(comparison.p99Ratio)} (${ms(app.latency.p99)} vs ${ms(reference.latency.p99)})`,
        limit: `≤ ${ratio(MAXIMUM_P99_RATIO)}`,
        holds: comparison.p99Ratio <= MAXIMUM_P99_RATIO,
      },
    ];
  });
  checks.push(
    {
      target: `Peak app RSS, ${loadLabel(largest.load)} concurrent uploads`,
      measured: `${mb(appPeak.peakRssBytes)} (${mb(appPeak.rssBeforeBytes)} before)`,
      limit: `≤ ${mb(RSS_LIMIT)}`,
      holds: appPeak.peakRssBytes <= RSS_LIMIT,
    },
    {
      target: "Ingest non-200 answers, all app runs",
      measured: String(appNon200),
      limit: "0",
      holds: appNon200 === 0,
    },
    {
      // A ratio against a baseline that failed requests would flatter it.
      target: "Non-200 answers, all baseline runs",
      measured: String(baselineNon200),
      limit: "0",
      holds: baselineNon200 === 0,
    },
  );

  const rounds = (load: IngestLoad) => (load.rounds > 1 ? `best of ${load.rounds}` : "one run");
  return {
    name: "ingest",
    figures: {
      loads: compared.map(({ load, byTarget, comparison }) => ({
        load,
        comparison,
        servers: Object.fromEntries(byTarget),
      })),
      runs: measured.flatMap((entry) => entry.runs),
    },
    tables: [
      {
        header: ["Ingest (best run)", "req/s", "p50", "p99", "peak RSS (before)", "non-200"],
        rows: measured.flatMap(({ load, byTarget }) =>
          [...byTarget].map(([name, figures]) => [
            `${loadLabel(load)}, ${labelOf(name)} (${rounds(load)})`,
            figures.best.rps.toFixed(0),
            ms(figures.best.latency.p50),
            ms(figures.best.latency.p99),
            `${mb(figures.peakRssBytes)} (${mb(figures.rssBeforeBytes)})`,
            String(figures.non200),
          ]),
        ),
      },
      {
        header: [
          "Ingest, app req/s ÷",
          "group commit",
          "single-row",
          "no database",
          "fast path",
          "p99 ÷ reference p99 (reference)",
        ],
        rows: compared.flatMap(({ load, comparison }) => [
          [
            `${loadLabel(load)}, fast path`,
            ratio(comparison.appVsGroupCommit),
            ratio(comparison.appVsSingleRow),
            ratio(comparison.appVsNoDatabase),
            "",
            `${ratio(comparison.p99Ratio)} (${labelOf(comparison.reference)})`,
          ],
          [
            `${loadLabel(load)}, route handler`,
            ratio(comparison.routeHandler.vsGroupCommit),
            ratio(comparison.routeHandler.vsSingleRow),
            ratio(comparison.routeHandler.vsNoDatabase),
            ratio(comparison.routeHandler.vsFastPath),
            `${ratio(comparison.routeHandler.p99Ratio)} (${labelOf(comparison.reference)})`,
          ],
        ]),
      },
    ],
    checks,
  };
}
