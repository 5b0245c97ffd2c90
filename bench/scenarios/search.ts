import { DELIVERY_SCAN_BYTES, DELIVERY_SCAN_ROWS } from "@/lib/contracts/webhooks";
import type { BenchAccount } from "../lib/fixtures";
import { ms, type BenchContext, type Check, type ScenarioOutcome } from "../lib/report";

// The listing's filters at a million stored deliveries (issue #20 §3): `q` and `payload` are not indexed (an index
// would cost every ingest), so each page looks at a bounded window; `since`/`until` narrow the index range. For each
// filter: a first page, timed repeatedly, and a full walk (following `nextCursor` to the end), timed page by page.

const PAGE = 100;
const SEED_CHUNK = 250_000;
/** One delivery in RARE_EVERY carries each rare needle (10 in a million); one in COMMON_EVERY is an invoice. */
const RARE_EVERY = 100_000;
const COMMON_EVERY = 10;

interface Variant {
  name: string;
  query: Record<string, string>;
  /** Deliveries the walk must return, worked out from the seed. */
  expected: (stored: number) => number;
  /** Deliveries the walk's range holds (what a content filter looks at). */
  inRange: (stored: number) => number;
}

interface VariantFigures {
  name: string;
  firstPage: Latency;
  walk: { pages: number; emptyPages: number; matches: number; seconds: number; page: Latency; rowsPerSecond: number };
}

interface Latency {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

function latency(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN, count: sorted.length };
}

/**
 * Stripe-like event bodies of ~800 bytes: one in ten an `invoice.paid`, one in RARE_EVERY with a rare note (for `q`)
 * and one with a rare tier (for `payload`), a second apart going back from the anchor. None acknowledged.
 */
async function seed(context: BenchContext, account: BenchAccount, stored: number, anchor: Date): Promise<void> {
  const client = await context.pool.connect();
  try {
    await client.query("SET session_replication_role = replica");
    await client.query("SET synchronous_commit = off");
    for (let start = 1; start <= stored; start += SEED_CHUNK) {
      const end = Math.min(stored, start + SEED_CHUNK - 1);
      await client.query(
        `INSERT INTO webhook_deliveries
           (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes, created_at)
         SELECT gen_random_uuid(), $1, $2, body, 'application/json',
                jsonb_build_object('content-type', 'application/json', 'user-agent', 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
                                   'stripe-signature', 't=1700000000,v1=' || md5(n::text)),
                '198.51.100.7', '', octet_length(body), $5::timestamptz - n * interval '1 second'
         FROM generate_series($3::int, $4::int) AS n,
              LATERAL (SELECT convert_to(json_build_object(
                'id', 'evt_' || md5(n::text),
                'type', CASE WHEN n % ${COMMON_EVERY} = 0 THEN 'invoice.paid' ELSE 'customer.updated' END,
                'created', 1700000000 + n,
                'livemode', false,
                'data', json_build_object('object', json_build_object(
                  'id', 'cus_' || substr(md5('c' || n), 1, 14),
                  'email', 'customer' || n || '@example.com',
                  'name', 'Customer ' || n,
                  'balance', n % 5000,
                  'currency', 'usd',
                  'metadata', json_build_object(
                    'tier', CASE WHEN n % ${RARE_EVERY} = 7 THEN 'platinum' ELSE 'standard' END,
                    'note', CASE WHEN n % ${RARE_EVERY} = 3 THEN 'Ref NEEDLE-RARE-7Q' ELSE 'no note' END),
                  'address', json_build_object('line1', n || ' Market Street', 'city', 'San Francisco', 'postal_code', '94103', 'country', 'US'),
                  'description', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.')),
                'request', json_build_object('id', 'req_' || substr(md5('r' || n), 1, 14), 'idempotency_key', md5('k' || n))
              )::text, 'UTF8') AS body) AS b`,
        [account.workspaceId, account.endpointId, start, end, anchor],
      );
    }
    await client.query("RESET session_replication_role");
  } finally {
    client.release();
  }
  await context.pool.query("VACUUM ANALYZE webhook_deliveries");
  await context.pool.query("CHECKPOINT");
}

async function fetchPage(context: BenchContext, account: BenchAccount, query: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(
    `${context.app.baseUrl}/v1/webhook-endpoints/deliveries?${new URLSearchParams({ limit: String(PAGE), ...query })}`,
    { headers: { authorization: `Bearer ${account.key}` } },
  );
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`search: ${response.status} ${text.slice(0, 300)}`);
  const { data } = JSON.parse(text) as { data: { deliveries: unknown[]; nextCursor: string | null } };
  return { elapsed, count: data.deliveries.length, nextCursor: data.nextCursor };
}

export async function searchScenario(context: BenchContext, account: BenchAccount): Promise<ScenarioOutcome> {
  const { config, log } = context;
  const stored = config.search.stored;
  const anchor = new Date(Date.now() - 86_400_000);
  log(`search: seeding ${stored} deliveries`);
  const seedStarted = performance.now();
  await seed(context, account, stored, anchor);
  log(`search: seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

  // A tenth of the deliveries, in the middle of the listing.
  const windowFrom = Math.floor(stored * 0.4);
  const windowTo = Math.floor(stored * 0.5);
  const since = new Date(anchor.getTime() - windowTo * 1000).toISOString();
  const until = new Date(anchor.getTime() - windowFrom * 1000).toISOString();
  const multiples = (every: number, offset: number) => (count: number) =>
    Math.floor((count - offset) / every) + (offset === 0 ? 0 : 1);
  const variants: Variant[] = [
    { name: "no filter", query: {}, expected: (n) => n, inRange: (n) => n },
    {
      name: "since/until (a tenth)",
      query: { since, until },
      expected: () => windowTo - windowFrom,
      inRange: () => windowTo - windowFrom,
    },
    { name: "q, rare", query: { q: "needle-rare-7q" }, expected: multiples(RARE_EVERY, 3), inRange: (n) => n },
    {
      name: "q, common (1 in 10)",
      query: { q: "invoice.paid" },
      expected: multiples(COMMON_EVERY, 0),
      inRange: (n) => n,
    },
    {
      name: "payload, rare",
      query: { payload: '{"data":{"object":{"metadata":{"tier":"platinum"}}}}' },
      expected: multiples(RARE_EVERY, 7),
      inRange: (n) => n,
    },
    {
      name: "payload, common (1 in 10)",
      query: { payload: '{"type":"invoice.paid"}' },
      expected: multiples(COMMON_EVERY, 0),
      inRange: (n) => n,
    },
  ];

  const figures: VariantFigures[] = [];
  for (const variant of variants) {
    for (let i = 0; i < config.search.warmup; i++) await fetchPage(context, account, variant.query);
    const first: number[] = [];
    for (let i = 0; i < config.search.firstPages; i++)
      first.push((await fetchPage(context, account, variant.query)).elapsed);
    log(`search: ${variant.name}: walking`);
    const pageTimes: number[] = [];
    let matches = 0;
    let emptyPages = 0;
    let cursor: string | null = null;
    const walkStarted = performance.now();
    do {
      const page = await fetchPage(context, account, { ...variant.query, ...(cursor && { cursor }) });
      pageTimes.push(page.elapsed);
      matches += page.count;
      if (page.count === 0) emptyPages++;
      cursor = page.nextCursor;
    } while (cursor);
    const seconds = (performance.now() - walkStarted) / 1000;
    if (matches !== variant.expected(stored))
      throw new Error(`search: ${variant.name}: the walk found ${matches}, expected ${variant.expected(stored)}`);
    figures.push({
      name: variant.name,
      firstPage: latency(first),
      walk: {
        pages: pageTimes.length,
        emptyPages,
        matches,
        seconds,
        page: latency(pageTimes),
        rowsPerSecond: variant.inRange(stored) / seconds,
      },
    });
    log(`search: ${variant.name}: ${pageTimes.length} pages, ${matches} matches, ${seconds.toFixed(1)} s`);
  }

  const bounded = figures.filter((figure) => figure.name.startsWith("q") || figure.name.startsWith("payload"));
  const worstP99 = Math.max(...bounded.map((figure) => Math.max(figure.walk.page.p99, figure.firstPage.p99)));
  const checks: Check[] = [
    {
      target: `Content-filtered page (q, payload; window ${DELIVERY_SCAN_ROWS.toLocaleString("en")} rows / ${DELIVERY_SCAN_BYTES / 1_048_576} MiB) at ${stored.toLocaleString("en")} stored, p99 worst case`,
      measured: ms(worstP99),
      limit: "≤ 1000 ms",
      holds: worstP99 <= 1000,
    },
  ];
  const count = (value: number) => Math.round(value).toLocaleString("en");
  return {
    name: "search",
    figures: { stored, window: { rows: DELIVERY_SCAN_ROWS, bytes: DELIVERY_SCAN_BYTES }, variants: figures },
    tables: [
      {
        header: [
          `Listing filters, ${count(stored)} stored (limit ${PAGE})`,
          "first page p50",
          "p99",
          "walk: pages (empty)",
          "matches",
          "page p50",
          "page p99",
          "walk",
          "rows looked at / s",
        ],
        rows: figures.map((figure) => [
          figure.name,
          ms(figure.firstPage.p50),
          ms(figure.firstPage.p99),
          `${count(figure.walk.pages)} (${count(figure.walk.emptyPages)})`,
          count(figure.walk.matches),
          ms(figure.walk.page.p50),
          ms(figure.walk.page.p99),
          `${figure.walk.seconds.toFixed(1)} s`,
          count(figure.walk.rowsPerSecond),
        ]),
      },
    ],
    checks,
  };
}
