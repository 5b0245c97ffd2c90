import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { lookupPriceRange, PRICES } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  PEOPLE_ENRICH_FIELDS,
  type PeopleEnrichProviderInput,
  type PersonCompany,
  type PersonLocation,
  type PersonSocialProfile,
} from "@/lib/providers/fields/people";
import { type EngineOutput, runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

/** Exactly one of the two; the contract has normalised them (lower-case address, canonical profile URL). */
export interface PersonEnrichRequest {
  email?: string;
  linkedinUrl?: string;
}

const CACHE_TTL_SECONDS = 7 * 24 * 3600;
const REQUESTED = PEOPLE_ENRICH_FIELDS.map((field) => field.name);
/** A profile is answered once these are known; seniority and department follow from the position when they can. */
const CORE = ["fullName", "position", "email", "company", "location"];

function scalar<T>(output: EngineOutput, name: string): T | null {
  return (output.merged[name]?.value as T | undefined) ?? null;
}

/** POST /v1/data/svc/people/enrich: a person's profile by work address or LinkedIn URL, found or free. */
export async function enrichPerson(options: {
  principal: ApiKeyPrincipal;
  request: PersonEnrichRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const input: PeopleEnrichProviderInput =
    options.request.email !== undefined
      ? { email: options.request.email }
      : { linkedinUrl: options.request.linkedinUrl };
  return runEnrichmentCall({
    principal: options.principal,
    operation: "people_enrich",
    normalizedInput: { ...input },
    priceRange: lookupPriceRange("people_enrich"),
    // Found-or-free: a call starts only when a hit could be paid for.
    requiredCents: PRICES.people_enrich,
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).peopleEnrich,
        input,
        fields: PEOPLE_ENRICH_FIELDS,
        requested: REQUESTED,
        isComplete: (merged) => CORE.every((name) => merged[name] !== undefined),
        budgetCents: spendCapCents,
      }),
    shape: (output) => {
      // Found means we know who it is: facts without a name (a company for a domain) are not a profile.
      const found = scalar<string>(output, "fullName") !== null;
      return {
        data: {
          fullName: scalar<string>(output, "fullName"),
          firstName: scalar<string>(output, "firstName"),
          lastName: scalar<string>(output, "lastName"),
          position: scalar<string>(output, "position"),
          seniority: scalar<string>(output, "seniority"),
          department: scalar<string>(output, "department"),
          email: scalar<string>(output, "email"),
          company: scalar<PersonCompany>(output, "company"),
          location: scalar<PersonLocation>(output, "location"),
          socialProfiles: (scalar<PersonSocialProfile[]>(output, "socialProfiles") ?? []).map(({ network, url }) => ({
            network,
            url,
          })),
        },
        costCents: found ? PRICES.people_enrich : 0,
      };
    },
  });
}
