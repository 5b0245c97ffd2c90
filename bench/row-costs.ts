/**
 * What each part of the deliveries table costs per row (`npm run bench:row-costs -- [--body=1024] [--rows=20000]`):
 * the app's batch INSERT (100 rows a statement, lib/inbox/delivery-writes.ts) into copies of `webhook_deliveries`
 * with one part taken away at a time (the NOTIFY trigger, the foreign key, the listing indexes, the dedup index) or
 * put back as it was before issue #19 (a NOTIFY per row, two foreign keys), and PostgreSQL's CPU (the backend's own,
 * from /proc) and WAL bytes per row for each. The difference to the full table is that part's cost. One backend, no
 * concurrency: a measure of work, not of throughput.
 */
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import os from "node:os";
import process from "node:process";
import pg from "pg";
import { byteaArray, jsonbArray, textArray } from "@/lib/db/binary-array";
import { disconnectDb } from "@/lib/db/client";
import { startBenchDatabase } from "./lib/database";
import { createBenchAccount } from "./lib/fixtures";

const args = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => arg.slice(2).split("=") as [string, string]),
);
const bodyBytes = Number(args.get("body") ?? 1024);
const rows = Number(args.get("rows") ?? 20_000);
const BATCH = 100;

interface Variant {
  name: string;
  /** Statements run on the copy `t` after it is made with every index, key and trigger of the original. */
  strip: string[];
}

const LISTING_INDEXES = ["workspace_id, created_at, id", "webhook_endpoint_id, created_at, id"];

const DROP_TRIGGER = "DROP TRIGGER t_notify ON t";
const DROP_KEY = "ALTER TABLE t DROP CONSTRAINT t_endpoint_fk";

const VARIANTS: Variant[] = [
  { name: "full table (as the app writes it)", strip: [] },
  {
    name: "before: a NOTIFY per row",
    strip: [
      DROP_TRIGGER,
      "CREATE TRIGGER t_notify AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION signalbox_notify_delivery()",
    ],
  },
  {
    name: "before: two foreign keys",
    strip: [
      DROP_KEY,
      "ALTER TABLE t ADD FOREIGN KEY (workspace_id) REFERENCES workspaces(id) ON DELETE CASCADE",
      "ALTER TABLE t ADD FOREIGN KEY (webhook_endpoint_id) REFERENCES webhook_endpoints(id) ON DELETE CASCADE",
    ],
  },
  { name: "without the NOTIFY trigger", strip: [DROP_TRIGGER] },
  { name: "without the foreign key", strip: [DROP_KEY] },
  { name: "without the four listing indexes", strip: ["DROP-LISTING-INDEXES"] },
  { name: "without the dedup index", strip: ["DROP-DEDUP-INDEX"] },
  { name: "heap and primary key only", strip: [DROP_TRIGGER, DROP_KEY, "DROP-LISTING-INDEXES", "DROP-DEDUP-INDEX"] },
];

/** A copy of the deliveries table with its key and trigger (bench/lib/database.ts makes the baselines' the same way). */
async function makeCopy(client: pg.Client, variant: Variant): Promise<void> {
  await client.query("DROP TABLE IF EXISTS t");
  await client.query("CREATE TABLE t (LIKE webhook_deliveries INCLUDING ALL)");
  await client.query(
    "ALTER TABLE t ADD CONSTRAINT t_endpoint_fk FOREIGN KEY (workspace_id, webhook_endpoint_id) REFERENCES webhook_endpoints(workspace_id, id) ON DELETE CASCADE",
  );
  await client.query(
    "CREATE TRIGGER t_notify AFTER INSERT ON t REFERENCING NEW TABLE AS created FOR EACH STATEMENT EXECUTE FUNCTION signalbox_notify_deliveries_created()",
  );
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 't'",
  );
  for (const statement of variant.strip) {
    if (statement === "DROP-LISTING-INDEXES") {
      for (const index of indexes.filter((index) =>
        LISTING_INDEXES.some((columns) => index.definition.includes(`(${columns})`)),
      ))
        await client.query(`DROP INDEX ${index.name}`);
    } else if (statement === "DROP-DEDUP-INDEX") {
      for (const index of indexes.filter((index) => index.definition.includes("(webhook_endpoint_id, dedup_key)")))
        await client.query(`DROP INDEX ${index.name}`);
    } else await client.query(statement);
  }
  await client.query("CHECKPOINT");
}

async function backendCpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const database = await startBenchDatabase();
  const client = new pg.Client({ connectionString: database.url });
  try {
    process.env.DATABASE_URL = database.url;
    process.env.SIGNALBOX_SECRET = "row-costs-secret-row-costs-secret-row-cost";
    const account = await createBenchAccount("Row costs", "http://127.0.0.1");
    await client.connect();
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const body = Buffer.alloc(bodyBytes, "a");
    const headers = Buffer.from(
      JSON.stringify({ "content-type": "application/json", "user-agent": "Signalbox-Bench/1.0" }),
    );
    const insert = `
      INSERT INTO t (id, workspace_id, webhook_endpoint_id, raw_body, content_type, headers, source_ip, query, size_bytes, dedup_key)
      SELECT r.id::uuid, $2, $3, r.raw_body, 'application/json', r.headers, '127.0.0.1', '', octet_length(r.raw_body), r.dedup_key
      FROM (SELECT unnest($1::text[]) AS id, unnest($4::bytea[]) AS raw_body, unnest($5::jsonb[]) AS headers,
                   unnest($6::text[]) AS dedup_key) AS r
      ON CONFLICT DO NOTHING`;
    const batch = () => {
      const ids = Array.from({ length: BATCH }, () => randomUUID());
      // Half the rows carry a sender message id, as most senders send one.
      return [
        textArray(ids),
        account.workspaceId,
        account.endpointId,
        byteaArray(ids.map(() => body)),
        jsonbArray(ids.map(() => headers)),
        textArray(ids.map((id, index) => (index % 2 ? id : null))),
      ];
    };
    console.info(
      `Row costs, ${bodyBytes} B bodies, ${rows} rows per variant in batches of ${BATCH}; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    const results: { name: string; cpuUs: number; walBytes: number }[] = [];
    for (const variant of VARIANTS) {
      await makeCopy(client, variant);
      for (let warm = 0; warm < 10; warm += 1) await client.query(insert, batch());
      const cpuBefore = await backendCpuMs(pid);
      const walBefore = (await client.query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0]!.lsn;
      for (let done = 0; done < rows; done += BATCH) await client.query(insert, batch());
      const cpuMs = (await backendCpuMs(pid)) - cpuBefore;
      const { rows: wal } = await client.query<{ bytes: string }>(
        "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::text AS bytes",
        [walBefore],
      );
      results.push({ name: variant.name, cpuUs: (cpuMs * 1000) / rows, walBytes: Number(wal[0]!.bytes) / rows });
    }
    const full = results[0]!;
    for (const result of results)
      console.info(
        `  ${result.name.padEnd(36)} ${result.cpuUs.toFixed(1).padStart(6)} µs CPU/row (${result === full ? "" : `${Math.abs(full.cpuUs - result.cpuUs).toFixed(1)} µs ${result.cpuUs < full.cpuUs ? "less" : "more"}, `}${((result.cpuUs / full.cpuUs) * 100).toFixed(0)} %), ${result.walBytes.toFixed(0)} WAL bytes/row`,
      );
  } finally {
    await client.end().catch(() => {});
    await disconnectDb().catch(() => {});
    await database.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
