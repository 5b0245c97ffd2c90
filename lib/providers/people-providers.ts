import type {
  PeopleEmailProviderInput,
  PeopleEnrichProviderInput,
  PeopleMobileProviderInput,
  PeopleSearchProviderInput,
} from "@/lib/providers/fields/people";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { websitePersonEmailProvider } from "./first-party/people-email";
import { storedPersonProfileProvider, websitePersonProfileProvider } from "./first-party/people-enrich";
import { storedPersonPhoneProvider, websitePersonPhoneProvider } from "./first-party/people-mobile";
import { storedPeopleSearchProvider, websitePeopleSearchProvider } from "./first-party/people-search";
import type { ProviderDeps } from "./provider-deps";
import {
  sandboxPeopleSearchProvider,
  sandboxPersonEmailProvider,
  sandboxPersonPhoneProvider,
  sandboxPersonProfileProvider,
} from "./sandbox/people";
import { createHunterEmailFinderProvider } from "./vendors/hunter-email-finder";
import {
  createPeopleDataLabsPersonEnrichProvider,
  createPeopleDataLabsPersonMobileProvider,
} from "./vendors/peopledatalabs-person";

/** The people operations' provider lists, in waterfall order. */
export interface PeopleProviderLists {
  peopleEmail: EnrichmentProvider<PeopleEmailProviderInput>[];
  peopleEnrich: EnrichmentProvider<PeopleEnrichProviderInput>[];
  peopleMobile: EnrichmentProvider<PeopleMobileProviderInput>[];
  peopleSearch: EnrichmentProvider<PeopleSearchProviderInput>[];
}

/**
 * First-party sources first (the company's own site, then our store of people seen on earlier visits; free to us),
 * then the vendor adapters whose keys the operator configured. Mobile numbers come from vendors only: a company's site
 * prints work numbers at most, and we never guess.
 */
export function livePeopleProviders(deps: ProviderDeps): PeopleProviderLists {
  const { config, http } = deps;
  const lists: PeopleProviderLists = {
    peopleEmail: [websitePersonEmailProvider(deps)],
    peopleEnrich: [websitePersonProfileProvider(deps), storedPersonProfileProvider(deps)],
    peopleMobile: [websitePersonPhoneProvider(deps), storedPersonPhoneProvider(deps)],
    peopleSearch: [websitePeopleSearchProvider(deps), storedPeopleSearchProvider(deps)],
  };
  if (config.HUNTER_API_KEY) {
    lists.peopleEmail.push(
      createHunterEmailFinderProvider({ apiKey: config.HUNTER_API_KEY, baseUrl: config.HUNTER_API_URL, http }),
    );
  }
  if (config.PEOPLEDATALABS_API_KEY) {
    const pdl = { apiKey: config.PEOPLEDATALABS_API_KEY, baseUrl: config.PEOPLEDATALABS_API_URL, http };
    lists.peopleEnrich.push(createPeopleDataLabsPersonEnrichProvider(pdl));
    lists.peopleMobile.push(createPeopleDataLabsPersonMobileProvider(pdl));
  }
  return lists;
}

/** Test keys: the deterministic sandbox and nothing else. */
export const sandboxPeopleProviders: PeopleProviderLists = {
  peopleEmail: [sandboxPersonEmailProvider],
  peopleEnrich: [sandboxPersonProfileProvider],
  peopleMobile: [sandboxPersonPhoneProvider],
  peopleSearch: [sandboxPeopleSearchProvider],
};
