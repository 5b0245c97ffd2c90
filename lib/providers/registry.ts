import type { DomainEmailsProviderInput } from "@/lib/enrichment/domain-emails-fields";
import type { IntelligenceProviderInput } from "@/lib/enrichment/intelligence-fields";
import type { EnrichmentProvider } from "@/lib/enrichment/types";
import { env } from "@/lib/env";
import { createHunterDomainEmailsProvider } from "./hunter";
import { sandboxDomainEmailsProvider, sandboxIntelligenceProvider } from "./sandbox";

export interface ProviderLists {
  domainEmails: EnrichmentProvider<DomainEmailsProviderInput>[];
  intelligence: EnrichmentProvider<IntelligenceProviderInput>[];
}

/**
 * Providers in the operator's priority order (ENRICHMENT_PROVIDER_ORDER): the ids it lists first, in its order, then
 * every other provider in its default order. Ids that match no provider are ignored.
 */
export function orderProviders<T extends { id: string }>(providers: readonly T[], order: string): T[] {
  const priority = order.split(",").map((id) => id.trim().toLowerCase()).filter(Boolean);
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
 * whose keys the operator configured. Built once from the environment.
 */
export function liveProviders(): ProviderLists {
  if (live) return live;
  const config = env();
  const domainEmails: EnrichmentProvider<DomainEmailsProviderInput>[] = [];
  if (config.HUNTER_API_KEY) domainEmails.push(createHunterDomainEmailsProvider({ apiKey: config.HUNTER_API_KEY, baseUrl: config.HUNTER_API_URL }));
  live = { domainEmails: orderProviders(domainEmails, config.ENRICHMENT_PROVIDER_ORDER), intelligence: [] };
  return live;
}

/** Test keys get the deterministic sandbox and nothing else: no upstream call, ever. */
export const sandboxProviders: ProviderLists = {
  domainEmails: [sandboxDomainEmailsProvider],
  intelligence: [sandboxIntelligenceProvider],
};
