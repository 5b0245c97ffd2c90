/**
 * One ingest load: JSON bodies of `bodyBytes` from `connections` connections for `seconds`, `rounds` times against each
 * server, the servers interleaved; the best run of each counts.
 */
export interface IngestLoad {
  bodyBytes: number;
  connections: number;
  seconds: number;
  rounds: number;
}

/** How much each scenario does: the full run (`npm run bench`) and the smoke run (`npm run bench:smoke`, CI). */
export interface BenchConfig {
  mode: "full" | "smoke";
  ingest: {
    /** 1 KB runs against every server before measuring; 0: none. */
    warmupSeconds: number;
    loads: IngestLoad[];
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
  /** Listing filters: deliveries stored, first pages timed per filter (after `warmup`), then one full walk each. */
  search: { stored: number; firstPages: number; warmup: number };
  /** Deliveries in the day expired by a partition drop, and in the day expired by row deletes. */
  retention: { deliveriesPerDay: number };
  enrichment: { requests: number; warmup: number };
  scaling: {
    /** 1 KB against both app processes before measuring; 0: none. */
    warmupSeconds: number;
    /** `connections` in total, split evenly between the app processes of a run. */
    loads: IngestLoad[];
  };
  forwarding: {
    /** 1 KB deliveries queued, then forwarded, per throughput run (the app's worker and the bare forwarder each). */
    deliveries: number;
    /** The throughput runs' concurrencies: attempts in flight at once (FORWARD_CONCURRENCY, the bare one's lanes). */
    concurrencies: number[];
    /** End-to-end latency: 1 KB deliveries ingested at this steady rate for this long, the worker on. */
    latency: { ratePerSecond: number; seconds: number };
    /** Ingest into an endpoint with a destination and one without, the rounds alternating. */
    ingest: IngestLoad;
    /** The longest a throughput run or the latency run's last forwards may take before the run fails. */
    timeoutSeconds: number;
    /** The throughput runs' worker apps run with --cpu-prof, summed in the log (`--forwarding-profile`). */
    cpuProfile?: boolean;
  };
}

const KB = 1024;
const MIB = 1_048_576;

export const FULL: BenchConfig = {
  mode: "full",
  ingest: {
    warmupSeconds: 2,
    loads: [
      { bodyBytes: KB, connections: 50, seconds: 8, rounds: 3 },
      { bodyBytes: 100 * KB, connections: 50, seconds: 6, rounds: 2 },
      { bodyBytes: MIB, connections: 20, seconds: 6, rounds: 2 },
      { bodyBytes: MIB, connections: 100, seconds: 6, rounds: 2 },
    ],
  },
  listing: { sizes: [10_000, 1_000_000], requests: 500, warmup: 20 },
  ack: { singleRequests: 300, bulkRequests: 100, warmup: 10 },
  search: { stored: 1_000_000, firstPages: 20, warmup: 3 },
  retention: { deliveriesPerDay: 1_000_000 },
  enrichment: { requests: 500, warmup: 20 },
  scaling: {
    warmupSeconds: 2,
    loads: [
      { bodyBytes: KB, connections: 100, seconds: 8, rounds: 2 },
      { bodyBytes: 100 * KB, connections: 50, seconds: 6, rounds: 2 },
    ],
  },
  forwarding: {
    deliveries: 5_000,
    concurrencies: [10, 50],
    latency: { ratePerSecond: 100, seconds: 20 },
    ingest: { bodyBytes: KB, connections: 50, seconds: 8, rounds: 3 },
    timeoutSeconds: 180,
  },
};

export const SMOKE: BenchConfig = {
  mode: "smoke",
  ingest: {
    warmupSeconds: 0,
    loads: [
      { bodyBytes: KB, connections: 50, seconds: 1.5, rounds: 1 },
      { bodyBytes: 100 * KB, connections: 50, seconds: 1, rounds: 1 },
      // One 1 MiB load, with fewer uploads at once than the full run: the backlog they leave takes seconds to write.
      { bodyBytes: MIB, connections: 25, seconds: 1, rounds: 1 },
    ],
  },
  listing: { sizes: [1_000, 10_000], requests: 20, warmup: 3 },
  ack: { singleRequests: 20, bulkRequests: 10, warmup: 2 },
  search: { stored: 20_000, firstPages: 5, warmup: 1 },
  retention: { deliveriesPerDay: 10_000 },
  enrichment: { requests: 20, warmup: 3 },
  scaling: { warmupSeconds: 0, loads: [{ bodyBytes: KB, connections: 100, seconds: 0.5, rounds: 1 }] },
  forwarding: {
    deliveries: 200,
    concurrencies: [10],
    latency: { ratePerSecond: 50, seconds: 3 },
    ingest: { bodyBytes: KB, connections: 50, seconds: 1.5, rounds: 1 },
    timeoutSeconds: 60,
  },
};
