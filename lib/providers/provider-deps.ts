import type { DbClient } from "@/lib/db/client";
import type { Env } from "@/lib/env";
import type { DnsResolver } from "@/lib/outbound/dns-resolver";
import type { OutboundClient } from "@/lib/outbound/types";
import type { CompanySnapshots } from "./first-party/company-snapshot";

/** What provider factories are built from: the process's outbound client, DNS, company snapshots, database, settings. */
export interface ProviderDeps {
  http: OutboundClient;
  dns: DnsResolver;
  snapshots: CompanySnapshots;
  db: () => DbClient;
  config: Env;
}
