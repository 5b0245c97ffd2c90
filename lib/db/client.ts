import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { type Prisma, PrismaClient } from "./generated/client";

export type Database = InstanceType<typeof PrismaClient>;
/** The client or a transaction of it: what domain functions accept when they may join a caller's transaction. */
export type DbClient = Database | Prisma.TransactionClient;

export function createPrismaClient(connectionString: string, poolSize = env().DATABASE_POOL_SIZE): Database {
  // One pool per process; its size is a deliberate choice (DATABASE_POOL_SIZE), not pg's default.
  const adapter = new PrismaPg({ connectionString, max: poolSize, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

// The launcher (server.ts, run by tsx) and the route handlers (bundled by Next) load this module separately,
// so the instance lives on globalThis under a registered symbol: one client per process either way.
const SLOT = Symbol.for("signalbox.prisma");
type GlobalWithPrisma = typeof globalThis & { [SLOT]?: Database };

/** The process-wide Prisma client, connected to DATABASE_URL (set by the launcher when it starts Postgres). */
export function db(): Database {
  const holder = globalThis as GlobalWithPrisma;
  if (!holder[SLOT]) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides a database.");
    holder[SLOT] = createPrismaClient(url);
  }
  return holder[SLOT];
}

export async function disconnectDb(): Promise<void> {
  const holder = globalThis as GlobalWithPrisma;
  await holder[SLOT]?.$disconnect();
  holder[SLOT] = undefined;
}
