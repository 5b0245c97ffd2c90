import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";

/*
 * Paid answers by operation and normalized input, for `runPricedCall` (priced-call.ts) only: it decides who may read
 * them (live keys) and when an answer is worth keeping.
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

export async function readCachedResult<T>(key: string): Promise<T | null> {
  const entry = await db().enrichmentCacheEntry.findFirst({
    where: { key, expiresAt: { gt: new Date() } },
    select: { result: true },
  });
  return (entry?.result as T | undefined) ?? null;
}

export async function writeCachedResult(options: {
  key: string;
  operation: string;
  result: unknown;
  ttlSeconds: number;
}): Promise<void> {
  const expiresAt = new Date(Date.now() + options.ttlSeconds * 1000);
  const result = options.result as object;
  await db().enrichmentCacheEntry.upsert({
    where: { key: options.key },
    create: { key: options.key, operation: options.operation, result, expiresAt },
    update: { result, expiresAt, createdAt: new Date() },
  });
}
