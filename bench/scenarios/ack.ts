import type { LoadResult, SequenceRequest } from "../load";
import type { BenchAccount } from "../lib/fixtures";
import { runLoad } from "../lib/processes";
import { ms, ratio, type BenchContext, type ScenarioOutcome } from "../lib/report";

const BULK = 100;

function assertAllOk(what: string, result: LoadResult): void {
  const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
  if (bad.length || result.errors)
    throw new Error(`${what}: answers other than 200 (${JSON.stringify(result.statuses)}, ${result.errors} errors)`);
}

/**
 * Acknowledgement latency on the seeded listing workspace: single acks (`POST …/deliveries/:id/ack`) and bulk acks of
 * 100 ids (`POST …/deliveries/ack`), every call on deliveries still pending, so each one really updates rows.
 */
export async function ackScenario(context: BenchContext, account: BenchAccount): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const singles = config.ack.warmup + config.ack.singleRequests;
  const bulks = config.ack.warmup + config.ack.bulkRequests;
  const { rows } = await context.pool.query<{ id: string }>(
    `SELECT id::text FROM webhook_deliveries WHERE workspace_id = $1 AND acknowledged_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`,
    [account.workspaceId, singles + bulks * BULK],
  );
  const ids = rows.map((row) => row.id);
  if (ids.length < singles + bulks * BULK) throw new Error(`Only ${ids.length} pending deliveries to acknowledge`);
  const headers = { authorization: `Bearer ${account.key}` };

  log(`ack: ${config.ack.singleRequests} single acks`);
  const singleRequests: SequenceRequest[] = ids
    .slice(0, singles)
    .map((id) => ({ method: "POST", path: `/v1/webhook-endpoints/deliveries/${id}/ack`, headers }));
  const single = await runLoad({
    kind: "sequence",
    baseUrl: context.app.baseUrl,
    requests: singleRequests,
    warmup: config.ack.warmup,
  });
  assertAllOk("single ack", single);

  log(`ack: ${config.ack.bulkRequests} bulk acks of ${BULK} ids`);
  const bulkRequests: SequenceRequest[] = Array.from({ length: bulks }, (_, index) => ({
    method: "POST",
    path: "/v1/webhook-endpoints/deliveries/ack",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ ids: ids.slice(singles + index * BULK, singles + (index + 1) * BULK) }),
  }));
  const bulk = await runLoad({
    kind: "sequence",
    baseUrl: context.app.baseUrl,
    requests: bulkRequests,
    warmup: config.ack.warmup,
    extract: "data.acknowledged.length",
  });
  assertAllOk("bulk ack", bulk);
  if (bulk.extracted && bulk.extracted.p50 !== BULK)
    throw new Error(`Bulk ack acknowledged ${bulk.extracted.p50} of ${BULK} ids`);

  const p99Ratio = bulk.latency.p99 / single.latency.p99;
  return {
    name: "ack",
    figures: { single, bulk, p99Ratio },
    tables: [
      {
        header: ["Ack", "p50", "p99", "requests"],
        rows: [
          ["single ack", ms(single.latency.p50), ms(single.latency.p99), String(single.requests)],
          [`bulk ack of ${BULK}`, ms(bulk.latency.p50), ms(bulk.latency.p99), String(bulk.requests)],
        ],
      },
    ],
    checks: [
      {
        target: `Bulk ack of ${BULK} ids vs single ack (p99)`,
        measured: `${ratio(p99Ratio)} (${ms(bulk.latency.p99)} vs ${ms(single.latency.p99)})`,
        limit: "< 10.00×",
        holds: p99Ratio < 10,
      },
    ],
  };
}
