import type { DbClient } from "@/lib/db/client";
import type { RateLimitStore, WindowCount } from "./window-limiter";

/*
 * The limiter's shared counts in PostgreSQL: one row per bucket and window in `rate_limit_windows`, an UNLOGGED table
 * (counts that last a minute need no write-ahead log, and a crash that empties it only forgets a window). Each flush of
 * an instance is one statement, whatever the number of buckets.
 */

interface TotalRow {
  bucket: string;
  window_ms: bigint | number;
  count: number;
}

export function createPgRateLimitStore(db: () => DbClient): RateLimitStore {
  return {
    async add(entries: readonly WindowCount[]): Promise<WindowCount[]> {
      if (entries.length === 0) return [];
      const buckets = entries.map((entry) => entry.bucket);
      const starts = entries.map((entry) => entry.windowStart);
      const counts = entries.map((entry) => entry.count);
      // ORDER BY keeps the caller's (sorted) order, so concurrent flushes lock rows in the same order.
      const rows = await db().$queryRaw<TotalRow[]>`
        INSERT INTO rate_limit_windows AS existing (bucket, window_start, count)
        SELECT entry.bucket, to_timestamp(entry.start_ms / 1000.0), entry.count
        FROM unnest(${buckets}::text[], ${starts}::bigint[], ${counts}::int[]) WITH ORDINALITY AS entry(bucket, start_ms, count, position)
        ORDER BY entry.position
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = existing.count + excluded.count
        RETURNING existing.bucket, (extract(epoch FROM existing.window_start) * 1000)::bigint AS window_ms, existing.count`;
      return rows.map((row) => ({ bucket: row.bucket, windowStart: Number(row.window_ms), count: row.count }));
    },
    async prune(before: number): Promise<void> {
      await db()
        .$executeRaw`DELETE FROM rate_limit_windows WHERE window_start < to_timestamp(${before}::bigint / 1000.0)`;
    },
  };
}
