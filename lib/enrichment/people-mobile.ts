import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { lookupPriceRange, PRICES } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  PEOPLE_MOBILE_FIELDS,
  type PeopleMobileProviderInput,
  type PhoneNumberRecord,
} from "@/lib/providers/fields/people";
import { runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

/** Exactly one of the two; the contract has normalised them (lower-case address, canonical profile URL). */
export interface PersonMobileRequest {
  email?: string;
  linkedinUrl?: string;
}

const CACHE_TTL_SECONDS = 7 * 24 * 3600;
const TYPE_ORDER: Record<PhoneNumberRecord["type"], number> = { mobile: 0, work: 1, other: 2 };

/** POST /v1/data/svc/people/mobile: a person's phone numbers in E.164, mobile first, found or free. */
export async function findPersonPhoneNumbers(options: {
  principal: ApiKeyPrincipal;
  request: PersonMobileRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const input: PeopleMobileProviderInput =
    options.request.email !== undefined
      ? { email: options.request.email }
      : { linkedinUrl: options.request.linkedinUrl };
  return runEnrichmentCall({
    principal: options.principal,
    operation: "people_mobile",
    normalizedInput: { ...input },
    priceRange: lookupPriceRange("people_mobile"),
    // Found-or-free: a call starts only when a hit could be paid for.
    requiredCents: PRICES.people_mobile,
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).peopleMobile,
        input,
        fields: PEOPLE_MOBILE_FIELDS,
        requested: ["phoneNumbers"],
        // A work number from the company's site does not end the search: a source that holds mobiles may still answer.
        isComplete: (merged) =>
          ((merged.phoneNumbers?.value as PhoneNumberRecord[] | undefined) ?? []).some(
            (phone) => phone.type === "mobile",
          ),
        budgetCents: spendCapCents,
      }),
    shape: (output) => {
      const phoneNumbers = ((output.merged.phoneNumbers?.value as PhoneNumberRecord[] | undefined) ?? [])
        .map(({ number, type, confidence, source }) => ({ number, type, confidence, source }))
        .sort(
          (a, b) =>
            TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || b.confidence - a.confidence || (a.number < b.number ? -1 : 1),
        );
      return { data: { phoneNumbers }, costCents: phoneNumbers.length > 0 ? PRICES.people_mobile : 0 };
    },
  });
}
