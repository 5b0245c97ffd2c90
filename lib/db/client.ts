import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "@/lib/env";
import { type Prisma, PrismaClient } from "./generated/client";

export type Database = InstanceType<typeof PrismaClient>;
/** The client or a transaction of it: what domain functions accept when they may join a caller's transaction. */
export type DbClient = Database | Prisma.TransactionClient;

/**
 * The Prisma client and the node-postgres pool under it. One pool per process; its size is a deliberate choice
 * (DATABASE_POOL_SIZE), not pg's default. The pool is exposed for the ingest hot path only (see `dbPool`).
 */
function createClients(connectionString: string, poolSize: number): Clients {
  const pool = new pg.Pool({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000 });
  // A pool error on an idle connection (the server went away) must not crash the process; the next query reports it.
  pool.on("error", () => {});
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
    holder[SLOT] = createClients(url, env().DATABASE_POOL_SIZE);
  }
  return holder[SLOT];
}

/** The process-wide Prisma client, connected to DATABASE_URL (set by the launcher when it starts Postgres). */
export function db(): Database {
  return clients().prisma;
}

/**
 * The node-postgres pool under `db()`, for the ingest hot path: Prisma's raw queries send each bytea parameter as
 * base64 inside JSON and decode it again, which for a batch of webhook bodies costs more CPU and memory than the
 * write itself. Same connections, same limits; everything else goes through Prisma.
 */
export function dbPool(): pg.Pool {
  return clients().pool;
}

export async function disconnectDb(): Promise<void> {
  const holder = globalThis as GlobalWithClients;
  await holder[SLOT]?.prisma.$disconnect();
  holder[SLOT] = undefined;
}
