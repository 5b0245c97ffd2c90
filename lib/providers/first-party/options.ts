import type { DbClient } from "@/lib/db/client";
import type { CompanySnapshots } from "./company-snapshot";

/*
 * What every first-party provider is built from. They need no vendor account: they answer from the company's own
 * website and DNS (one shared snapshot per company), from our own stores of companies and people seen before, and
 * from public filings. They cost us nothing, so they run first unless the operator orders otherwise.
 */

export interface FirstPartyOptions {
  snapshots: CompanySnapshots;
  db: () => DbClient;
}

/** Collecting a site takes several page fetches; later callers reuse the finished snapshot. */
export const SNAPSHOT_TIMEOUT_MS = 25_000;
