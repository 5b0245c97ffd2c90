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
  live = { domainEmails, intelligence: [] };
  return live;
}

/** Test keys get the deterministic sandbox and nothing else: no upstream call, ever. */
export const sandboxProviders: ProviderLists = {
  domainEmails: [sandboxDomainEmailsProvider],
  intelligence: [sandboxIntelligenceProvider],
};
