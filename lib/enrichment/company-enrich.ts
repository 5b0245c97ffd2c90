import type { z } from "zod";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { lookupPriceRange, PRICES } from "@/lib/billing/prices";
import type { companyProfileDataSchema } from "@/lib/contracts/companies";
import { db } from "@/lib/db/client";
import { saveEnrichedCompany } from "@/lib/providers/first-party/companies/company-store";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import { COMPANY_ENRICH_FIELDS, COMPANY_PROFILE_FIELDS } from "@/lib/providers/fields/company";
import { type EngineOutput, runEnrichmentCall } from "./enrichment-call";
import type { ProviderFields } from "@/lib/providers/provider";
import { runWaterfall } from "./waterfall";

/** A company's profile changes slowly; its stack (and so the technologies summary) a little faster. */
const CACHE_TTL_SECONDS = 7 * 24 * 3600;

export type CompanyProfileData = z.output<typeof companyProfileDataSchema>;

function profileOf(domain: string, merged: ProviderFields): CompanyProfileData {
  const scalar = <T>(name: string) => (merged[name]?.value as T | undefined) ?? null;
  const list = <T>(name: string) => (merged[name]?.value as T[] | undefined) ?? [];
  return {
    domain,
    name: scalar("name"),
    legalName: scalar("legalName"),
    description: scalar("description"),
    industry: scalar("industry"),
    keywords: list("keywords"),
    sizeRange: scalar("sizeRange"),
    employeeCount: scalar("employeeCount"),
    founded: scalar("founded"),
    location: scalar("location"),
    phone: scalar("phone"),
    socialProfiles: list("socialProfiles"),
    logo: scalar("logo"),
    mailProvider: scalar("mailProvider"),
    technologies: list("technologies"),
  };
}

/** A profile is found when it names the company; a mail provider alone is a DNS fact, not a profile. */
const isFound = (output: EngineOutput) => output.merged.name !== undefined;

/**
 * POST /v1/data/svc/companies/enrich: a company's profile from its domain. Found or free: the price is charged only
 * when the profile names the company, and the balance (and X-Budget-Cents) must cover it before anything starts.
 * What live providers found is added to the company store, so discovery can filter on industry, size and place.
 */
export async function enrichCompany(options: {
  principal: ApiKeyPrincipal;
  request: { domain: string };
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { domain } = options.request;
  const price = PRICES.companies_enrich;
  return runEnrichmentCall({
    principal: options.principal,
    operation: "companies_enrich",
    normalizedInput: { domain },
    priceRange: lookupPriceRange("companies_enrich"),
    requiredCents: price,
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: async (mode, spendCapCents) => {
      const result = await runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).companyEnrich,
        input: { domain },
        fields: COMPANY_ENRICH_FIELDS,
        requested: COMPANY_PROFILE_FIELDS,
        isComplete: (merged) => COMPANY_PROFILE_FIELDS.every((name) => merged[name] !== undefined),
        budgetCents: spendCapCents,
      });
      // Test keys' synthetic profiles never enter the store.
      if (mode === "live" && result.merged.name !== undefined) {
        const profile = profileOf(domain, result.merged);
        await saveEnrichedCompany(db(), {
          domain,
          name: profile.name,
          description: profile.description,
          keywords: profile.keywords,
          industry: profile.industry,
          sizeRange: profile.sizeRange,
          employeeCount: profile.employeeCount,
          address: profile.location && { ...profile.location },
        });
      }
      return result;
    },
    shape: (output) => ({ data: profileOf(domain, output.merged), costCents: isFound(output) ? price : 0 }),
  });
}
