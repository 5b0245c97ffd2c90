import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type RunningApp } from "@/test/app-server";
import {
  apiKeyLookups,
  committedTransactions,
  connectAndDrop,
  createTenant,
  openEventStream,
  holdEventStreams,
  quantile,
  sleep,
  timedIngest,
  type OpenStream,
  type Tenant,
} from "./event-stream-load";

// Issue #18 items 2 and 3: many open event streams of one workspace must not slow other workspaces' ingest nor cost
// queries per stream, are capped per key and per workspace, and streams dropped while connecting leave nothing behind.

const STREAMS = 1_000;

let app: RunningApp;
let cappedApp: RunningApp;

beforeAll(async () => {
  [app, cappedApp] = await Promise.all([
    // Per-minute request limits off: the test opens thousands of streams with a handful of keys.
    startApp({ RATE_LIMIT_API_PER_MINUTE: "0", EVENT_STREAMS_PER_KEY: "500", EVENT_STREAMS_PER_WORKSPACE: "1000" }),
    startApp({ RATE_LIMIT_API_PER_MINUTE: "0", EVENT_STREAMS_PER_KEY: "2", EVENT_STREAMS_PER_WORKSPACE: "3" }),
  ]);
});

afterAll(async () => {
  await Promise.all([app?.stop(), cappedApp?.stop()]);
});

const databaseUrl = () => process.env.DATABASE_URL!;

/**
 * `measured` sends up to 150 deliveries one after another (bounded to 20 s) while `background` sends one every
 * 500 ms, each of which is an event for `background`'s open streams. Returns `measured`'s latencies, the deliveries
 * of each, and the transactions committed meanwhile. (Every event costs a write to each open stream: the background
 * rate is what a busy workspace sends, not more, so what is measured is the streams' bookkeeping, not raw fan-out.)
 */
async function mixedIngest(measured: Tenant, background: Tenant, settleMs?: number) {
  const before = await committedTransactions(databaseUrl(), settleMs);
  const lookupsBefore = await apiKeyLookups(databaseUrl(), 0);
  let running = true;
  let backgroundSent = 0;
  const backgroundLoop = (async () => {
    while (running) {
      await timedIngest(background.ingestUrl, `bg${backgroundSent}`);
      backgroundSent += 1;
      await sleep(500);
    }
  })();
  const latencies: number[] = [];
  const deadline = performance.now() + 20_000;
  for (let index = 0; index < 150 && performance.now() < deadline; index += 1) {
    latencies.push(await timedIngest(measured.ingestUrl, `m${index}`));
    await sleep(10);
  }
  running = false;
  await backgroundLoop;
  const deliveries = latencies.length + backgroundSent;
  const transactions = (await committedTransactions(databaseUrl())) - before;
  const keyLookups = (await apiKeyLookups(databaseUrl(), 0)) - lookupsBefore;
  return {
    keyLookups,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    deliveries,
    backgroundDeliveries: backgroundSent,
    transactions,
    transactionsPerDelivery: transactions / deliveries,
  };
}

/** Committed transactions per delivery over `count` deliveries sent one after another to `tenant`. */
async function transactionsPerDelivery(tenant: Tenant, count = 30, settleMs?: number): Promise<number> {
  const before = await committedTransactions(databaseUrl(), settleMs);
  for (let index = 0; index < count; index += 1) await timedIngest(tenant.ingestUrl, `t${index}`);
  return ((await committedTransactions(databaseUrl())) - before) / count;
}

describe("event streams under load", () => {
  it(`${STREAMS} streams of one workspace leave another workspace's ingest latency and the queries per delivery near the no-streams baseline`, async () => {
    const busy = await createTenant(app.baseUrl, "Busy", 2);
    const other = await createTenant(app.baseUrl, "Other");
    await mixedIngest(other, busy); // warm-up: first requests compile routes and fill pools
    const baseline = await mixedIngest(other, busy);

    const closeStreams = await holdEventStreams(app.baseUrl, busy.keys, STREAMS);
    try {
      // Opening them took thousands of transactions, which must not count in the next phase.
      // p99 of 150 requests is nearly their slowest: one pause of the shared machine can pass the bound. A second
      // round is taken then and counts instead; a real cost of the streams shows in both.
      const first = await mixedIngest(other, busy, 11_000);
      const withinBounds = (run: typeof first) => run.p50 <= baseline.p50 * 4 && run.p99 <= baseline.p99 * 5;
      const loaded = withinBounds(first) ? first : await mixedIngest(other, busy);
      console.info(
        `${STREAMS} streams: other workspace's ingest p50 ${baseline.p50.toFixed(1)} → ${loaded.p50.toFixed(1)} ms, p99 ${baseline.p99.toFixed(1)} → ${loaded.p99.toFixed(1)} ms (${loaded.deliveries} deliveries); transactions per delivery ${baseline.transactionsPerDelivery.toFixed(2)} → ${loaded.transactionsPerDelivery.toFixed(2)}, API key look-ups ${baseline.keyLookups} → ${loaded.keyLookups} for ${loaded.backgroundDeliveries} events`,
      );
      expect(loaded.p50).toBeLessThanOrEqual(baseline.p50 * 4);
      expect(loaded.p99).toBeLessThanOrEqual(baseline.p99 * 5);
      // Revocation checks are shared per key: per event at most one running and one queued check for each of the two
      // keys, whatever the number of streams (plus a heartbeat's).
      expect(loaded.keyLookups).toBeLessThanOrEqual(2 * busy.keys.length * (loaded.backgroundDeliveries + 1));
      expect(loaded.transactionsPerDelivery).toBeLessThanOrEqual(2 * baseline.transactionsPerDelivery + 1);
    } finally {
      await closeStreams();
    }
  }, 120_000);

  it("3,000 streams dropped within 0–10 ms of connecting leave no subscription behind", async () => {
    const tenant = await createTenant(app.baseUrl, "Churn");
    await transactionsPerDelivery(tenant, 5); // warm-up
    const baseline = await transactionsPerDelivery(tenant);

    let next = 0;
    const worker = async () => {
      while (next < 3_000) {
        next += 1;
        await connectAndDrop(app.baseUrl, tenant.keys[0]!, Math.random() * 10);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));

    // The churn's own transactions (thousands of authentications) must not count, and a stream whose request was
    // dropped before its answer began is only found out by its heartbeats (two, 15 s apart).
    const lookupsBefore = await apiKeyLookups(databaseUrl(), 31_000);
    const after = await transactionsPerDelivery(tenant, 30, 0);
    // With no stream open, a delivery looks up no API key: each one now would be a stream left subscribed.
    const leftoverChecks = (await apiKeyLookups(databaseUrl(), 0)) - lookupsBefore;
    console.info(
      `3,000 dropped streams: transactions per delivery ${baseline.toFixed(2)} → ${after.toFixed(2)}, API key look-ups during 30 deliveries ${leftoverChecks}`,
    );
    expect(leftoverChecks).toBe(0);
    expect(after).toBeLessThanOrEqual(baseline + 0.5);
  }, 120_000);
});

describe("open event streams are capped", () => {
  it("per key and per workspace (429 rate_limited with Retry-After), and a closed or dropped stream frees its place", async () => {
    const tenant = await createTenant(cappedApp.baseUrl, "Capped", 2);
    const [first, second] = tenant.keys as [string, string];
    const open: OpenStream[] = [];
    const expectRefused = async (key: string, why: RegExp) => {
      const refused = await openEventStream(cappedApp.baseUrl, key);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(JSON.parse(refused.body())).toMatchObject({ success: false, error: { code: "rate_limited" } });
      expect(JSON.parse(refused.body()).error.message).toMatch(why);
    };
    try {
      open.push(await openEventStream(cappedApp.baseUrl, first), await openEventStream(cappedApp.baseUrl, first));
      expect(open.map((stream) => stream.status)).toEqual([200, 200]);
      await expectRefused(first, /key/i);

      open.push(await openEventStream(cappedApp.baseUrl, second));
      expect(open[2]!.status).toBe(200);
      await expectRefused(second, /workspace/i);

      open.shift()!.close();
      await expect
        .poll(async () => {
          const stream = await openEventStream(cappedApp.baseUrl, second);
          if (stream.status === 200) open.push(stream);
          return stream.status;
        })
        .toBe(200);
    } finally {
      for (const stream of open.splice(0)) stream.close();
    }

    // Streams dropped while connecting give their place back too: afterwards the workspace's full share opens.
    await Promise.all(Array.from({ length: 200 }, (_, index) => connectAndDrop(cappedApp.baseUrl, first, index % 10)));
    await expect
      .poll(
        async () => {
          const streams = await Promise.all([
            openEventStream(cappedApp.baseUrl, first),
            openEventStream(cappedApp.baseUrl, second),
            openEventStream(cappedApp.baseUrl, second),
          ]);
          for (const stream of streams) stream.close();
          return streams.map((stream) => stream.status);
        },
        { timeout: 10_000 },
      )
      .toEqual([200, 200, 200]);
  }, 60_000);
});
