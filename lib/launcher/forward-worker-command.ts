/**
 * `npm run forward-worker`: forwarding without the launcher. A deployment that serves the app with `next start` (or on
 * a platform that runs route handlers only) has no process to run forwarding jobs; this is that process, for as many
 * machines as wanted. It needs DATABASE_URL, applies pending migrations (so the job queue's schema exists) and runs
 * until SIGINT/SIGTERM, when it lets attempts in flight finish. It also runs the deliveries table's upkeep.
 */
import process from "node:process";
import { migrateDatabase } from "@/lib/db/migrate";
import { parseEnv } from "@/lib/env";
import { dbPool } from "@/lib/db/client";
import { startForwardWorker } from "@/lib/forwarding/forward-worker";
import { startDeliveryMaintenance } from "@/lib/inbox/delivery-maintenance";
import { forwardClientFromEnv } from "@/lib/outbound/from-env";

async function main(): Promise<void> {
  const env = parseEnv(process.env);
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL must name the app's database.");
  await migrateDatabase(env.DATABASE_URL);
  // Beside `next start` this is the one long-running process: it also keeps the deliveries table's day partitions and
  // retention (lib/inbox/delivery-maintenance.ts), this week's partitions made before anything is forwarded.
  const stopMaintenance = await startDeliveryMaintenance(dbPool(), (message) => console.info(`[signalbox] ${message}`));
  const worker = await startForwardWorker({
    connectionString: env.DATABASE_URL,
    concurrency: env.FORWARD_CONCURRENCY,
    sender: forwardClientFromEnv(),
  });
  const stop = () => {
    console.info("[signalbox] Stopping the forwarding worker…");
    setTimeout(() => process.exit(1), 60_000).unref();
    void Promise.all([worker.stop(), stopMaintenance()]).then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  console.info(`[signalbox] Forwarding worker running (${env.FORWARD_CONCURRENCY} attempts at a time).`);
}

main().catch((error: unknown) => {
  console.error(`[signalbox] Forwarding worker failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
