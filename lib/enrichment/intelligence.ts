import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { intelligencePrice } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  INTELLIGENCE_FIELDS,
  type Competitor,
  type Funding,
  type IntelligenceSignal,
  type Technology,
} from "@/lib/providers/fields/intelligence";
import { runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

// Funding rounds and competitors change slowly; a site's technology changes more often.
const CACHE_TTL_SECONDS: Record<IntelligenceSignal, number> = {
  funding: 30 * 86400,
  competitors: 30 * 86400,
  technographics: 7 * 86400,
};

/** POST /v1/data/svc/companies/intelligence: one signal about a company, flat-priced. */
export async function getCompanyIntelligence(options: {
  principal: ApiKeyPrincipal;
  request: { domain: string; signal: IntelligenceSignal };
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { domain, signal } = options.request;
  const price = intelligencePrice(signal);
  return runEnrichmentCall({
    principal: options.principal,
    operation: "companies_intelligence",
    normalizedInput: { domain, signal },
    priceRange: { minCents: price, maxCents: price },
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS[signal],
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).intelligence,
        input: { domain, signal },
        fields: INTELLIGENCE_FIELDS,
        requested: [signal],
        isComplete: (merged) => merged[signal]?.value != null,
        budgetCents: spendCapCents,
      }),
    shape: (output) => {
      const data: {
        domain: string;
        signal: IntelligenceSignal;
        funding?: Funding | null;
        competitors?: Competitor[] | null;
        technographics?: Technology[] | null;
      } = {
        domain,
        signal,
      };
      data[signal] = (output.merged[signal]?.value ?? null) as never;
      return { data, costCents: price };
    },
  });
}
