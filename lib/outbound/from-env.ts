import { env } from "@/lib/env";
import { createDnsResolver, type DnsResolver } from "./dns-resolver";
import { createOutboundClient } from "./outbound-client";
import type { OutboundClient } from "./types";
import { createWebhookSender, type WebhookSender } from "./webhook-sender";

export interface Outbound {
  http: OutboundClient;
  dns: DnsResolver;
}

const PRODUCT = "SignalboxBot/0.1";
let outbound: Outbound | undefined;
let forwardClient: WebhookSender | undefined;

/**
 * The process's one outbound client and DNS resolver, configured from the environment. The test-only knobs
 * (OUTBOUND_ALLOW_LOOPBACK, OUTBOUND_TEST_PORTS) are announced on stderr so they cannot go unnoticed in production.
 */
export function outboundFromEnv(): Outbound {
  if (outbound) return outbound;
  const config = env();
  const dns = createDnsResolver({ servers: config.DNS_SERVERS.length > 0 ? config.DNS_SERVERS : undefined });
  if (config.OUTBOUND_ALLOW_LOOPBACK || Object.keys(config.OUTBOUND_TEST_PORTS).length > 0) {
    console.warn(
      "Outbound requests may reach loopback (OUTBOUND_ALLOW_LOOPBACK / OUTBOUND_TEST_PORTS): a test setting, never for production.",
    );
  }
  const contact = config.OUTBOUND_CONTACT ? `; ${config.OUTBOUND_CONTACT}` : "";
  const http = createOutboundClient({
    userAgent: `${PRODUCT} (+company data collector; honours robots.txt${contact})`,
    resolver: dns.resolveHost,
    allowLoopback: config.OUTBOUND_ALLOW_LOOPBACK,
    portOverrides: config.OUTBOUND_TEST_PORTS,
  });
  outbound = { http, dns };
  return outbound;
}

/**
 * The process's forwarding sender: DNS_SERVERS for lookups and FORWARD_ALLOW_PRIVATE for which addresses destinations
 * may have besides public ones. An allowance is announced on stderr once, so an operator sees what is open.
 */
export function forwardClientFromEnv(): WebhookSender {
  if (forwardClient) return forwardClient;
  const config = env();
  const allowance = config.FORWARD_ALLOW_PRIVATE;
  if (allowance.private || allowance.ranges.length > 0) {
    const opened = [
      ...(allowance.private ? ["private and loopback addresses"] : []),
      ...allowance.ranges.map(([base, prefix]) => `${base}/${prefix}`),
    ];
    console.warn(`Forwarding may reach ${opened.join(", ")} (FORWARD_ALLOW_PRIVATE).`);
  }
  forwardClient = createWebhookSender({ resolver: outboundFromEnv().dns.resolveHost, allowance });
  return forwardClient;
}
