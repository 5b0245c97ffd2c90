import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { type Prisma, PrismaClient } from "./generated/client";

export type Database = InstanceType<typeof PrismaClient>;
/** The client or a transaction of it: what domain functions accept when they may join a caller's transaction. */
export type DbClient = Database | Prisma.TransactionClient;

interface PoolSettings {
  size: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

/** How much longer than a statement may run the app waits for the server's answer before it gives up on it. */
const UNANSWERED_GRACE_MS = 1_000;

/**
 * The Prisma client and the node-postgres pool under it. One pool per process; its size is a deliberate choice
 * (DATABASE_POOL_SIZE), not pg's default. The pool is exposed for the hot paths only (see `dbPool`).
 *
 * Nothing waits on the database without limit: getting a connection (a new one, or a turn in a full pool) gives up
 * after DATABASE_CONNECT_TIMEOUT_MS; the server cancels a statement that runs past DATABASE_STATEMENT_TIMEOUT_MS; and
 * a server that does not answer at all (frozen, or cut off without a reset) is given up on a second later. Each of
 * these errors counts as "database unavailable" (lib/errors.ts), which the API and ingest answer with a 503.
 */
function createClients(connectionString: string, settings: PoolSettings): Clients {
  const pool = new pg.Pool({
    connectionString,
    max: settings.size,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    query_timeout: settings.statementTimeoutMs + UNANSWERED_GRACE_MS,
  });
  // A pool error on an idle connection (the server went away) must not crash the process; the next query reports it.
  pool.on("error", () => {});
  // A connection handed back inside a transaction (its COMMIT or ROLLBACK went unanswered: the query may still be
  // running) must not serve the next borrower, whose statements would run inside that transaction: closing it makes
  // the pool drop it.
  pool.on("release", (error, client) => {
    if (!error && client.getTransactionStatus() !== "I") void client.end().catch(() => {});
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return { prisma, pool };
}

interface Clients {
  prisma: Database;
  pool: pg.Pool;
}

// The launcher (server.ts, run by tsx) and the route handlers (bundled by Next) load this module separately,
// so the instance lives on globalThis under a registered symbol: one client per process either way.
const SLOT = Symbol.for("signalbox.prisma");
type GlobalWithClients = typeof globalThis & { [SLOT]?: Clients };

function clients(): Clients {
  const holder = globalThis as GlobalWithClients;
  if (!holder[SLOT]) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides a database.");
    holder[SLOT] = createClients(url, {
      size: env().DATABASE_POOL_SIZE,
      connectTimeoutMs: env().DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env().DATABASE_STATEMENT_TIMEOUT_MS,
    });
  }
  return holder[SLOT];
}

/** The process-wide Prisma client, connected to DATABASE_URL (set by the launcher when it starts Postgres). */
export function db(): Database {
  return clients().prisma;
}

/**
 * The node-postgres pool under `db()`, for the hot paths: ingest, where Prisma's raw queries send each bytea parameter
 * as base64 inside JSON and decode it again (for a batch of webhook bodies that costs more CPU and memory than the
 * write itself), and delivery pages, which are named statements so that a connection keeps their plan (Prisma sends
 * every statement unnamed, planned anew). Same connections, same limits; everything else goes through Prisma.
 */
export function dbPool(): pg.Pool {
  return clients().pool;
}

export async function disconnectDb(): Promise<void> {
  const holder = globalThis as GlobalWithClients;
  await holder[SLOT]?.prisma.$disconnect();
  holder[SLOT] = undefined;
}
