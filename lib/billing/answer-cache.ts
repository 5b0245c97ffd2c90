import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";

/*
 * Paid answers by workspace, operation and normalized input, for `runPricedCall` (priced-call.ts) only: it decides who
 * may read them (live keys), what a read costs, and when an answer is worth keeping. A workspace's own answer is a
 * free repeat; another workspace's is a source like any provider, paid for and reported as a fresh answer.
 */

/** JSON with sorted keys, so equal inputs hash equally whatever order their keys came in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, child]) => child !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${canonicalJson(child)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 of the operation and its normalized input: the cache key, and the ledger's input hash. */
export function inputHash(operation: string, normalizedInput: Record<string, unknown>): string {
  return createHash("sha256")
    .update(`${operation}\n${canonicalJson(normalizedInput)}`)
    .digest("hex");
}

/** The workspace's own paid answer, while its free repeats last. */
export async function readOwnAnswer<T>(workspaceId: string, key: string): Promise<T | null> {
  const entry = await db().enrichmentCacheEntry.findFirst({
    where: { workspaceId, key, expiresAt: { gt: new Date() } },
    select: { result: true },
  });
  return (entry?.result as T | undefined) ?? null;
}

export interface SharedAnswer<T> {
  result: T;
  /** When upstream gave the answer: a copy is never passed on older than the operation's TTL. */
  answeredAt: Date;
}

/** The newest answer another workspace paid for that upstream gave within `ttlSeconds`. */
export async function readSharedAnswer<T>(
  workspaceId: string,
  key: string,
  ttlSeconds: number,
): Promise<SharedAnswer<T> | null> {
  const entry = await db().enrichmentCacheEntry.findFirst({
    where: { key, workspaceId: { not: workspaceId }, answeredAt: { gt: new Date(Date.now() - ttlSeconds * 1000) } },
    orderBy: { answeredAt: "desc" },
    select: { result: true, answeredAt: true },
  });
  return entry ? { result: entry.result as T, answeredAt: entry.answeredAt } : null;
}

/**
 * Keeps an answer the workspace paid for: free to repeat for `ttlSeconds` from now, whenever upstream gave it, so the
 * repeat window never shows that the answer came from another workspace.
 */
export async function keepPaidAnswer(options: {
  workspaceId: string;
  key: string;
  operation: string;
  result: unknown;
  answeredAt: Date;
  ttlSeconds: number;
}): Promise<void> {
  const { workspaceId, key, answeredAt } = options;
  const expiresAt = new Date(Date.now() + options.ttlSeconds * 1000);
  const result = options.result as object;
  await db().enrichmentCacheEntry.upsert({
    where: { workspaceId_key: { workspaceId, key } },
    create: { workspaceId, key, operation: options.operation, result, answeredAt, expiresAt },
    update: { result, answeredAt, expiresAt, createdAt: new Date() },
  });
}
