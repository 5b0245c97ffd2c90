/** How much each scenario does: the full run (`npm run bench`) and the smoke run (`npm run bench:smoke`, CI). */
export interface BenchConfig {
  mode: "full" | "smoke";
  ingest: {
    /** Concurrent connections for the 1 KB runs. */
    connections: number;
    seconds: number;
    /** 0: no warm-up runs. */
    warmupSeconds: number;
    /** Each target (baseline, app, …) is run this many times, interleaved; the best run counts. */
    rounds: number;
    /** 100 KB bodies at `connections`, 1 MiB bodies at `largeConnections`. */
    largeSeconds: number;
    largeConnections: number;
  };
  listing: {
    /** Stored deliveries at each measuring point, ascending. */
    sizes: number[];
    /** Calls per variant (first/deep page × with/without `unacknowledged`), interleaved. */
    requests: number;
    /** Uncounted calls per variant first. */
    warmup: number;
  };
  ack: { singleRequests: number; bulkRequests: number; warmup: number };
  enrichment: { requests: number; warmup: number };
}

export const FULL: BenchConfig = {
  mode: "full",
  ingest: { connections: 50, seconds: 8, warmupSeconds: 2, rounds: 3, largeSeconds: 6, largeConnections: 100 },
  listing: { sizes: [10_000, 1_000_000], requests: 500, warmup: 20 },
  ack: { singleRequests: 300, bulkRequests: 100, warmup: 10 },
  enrichment: { requests: 500, warmup: 20 },
};

export const SMOKE: BenchConfig = {
  mode: "smoke",
  // Fewer 1 MiB uploads at once than the full run: the backlog they leave takes seconds to write after the run.
  ingest: { connections: 50, seconds: 1.5, warmupSeconds: 0, rounds: 1, largeSeconds: 1, largeConnections: 25 },
  listing: { sizes: [1_000, 10_000], requests: 20, warmup: 3 },
  ack: { singleRequests: 20, bulkRequests: 10, warmup: 2 },
  enrichment: { requests: 20, warmup: 3 },
};
