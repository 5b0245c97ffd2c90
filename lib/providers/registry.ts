import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { outboundFromEnv } from "@/lib/outbound/from-env";
import type { OutboundClient } from "@/lib/outbound/types";
import type { DomainEmailsProviderInput } from "@/lib/providers/fields/domain-emails";
import type { IntelligenceProviderInput } from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { liveCompanyProviders, sandboxCompanyProviders, type CompanyProviderLists } from "./company-providers";
import { createCompanySnapshots } from "./first-party/company-snapshot";
import { websiteEmailsProvider } from "./first-party/domain-emails";
import { createSecEdgarFundingSource, type FundingSource } from "./first-party/funding/sec-edgar";
import {
  fingerprintTechnographicsProvider,
  publicFilingsFundingProvider,
  storedCompetitorsProvider,
} from "./first-party/intelligence";
import { livePeopleProviders, sandboxPeopleProviders, type PeopleProviderLists } from "./people-providers";
import type { ProviderDeps } from "./provider-deps";
import { sandboxDomainEmailsProvider } from "./sandbox/domain-emails";
import { sandboxIntelligenceProvider } from "./sandbox/intelligence";
import { createBuiltWithTechnographicsProvider } from "./vendors/builtwith";
import { createHunterDomainEmailsProvider } from "./vendors/hunter";
import { createPeopleDataLabsFundingProvider } from "./vendors/peopledatalabs";

export interface ProviderLists extends PeopleProviderLists, CompanyProviderLists {
  domainEmails: EnrichmentProvider<DomainEmailsProviderInput>[];
  intelligence: EnrichmentProvider<IntelligenceProviderInput>[];
}

/**
 * Providers in the operator's priority order (ENRICHMENT_PROVIDER_ORDER): the ids it lists first, in its order, then
 * every other provider in its default order. Ids that match no provider are ignored.
 */
export function orderProviders<T extends { id: string }>(providers: readonly T[], order: string): T[] {
  const priority = order
    .split(",")
    .map((id) => id.trim().toLowerCase())
    .filter(Boolean);
  const rank = (provider: T) => {
    const index = priority.indexOf(provider.id.toLowerCase());
    return index === -1 ? priority.length : index;
  };
  // Array.prototype.sort is stable, so unlisted providers keep their default order.
  return [...providers].sort((a, b) => rank(a) - rank(b));
}

let live: ProviderLists | undefined;

/**
 * The providers live keys run, in waterfall order: first-party collectors first (free to us), then vendor adapters
 * whose keys the operator configured; ENRICHMENT_PROVIDER_ORDER reorders them. Built once from the environment.
 */
export function liveProviders(): ProviderLists {
  if (live) return live;
  const config = env();
  const { http, dns } = outboundFromEnv();
  const snapshots = createCompanySnapshots({ http, dns, db, maxPages: config.CRAWL_MAX_PAGES });
  const deps: ProviderDeps = { http, dns, snapshots, db, config };

  const domainEmails: EnrichmentProvider<DomainEmailsProviderInput>[] = [websiteEmailsProvider(deps)];
  if (config.HUNTER_API_KEY)
    domainEmails.push(
      createHunterDomainEmailsProvider({ apiKey: config.HUNTER_API_KEY, baseUrl: config.HUNTER_API_URL, http }),
    );

  const intelligence: EnrichmentProvider<IntelligenceProviderInput>[] = [
    fingerprintTechnographicsProvider(deps),
    storedCompetitorsProvider(deps),
  ];
  const funding = secEdgarFromEnv(http);
  if (funding) intelligence.push(publicFilingsFundingProvider({ ...deps, funding }));
  if (config.PEOPLEDATALABS_API_KEY) {
    intelligence.push(
      createPeopleDataLabsFundingProvider({
        apiKey: config.PEOPLEDATALABS_API_KEY,
        baseUrl: config.PEOPLEDATALABS_API_URL,
        http,
      }),
    );
  }
  if (config.BUILTWITH_API_KEY) {
    intelligence.push(
      createBuiltWithTechnographicsProvider({
        apiKey: config.BUILTWITH_API_KEY,
        baseUrl: config.BUILTWITH_API_URL,
        http,
      }),
    );
  }

  const lists: ProviderLists = {
    domainEmails,
    intelligence,
    ...livePeopleProviders(deps),
    ...liveCompanyProviders(deps),
  };
  // Every list: the disabled ids removed, then the operator's order.
  const arranged = Object.entries(lists).map(([operation, providers]: [string, { id: string }[]]) => [
    operation,
    orderProviders(
      providers.filter((provider) => !config.ENRICHMENT_PROVIDERS_DISABLED.includes(provider.id)),
      config.ENRICHMENT_PROVIDER_ORDER,
    ),
  ]);
  live = Object.fromEntries(arranged) as unknown as ProviderLists;
  return live;
}

/** SEC EDGAR asks every client to declare a contact: without OUTBOUND_CONTACT the public-filings source stays off. */
function secEdgarFromEnv(http: OutboundClient): FundingSource | undefined {
  const config = env();
  if (!config.SEC_EDGAR_ENABLED) return undefined;
  if (!config.OUTBOUND_CONTACT?.includes("@")) {
    console.warn(
      "Funding from public filings is off: set OUTBOUND_CONTACT to an email address (SEC EDGAR requires one).",
    );
    return undefined;
  }
  return createSecEdgarFundingSource({
    http,
    searchBaseUrl: config.SEC_EDGAR_SEARCH_URL,
    archiveBaseUrl: config.SEC_EDGAR_ARCHIVE_URL,
  });
}

/** Test keys get the deterministic sandbox and nothing else: no upstream call, ever. */
export const sandboxProviders: ProviderLists = {
  domainEmails: [sandboxDomainEmailsProvider],
  intelligence: [sandboxIntelligenceProvider],
  ...sandboxPeopleProviders,
  ...sandboxCompanyProviders,
};
