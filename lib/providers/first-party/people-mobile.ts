import type { PeopleMobileProviderInput, PhoneNumberRecord } from "@/lib/providers/fields/people";
import { phoneCountry, toE164 } from "@/lib/providers/fields/phone";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { findCompany } from "./companies/company-store";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";
import { identifyOnSite, STORED_CONFIDENCE, storedAddress, storedPerson } from "./person-lookup";

function phoneRecord(
  raw: string | null,
  country: string | null | undefined,
  confidence: number,
  source: string,
): PhoneNumberRecord[] {
  const number = raw === null ? null : toE164(raw, phoneCountry(country));
  // A number printed in a person's own card is their work line; whether it rings a mobile, the site does not say.
  return number === null ? [] : [{ number, type: "work", confidence: Math.round(confidence * 100) / 100, source }];
}

/** The number the company's site prints for this very person (their team card), as a work number. */
export function websitePersonPhoneProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleMobileProviderInput> {
  return {
    id: "website",
    operation: "people_mobile",
    supplies: ["phoneNumbers"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const identified = await identifyOnSite(options, input);
      if (identified === null) return {};
      const { snapshot, found } = identified;
      const numbers = phoneRecord(
        found.person.phone,
        snapshot.organization.address?.country,
        found.confidence,
        found.person.pageUrl,
      );
      return numbers.length === 0 ? {} : { phoneNumbers: { value: numbers, confidence: found.confidence } };
    },
  };
}

/** The number an earlier visit saw printed for this person. */
export function storedPersonPhoneProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleMobileProviderInput> {
  return {
    id: "people-store",
    operation: "people_mobile",
    supplies: ["phoneNumbers"],
    costCents: 0,
    async enrich(input) {
      const person = await storedPerson(options, input);
      if (person === null || person.phone === null) return {};
      const company = await findCompany(options.db(), person.domain);
      const numbers = phoneRecord(
        person.phone,
        storedAddress(company?.profile)?.country,
        STORED_CONFIDENCE,
        person.sourceUrl,
      );
      return numbers.length === 0 ? {} : { phoneNumbers: { value: numbers, confidence: STORED_CONFIDENCE } };
    },
  };
}
