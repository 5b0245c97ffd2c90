import type { CannonJob, LoadResult } from "../load";
import { waitForQuiet } from "../lib/database";
import { currentRss, runLoad, trackPeakRss, type ServerProcess } from "../lib/processes";
import { mb, ms, ratio, type BenchContext, type ScenarioOutcome } from "../lib/report";

const HEADERS = { "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" };

interface Target {
  name: string;
  server: ServerProcess;
  url: string;
}

interface IngestRun extends LoadResult {
  target: string;
  bodyBytes: number;
  connections: number;
  peakRssBytes?: number;
  rssBeforeBytes?: number;
}

const non200 = (result: LoadResult) =>
  Object.entries(result.statuses).reduce((sum, [status, count]) => sum + (status === "200" ? 0 : count), 0) +
  result.errors;

async function cannon(
  context: BenchContext,
  target: Target,
  bodyBytes: number,
  connections: number,
  seconds: number,
  measureRss = false,
): Promise<IngestRun> {
  await waitForQuiet(context.pool);
  const job: CannonJob = {
    kind: "cannon",
    url: target.url,
    method: "POST",
    headers: HEADERS,
    bodyBytes,
    connections,
    durationSeconds: seconds,
  };
  const rssBeforeBytes = measureRss ? await currentRss(target.server.pid) : undefined;
  const rss = measureRss ? await trackPeakRss(target.server.pid) : null;
  const result = await runLoad(job);
  const peakRssBytes = rss ? await rss.stop() : undefined;
  return {
    ...result,
    target: target.name,
    bodyBytes,
    connections,
    ...(peakRssBytes !== undefined && { peakRssBytes, rssBeforeBytes }),
  };
}

function detailRow(run: IngestRun): string[] {
  return [
    `${run.target}, ${run.bodyBytes >= 1_048_576 ? "1 MiB" : `${Math.round(run.bodyBytes / 1024)} KB`} × ${run.connections}`,
    run.rps.toFixed(0),
    ms(run.latency.p50),
    ms(run.latency.p99),
    String(non200(run)),
    run.peakRssBytes !== undefined ? `${mb(run.peakRssBytes)} (from ${mb(run.rssBeforeBytes ?? Number.NaN)})` : "",
  ];
}

/**
 * Ingest throughput and latency: 1 KB JSON bodies at 50 connections for a fixed time, against the bare baseline,
 * the baseline with the NOTIFY trigger, and the app's ingest path; each several times, interleaved, best run counts.
 * Then 100 KB and 1 MiB bodies with the server's peak RSS.
 */
export async function ingestScenario(context: BenchContext, endpointId: string): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const settings = config.ingest;
  const baseline: Target = { name: "baseline", server: context.baseline, url: `${context.baseline.baseUrl}/` };
  const baselineNotify: Target = {
    name: "baseline + NOTIFY trigger",
    server: context.baselineNotify,
    url: `${context.baselineNotify.baseUrl}/`,
  };
  const app: Target = {
    name: "app ingest",
    server: context.app,
    url: `${context.app.baseUrl}/webhooks/ingest/${endpointId}`,
  };
  const targets = [baseline, app, baselineNotify];

  for (const target of settings.warmupSeconds > 0 ? targets : []) {
    log(`ingest: warming up ${target.name}`);
    await cannon(context, target, 1024, settings.connections, settings.warmupSeconds);
  }
  const runs: IngestRun[] = [];
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const target of targets) {
      log(`ingest: 1 KB × ${settings.connections} connections, ${target.name}, round ${round}/${settings.rounds}`);
      runs.push(await cannon(context, target, 1024, settings.connections, settings.seconds));
    }
  }
  const best = (name: string) => runs.filter((run) => run.target === name).reduce((a, b) => (b.rps > a.rps ? b : a));
  const baseBest = best(baseline.name);
  const appBest = best(app.name);
  const notifyBest = best(baselineNotify.name);
  const appNon200 = runs.filter((run) => run.target === app.name).reduce((sum, run) => sum + non200(run), 0);

  const large: IngestRun[] = [];
  for (const [bodyBytes, connections] of [
    [100 * 1024, settings.connections],
    [1_048_576, settings.largeConnections],
  ] as const) {
    for (const target of [baseline, app]) {
      log(`ingest: ${bodyBytes} bytes × ${connections} connections, ${target.name}`);
      large.push(await cannon(context, target, bodyBytes, connections, settings.largeSeconds, true));
    }
  }
  const appLargest = large.find((run) => run.target === app.name && run.bodyBytes === 1_048_576)!;
  const largeNon200 = large.filter((run) => run.target === app.name).reduce((sum, run) => sum + non200(run), 0);

  const throughputRatio = appBest.rps / baseBest.rps;
  const p99Ratio = appBest.latency.p99 / baseBest.latency.p99;
  return {
    name: "ingest",
    figures: {
      best: { baseline: baseBest, app: appBest, baselineNotify: notifyBest },
      throughputRatio,
      p99Ratio,
      notifyCostRatio: notifyBest.rps / baseBest.rps,
      runs,
      large,
    },
    details: {
      header: ["Ingest run", "req/s", "p50", "p99", "non-200", "peak RSS"],
      rows: [...runs.map(detailRow), ...large.map(detailRow)],
    },
    checks: [
      {
        target: "Ingest throughput vs bare baseline (1 KB, 50 conn)",
        measured: `${ratio(throughputRatio)} (${appBest.rps.toFixed(0)} vs ${baseBest.rps.toFixed(0)} req/s)`,
        limit: "≥ 0.80×",
        holds: throughputRatio >= 0.8,
      },
      {
        target: "Ingest p99 vs baseline p99",
        measured: `${ratio(p99Ratio)} (${ms(appBest.latency.p99)} vs ${ms(baseBest.latency.p99)})`,
        limit: "≤ 2.00×",
        holds: p99Ratio <= 2,
      },
      {
        target: "Ingest non-200 answers (all app runs)",
        measured: String(appNon200 + largeNon200),
        limit: "0",
        holds: appNon200 + largeNon200 === 0,
      },
      {
        target: `Peak server RSS, ${settings.largeConnections} concurrent 1 MiB uploads`,
        measured: mb(appLargest.peakRssBytes ?? Number.NaN),
        limit: "≤ 400 MB",
        holds: (appLargest.peakRssBytes ?? Number.POSITIVE_INFINITY) <= 400 * 1024 * 1024,
      },
    ],
  };
}
