import type { DbClient } from "@/lib/db/client";
import type { Env } from "@/lib/env";
import type { CompanySnapshots } from "./company-snapshot";
import type { DnsResolver } from "./outbound/dns-resolver";
import type { OutboundClient } from "./outbound/types";

/** What provider factories are built from: the process's outbound client, DNS, company snapshots, database, settings. */
export interface ProviderDeps {
  http: OutboundClient;
  dns: DnsResolver;
  snapshots: CompanySnapshots;
  db: () => DbClient;
  config: Env;
}
