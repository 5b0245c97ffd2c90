import { encodeCursor } from "@/lib/cursor";
import { DAY_MS, ensureDeliveryPartitions } from "@/lib/inbox/delivery-partitions";
import type { LoadResult, SequenceRequest } from "../load";
import { seedDeliveries } from "../lib/database";
import type { BenchAccount } from "../lib/fixtures";
import { runLoad } from "../lib/processes";
import { ms, ratio, type BenchContext, type Check, type ScenarioOutcome } from "../lib/report";

const PAGE = 100;
/** The deep cursor starts a page this far into the listing. */
const DEEP_FRACTION = 0.9;

interface ListingRun {
  stored: number;
  unacknowledged: boolean;
  page: "first" | "deep";
  latency: { p50: number; p90: number; p99: number; max: number; mean: number; count: number };
}

/** The cursor the API would have issued after the row at `offset` (0-based) of this listing. */
async function cursorAt(
  context: BenchContext,
  account: BenchAccount,
  unacknowledged: boolean,
  offset: number,
): Promise<string> {
  const { rows } = await context.pool.query<{ created_at: Date; id: string }>(
    `SELECT created_at, id::text FROM webhook_deliveries
     WHERE workspace_id = $1 ${unacknowledged ? "AND acknowledged_at IS NULL" : ""}
     ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [account.workspaceId, offset],
  );
  const row = rows[0];
  if (!row) throw new Error(`No delivery at offset ${offset}`);
  const scope = {
    workspaceId: account.workspaceId,
    list: "deliveries",
    endpointId: undefined,
    unacknowledged: unacknowledged || undefined,
    order: "desc",
  };
  return encodeCursor({ createdAt: row.created_at, id: row.id }, scope);
}

function assertAllOk(what: string, result: LoadResult): void {
  const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
  if (bad.length || result.errors)
    throw new Error(`${what}: answers other than 200 (${JSON.stringify(result.statuses)}, ${result.errors} errors)`);
}

/**
 * Listing pages of 100 at each stored size (10 k and 1 M in the full run), seeded with SQL: the first page and a page
 * 90% deep, with and without `unacknowledged=true` (half the deliveries are acknowledged), each a sequence of calls.
 */
export async function listingScenario(context: BenchContext, account: BenchAccount): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const anchor = new Date(Date.now() - 86_400_000);
  const runs: ListingRun[] = [];
  let stored = 0;
  for (const size of config.listing.sizes) {
    log(`listing: seeding deliveries ${stored + 1}..${size}`);
    // The days they were received on get their partitions, as they would have had then (the bench database has a
    // month of them, but the app's first upkeep pass dropped every empty one).
    for (let day = anchor.getTime() - size * 1000; day < anchor.getTime() + DAY_MS; day += DAY_MS)
      await ensureDeliveryPartitions(context.pool, new Date(day), 0);
    const seedStarted = performance.now();
    await seedDeliveries(context.pool, {
      workspaceId: account.workspaceId,
      endpointId: account.endpointId,
      from: stored + 1,
      to: size,
      anchor,
    });
    log(`listing: seeded ${size - stored} in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    stored = size;
    await context.pool.query("CHECKPOINT"); // the seed's writes are flushed now, not during the measurement
    // The four variants are interleaved request by request, so that noise from the rest of the machine hits all alike.
    const variants: SequenceRequest[] = [];
    for (const unacknowledged of [false, true]) {
      const matching = unacknowledged ? Math.ceil(size / 2) : size;
      const deep = await cursorAt(context, account, unacknowledged, Math.floor(matching * DEEP_FRACTION) - 1);
      for (const page of ["first", "deep"] as const) {
        const query = new URLSearchParams({ limit: String(PAGE) });
        if (unacknowledged) query.set("unacknowledged", "true");
        if (page === "deep") query.set("cursor", deep);
        variants.push({
          tag: `${unacknowledged ? "unacked" : "all"}/${page}`,
          method: "GET",
          path: `/v1/webhook-endpoints/deliveries?${query}`,
          headers: { authorization: `Bearer ${account.key}` },
        });
      }
    }
    log(
      `listing: ${size} stored, first and deep pages, with and without unacknowledged=true, ${config.listing.requests} each`,
    );
    const rounds = config.listing.warmup + config.listing.requests;
    const result = await runLoad({
      kind: "sequence",
      baseUrl: context.app.baseUrl,
      requests: Array.from({ length: rounds }, () => variants).flat(),
      warmup: config.listing.warmup * variants.length,
    });
    assertAllOk(`listing ${size}`, result);
    for (const variant of variants) {
      const [filter, page] = variant.tag!.split("/") as ["all" | "unacked", "first" | "deep"];
      runs.push({ stored: size, unacknowledged: filter === "unacked", page, latency: result.byTag![variant.tag!]! });
    }
  }

  const [small, large] = [config.listing.sizes[0]!, config.listing.sizes.at(-1)!];
  const p50 = (size: number, unacknowledged: boolean, page: "first" | "deep") =>
    runs.find((run) => run.stored === size && run.unacknowledged === unacknowledged && run.page === page)!.latency.p50;
  const growth: { label: string; value: number }[] = [];
  const depth: { label: string; value: number }[] = [];
  for (const unacknowledged of [false, true]) {
    const filter = unacknowledged ? "unacked" : "all";
    for (const page of ["first", "deep"] as const)
      growth.push({
        label: `${filter}, ${page}`,
        value: p50(large, unacknowledged, page) / p50(small, unacknowledged, page),
      });
    for (const size of [small, large])
      depth.push({
        label: `${filter}, ${size}`,
        value: p50(size, unacknowledged, "deep") / p50(size, unacknowledged, "first"),
      });
  }
  const worst = (list: { label: string; value: number }[]) => list.reduce((a, b) => (b.value > a.value ? b : a));
  const label = (count: number) =>
    count >= 1_000_000 ? `${count / 1_000_000}M` : count >= 1000 ? `${count / 1000}k` : String(count);
  const checks: Check[] = [
    {
      target: `Listing page at ${label(large)} vs at ${label(small)} (p50, worst case)`,
      measured: `${ratio(worst(growth).value)} (${worst(growth).label})`,
      limit: "≤ 1.50×",
      holds: worst(growth).value <= 1.5,
    },
    {
      target: "Listing deep cursor vs first page (p50, worst case)",
      measured: `${ratio(worst(depth).value)} (${worst(depth).label})`,
      limit: "≤ 1.50×",
      holds: worst(depth).value <= 1.5,
    },
  ];
  return {
    name: "listing",
    figures: { runs, growth, depth },
    tables: [
      {
        header: ["Listing (limit 100)", "p50", "p99", "requests"],
        rows: runs.map((run) => [
          `${label(run.stored)} stored, ${run.page} page${run.unacknowledged ? ", unacknowledged" : ""}`,
          ms(run.latency.p50),
          ms(run.latency.p99),
          String(run.latency.count),
        ]),
      },
    ],
    checks,
  };
}
