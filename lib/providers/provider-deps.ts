import type { Env } from "@/lib/env";
import type { DnsResolver } from "@/lib/outbound/dns-resolver";
import type { OutboundClient } from "@/lib/outbound/types";
import type { FirstPartyOptions } from "./first-party/options";

/**
 * What provider factories are built from: the process's outbound client, DNS and settings, and what the first-party
 * providers read (company snapshots, the database).
 */
export interface ProviderDeps extends FirstPartyOptions {
  http: OutboundClient;
  dns: DnsResolver;
  config: Env;
}
