import { afterAll, beforeAll } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import type { ProviderFields } from "@/lib/providers/provider";
import { startCompanySites } from "@/test/fakes/company-sites";
import type { CompanySnapshot } from "@/lib/providers/first-party/company-snapshot";
import type { FirstPartyOptions } from "@/lib/providers/first-party/options";
import { crawlCompanySite } from "@/lib/providers/first-party/website/crawl-site";
import { collectSiteEmails } from "@/lib/providers/first-party/website/site-emails";

/*
 * For the tests of the website-based people providers (people-email, people-enrich, people-mobile, people-search):
 * snapshots of the fixture sites (test/fakes/company-sites), crawled over loopback as the app would. No database:
 * these lookups name a domain (or an address at it), so the store is never asked; a call that reached it would throw.
 * The store-backed paths run through the app in lib/enrichment/people.integration.test.ts.
 */

const now = new Date("2025-06-03T10:20:30Z");
export const DAY = "2025-06-03";
export const context = { signal: new AbortController().signal };

export const values = (fields: ProviderFields) =>
  Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field?.value]));

interface FixtureSnapshots {
  options: FirstPartyOptions;
  close(): Promise<void>;
}

/** A loopback port nothing listens on (a fixture server's, closed again): https:// fails at once, as on a site without TLS. */
async function closedPort(): Promise<number> {
  const probe = await startCompanySites();
  await probe.close();
  return probe.port;
}

/** Starts the fixture sites and takes one snapshot of each of acme.example, rival.example and other.example. */
async function startFixtureSnapshots(): Promise<FixtureSnapshots> {
  const sites = await startCompanySites();
  const http = createOutboundClient({
    allowLoopback: true,
    portOverrides: { http: sites.port, https: await closedPort() },
    resolver: async () => ["127.0.0.1"],
  });
  const snapshots = new Map<string, CompanySnapshot>();
  for (const domain of ["acme.example", "rival.example", "other.example"]) {
    const crawl = await crawlCompanySite(domain, { http });
    const siteEmails = collectSiteEmails(crawl, { domainHasMx: true, now });
    snapshots.set(domain, {
      domain,
      collectedAt: now,
      reachable: crawl.pages.length > 0,
      crawl,
      mailDns: {
        mx: [{ exchange: `mx.${domain}`, priority: 1 }],
        mailProvider: null,
        spf: { record: null, includes: [] },
        dmarc: { record: null, policy: null },
        txt: [],
      },
      organization: siteEmails.organization,
      siteEmails,
      technologies: [],
      keywords: [],
    });
  }
  const options: FirstPartyOptions = {
    snapshots: async (domain) => {
      const snapshot = snapshots.get(domain);
      if (!snapshot) throw new Error(`no snapshot of ${domain}`);
      return snapshot;
    },
    db: () => {
      throw new Error("these lookups never need the store");
    },
  };
  return { options, close: () => sites.close() };
}

/**
 * Starts the fixture snapshots once for the test file (closed after it) and returns the first-party options that read
 * them; call the returned function inside a test.
 */
export function fixtureSnapshotsForFile(): () => FirstPartyOptions {
  let fixture: FixtureSnapshots | undefined;
  beforeAll(async () => {
    fixture = await startFixtureSnapshots();
  });
  afterAll(async () => {
    await fixture?.close();
  });
  return () => {
    if (!fixture) throw new Error("the fixture snapshots are not started yet: use them inside a test");
    return fixture.options;
  };
}
