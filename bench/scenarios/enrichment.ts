import { domainEmailsContract } from "@/lib/contracts/enrichment";
import type { LoadResult, SequenceRequest } from "../load";
import type { BenchAccount } from "../lib/fixtures";
import { runLoad } from "../lib/processes";
import { ms, type BenchContext, type ScenarioOutcome } from "../lib/report";

/** A company the local email-finder fake knows (test/fakes/hunter-server.ts). */
const DOMAIN = "acme-robotics.example";

function assertAllOk(what: string, result: LoadResult): void {
  const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
  if (bad.length || result.errors)
    throw new Error(`${what}: answers other than 200 (${JSON.stringify(result.statuses)}, ${result.errors} errors)`);
}

async function call(context: BenchContext, account: BenchAccount, headers: Record<string, string> = {}) {
  const response = await fetch(`${context.app.baseUrl}${domainEmailsContract.path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify({ domain: DOMAIN }),
  });
  const json = (await response.json()) as { meta?: { cached?: boolean; providersAttempted?: number } };
  if (response.status !== 200) throw new Error(`domain-emails answered ${response.status}: ${JSON.stringify(json)}`);
  return json.meta ?? {};
}

/**
 * The enrichment engine's own cost: domain-emails with a live key, served from the answer cache, and through a
 * zero-latency local provider (the email-finder fake on loopback, `Cache-Control: no-cache`). Client-side latency
 * on loopback is auth + validation + cache/waterfall + billing + ledger; `meta.latencyMs` is the engine's own clock.
 */
export async function enrichmentScenario(context: BenchContext, account: BenchAccount): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const first = await call(context, account);
  const again = await call(context, account);
  if (first.cached !== false || again.cached !== true)
    throw new Error(`The answer cache did not fill: ${JSON.stringify({ first, again })}`);
  const total = config.enrichment.warmup + config.enrichment.requests;
  const request = (extra: Record<string, string>): SequenceRequest => ({
    method: "POST",
    path: domainEmailsContract.path,
    headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json", ...extra },
    body: JSON.stringify({ domain: DOMAIN }),
  });

  // Interleaved with /healthz (the framework and one database round trip, no engine), the floor this machine
  // gives any route at the moment: context for the absolute figures below, which the rest of the machine moves.
  log(`enrichment: ${config.enrichment.requests} cache hits, interleaved with /healthz`);
  const hitAndFloor = await runLoad({
    kind: "sequence",
    baseUrl: context.app.baseUrl,
    requests: Array.from({ length: total }, () => [
      { ...request({}), tag: "hit" },
      { tag: "floor", method: "GET" as const, path: "/healthz" },
    ]).flat(),
    warmup: config.enrichment.warmup * 2,
    extract: "meta.latencyMs",
  });
  assertAllOk("enrichment cache hit", hitAndFloor);
  const hit = { ...hitAndFloor, latency: hitAndFloor.byTag!.hit!, requests: hitAndFloor.byTag!.hit!.count };
  const floor = hitAndFloor.byTag!.floor!;

  log(`enrichment: ${config.enrichment.requests} calls through the local provider`);
  const provider = await runLoad({
    kind: "sequence",
    baseUrl: context.app.baseUrl,
    requests: Array.from({ length: total }, () => request({ "cache-control": "no-cache" })),
    warmup: config.enrichment.warmup,
    extract: "meta.latencyMs",
  });
  assertAllOk("enrichment through the provider", provider);

  return {
    name: "enrichment",
    figures: { hit, provider, floor },
    tables: [
      {
        header: ["Enrichment (domain-emails)", "p50", "p99", "meta.latencyMs p50", "meta.latencyMs p99"],
        rows: [
          ["/healthz (no engine), interleaved with the cache hits", ms(floor.p50), ms(floor.p99), "", ""],
          [
            "cache hit",
            ms(hit.latency.p50),
            ms(hit.latency.p99),
            ms(hit.extracted?.p50 ?? Number.NaN),
            ms(hit.extracted?.p99 ?? Number.NaN),
          ],
          [
            "zero-latency local provider",
            ms(provider.latency.p50),
            ms(provider.latency.p99),
            ms(provider.extracted?.p50 ?? Number.NaN),
            ms(provider.extracted?.p99 ?? Number.NaN),
          ],
        ],
      },
    ],
    checks: [
      // The engine's overhead is what a cache hit costs beyond the floor any route gets at that moment (/healthz,
      // interleaved with the hits): an absolute latency would measure the machine as much as the engine.
      {
        target: "Enrichment engine overhead on a cache hit (p50 over the /healthz floor)",
        measured: `${ms(hit.latency.p50 - floor.p50)} (cache hit ${ms(hit.latency.p50)}, p99 ${ms(hit.latency.p99)}; /healthz ${ms(floor.p50)})`,
        limit: "≤ 5 ms",
        holds: hit.latency.p50 - floor.p50 <= 5,
      },
    ],
  };
}
