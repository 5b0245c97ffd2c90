import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabase } from "@/lib/db/database";
import { startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrateDatabase } from "@/lib/db/migrate";
import { layOutPastDayPartitions } from "@/test/delivery-days";

export interface BenchDatabase {
  /** The migrated `signalbox` database the app, the baselines and the suite share. */
  url: string;
  pool: pg.Pool;
  stop: () => Promise<void>;
}

/** A fresh embedded PostgreSQL in a temporary folder (deleted on stop), with the app's migrations applied. */
export async function startBenchDatabase(): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "signalbox-bench-pg-"));
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const url = await ensureDatabase(server.url, "signalbox");
  await migrateDatabase(url);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // Stopping mid-run (Ctrl-C) ends the server under idle connections; their errors are expected then.
  pool.on("error", () => {});
  // A month of day partitions rather than one for all the past: the listing's million deliveries, received a second
  // apart, span twelve of them.
  await layOutPastDayPartitions(pool, 30);
  return {
    url,
    pool,
    stop: async () => {
      await pool.end().catch(() => {});
      await server.stop().catch(() => {});
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The database baselines' tables, each a copy of `webhook_deliveries`: its columns, defaults, indexes and foreign key,
 * and where `notify` is set its NOTIFY trigger (the very function the app's table uses, once per statement:
 * prisma/migrations/20261127010000_delivery_key_and_batch_notify).
 */
export const BASELINE_TABLES = {
  singleRow: { name: "bench_baseline", notify: false },
  singleRowNotify: { name: "bench_baseline_notify", notify: true },
  groupCommit: { name: "bench_group_commit", notify: true },
} as const;

export async function createBaselineTables(pool: pg.Pool): Promise<void> {
  for (const { name, notify } of Object.values(BASELINE_TABLES)) {
    await pool.query(`CREATE TABLE ${name} (LIKE webhook_deliveries INCLUDING ALL)`);
    await pool.query(
      `ALTER TABLE ${name} ADD FOREIGN KEY (workspace_id, webhook_endpoint_id) REFERENCES webhook_endpoints(workspace_id, id) ON DELETE CASCADE`,
    );
    if (notify)
      await pool.query(
        `CREATE TRIGGER ${name}_notify AFTER INSERT ON ${name} REFERENCING NEW TABLE AS created
         FOR EACH STATEMENT EXECUTE FUNCTION signalbox_notify_deliveries_created()`,
      );
  }
}

/**
 * The bare forwarder's queue (bench/baselines/bare-forwarder.ts): one row per delivery to forward (its body and headers)
 * with a lease for at-least-once claiming, and an attempt row per send, as `delivery_forwards` and
 * `delivery_attempts` keep them for the app.
 */
export async function createForwardQueueTables(pool: pg.Pool): Promise<void> {
  await pool.query(`
    CREATE TABLE bench_forward_queue (
      id uuid PRIMARY KEY,
      body bytea NOT NULL,
      headers jsonb NOT NULL,
      created_at timestamptz NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      attempt_count int NOT NULL DEFAULT 0,
      locked_until timestamptz,
      done_at timestamptz)`);
  await pool.query(
    `CREATE INDEX bench_forward_queue_pending_idx ON bench_forward_queue (created_at) WHERE status = 'pending'`,
  );
  await pool.query(`
    CREATE TABLE bench_forward_attempts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      queue_id uuid NOT NULL REFERENCES bench_forward_queue (id) ON DELETE CASCADE,
      attempt_number int NOT NULL,
      started_at timestamptz NOT NULL,
      duration_ms int NOT NULL,
      response_status int,
      error text)`);
  await pool.query(`CREATE INDEX bench_forward_attempts_queue_id_idx ON bench_forward_attempts (queue_id)`);
}

/** Replaces the bare forwarder's queue with the deliveries of an endpoint: the same ids, body bytes and headers. */
export async function fillForwardQueue(pool: pg.Pool, endpointId: string): Promise<number> {
  await pool.query("TRUNCATE bench_forward_queue, bench_forward_attempts");
  const { rowCount } = await pool.query(
    `INSERT INTO bench_forward_queue (id, body, headers, created_at)
     SELECT id, raw_body, headers, created_at FROM webhook_deliveries WHERE webhook_endpoint_id = $1`,
    [endpointId],
  );
  await pool.query("VACUUM ANALYZE bench_forward_queue");
  return rowCount ?? 0;
}

const SEED_CHUNK = 250_000;

/** A UUIDv7 of the delivery's receipt time `received` (ingest gives deliveries such ids: lib/inbox/delivery-ids.ts). */
const RECEIVED_UUID_V7 = `(lpad(to_hex(floor(extract(epoch FROM received) * 1000)::bigint), 12, '0') || '7'
  || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

/**
 * Adds deliveries `from`..`to` (1-based, newest first: delivery n was received n × `spacingMs` (1 s unless given)
 * before `anchor`) to an endpoint with one INSERT … SELECT generate_series per chunk. Every other delivery is acknowledged. Triggers (the
 * NOTIFY announcements, the foreign-key checks and the endpoint's counts, added once at the end) are skipped for this
 * session only: it is bulk seeding, not traffic.
 */
export async function seedDeliveries(
  pool: pg.Pool,
  options: { workspaceId: string; endpointId: string; from: number; to: number; anchor: Date; spacingMs?: number },
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SET session_replication_role = replica");
    await client.query("SET synchronous_commit = off");
    for (let start = options.from; start <= options.to; start += SEED_CHUNK) {
      const end = Math.min(options.to, start + SEED_CHUNK - 1);
      await client.query(
        `INSERT INTO webhook_deliveries
           (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes, created_at, acknowledged_at)
         SELECT ${RECEIVED_UUID_V7}, $1, $2, convert_to(payload::text, 'UTF8'), 'application/json',
                '{"content-type": "application/json", "user-agent": "Signalbox-Bench/1.0"}'::jsonb, '127.0.0.1', '',
                octet_length(convert_to(payload::text, 'UTF8')), received, CASE WHEN n % 2 = 0 THEN received + interval '1 minute' END
         FROM (
           SELECT n, $5::timestamptz - n * $6::int * interval '1 millisecond' AS received,
                  jsonb_build_object('type', 'order.created', 'id', 'evt_' || n, 'data',
                    jsonb_build_object('order', md5(n::text), 'amount', n % 1000, 'currency', 'usd', 'items', n % 7 + 1)) AS payload
           FROM generate_series($3::int, $4::int) AS n
         ) AS rows`,
        [options.workspaceId, options.endpointId, start, end, options.anchor, options.spacingMs ?? 1000],
      );
    }
    await client.query("RESET session_replication_role");
    // What the skipped counting trigger would have added to the endpoint's counts (odd n are pending).
    await client.query(
      `INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
       SELECT $1, $2, count(*) FILTER (WHERE n % 2 = 1), count(*) FROM generate_series($3::int, $4::int) AS n`,
      [options.workspaceId, options.endpointId, options.from, options.to],
    );
  } finally {
    client.release();
  }
  await pool.query("VACUUM ANALYZE webhook_deliveries");
}

/**
 * Waits until no other session is running a statement (two quiet looks in a row, 30 s at most): after a load run
 * stops, the server may still be writing what it accepted, and the next measurement must not pay for that.
 */
export async function waitForQuiet(pool: pg.Pool): Promise<void> {
  let quiet = 0;
  for (const deadline = Date.now() + 30_000; quiet < 2 && Date.now() < deadline;) {
    const { rows } = await pool.query<{ busy: number }>(
      `SELECT count(*)::int AS busy FROM pg_stat_activity
       WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = current_database()`,
    );
    quiet = rows[0]?.busy === 0 ? quiet + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
