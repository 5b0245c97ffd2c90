import {
  PEOPLE_ENRICH_FIELDS,
  type PeopleEnrichProviderInput,
  type PersonSocialProfile,
} from "@/lib/providers/fields/people";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { findCompany } from "./companies/company-store";
import { departmentFromTitle, seniorityFromTitle } from "./email/job-title";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";
import {
  BY_PATTERN_CONFIDENCE,
  identifyOnSite,
  siteAddressOf,
  STORED_CONFIDENCE,
  storedAddress,
  storedPerson,
} from "./person-lookup";
import type { OrganizationAddress } from "./website/extract-organization";

function socialProfilesOf(person: { linkedin: string | null; twitter: string | null }): PersonSocialProfile[] {
  const profiles: PersonSocialProfile[] = [];
  if (person.linkedin) profiles.push({ network: "linkedin", url: person.linkedin });
  if (person.twitter) profiles.push({ network: "twitter", url: `https://twitter.com/${person.twitter}` });
  return profiles;
}

/** The company's stated address as a location; null when it names no place. */
function locationOf(address: OrganizationAddress | null | undefined) {
  if (!address) return null;
  const location = {
    locality: address.locality ?? null,
    region: address.region ?? null,
    country: address.country ?? null,
  };
  return location.locality || location.region || location.country ? location : null;
}

/** A person's profile from their company's website, found by their address (or by where the store saw their profile). */
export function websitePersonProfileProvider(
  options: FirstPartyOptions,
): EnrichmentProvider<PeopleEnrichProviderInput> {
  return {
    id: "website",
    operation: "people_enrich",
    supplies: PEOPLE_ENRICH_FIELDS.map((field) => field.name),
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const identified = await identifyOnSite(options, input);
      if (identified === null) return {};
      const { snapshot, found } = identified;
      const { person, confidence } = found;
      const fields: ProviderFields = {
        fullName: { value: person.fullName, confidence },
        firstName: { value: person.firstName, confidence },
        lastName: { value: person.lastName, confidence },
        company: { value: { name: snapshot.organization.name, domain: snapshot.domain }, confidence },
      };
      if (person.jobTitle) {
        fields.position = { value: person.jobTitle, confidence };
        const seniority = seniorityFromTitle(person.jobTitle);
        const department = departmentFromTitle(person.jobTitle);
        if (seniority) fields.seniority = { value: seniority, confidence };
        if (department) fields.department = { value: department, confidence };
      }
      if (input.email !== undefined) {
        fields.email = { value: input.email, confidence };
      } else {
        const address = siteAddressOf(snapshot, person);
        if (address)
          fields.email = { value: address.address, confidence: address.seen ? confidence : BY_PATTERN_CONFIDENCE };
      }
      // The person's own location is not on a team page; where their company is, is the best honest proxy.
      const location = locationOf(snapshot.organization.address);
      if (location) fields.location = { value: location, confidence: confidence * 0.8 };
      const profiles = socialProfilesOf(person);
      if (profiles.length > 0) fields.socialProfiles = { value: profiles, confidence };
      return fields;
    },
  };
}

/** A person's profile from our store of people named on company sites (when their site no longer lists them). */
export function storedPersonProfileProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleEnrichProviderInput> {
  return {
    id: "people-store",
    operation: "people_enrich",
    supplies: PEOPLE_ENRICH_FIELDS.map((field) => field.name),
    costCents: 0,
    async enrich(input) {
      const person = await storedPerson(options, input);
      if (person === null) return {};
      const company = await findCompany(options.db(), person.domain);
      const confidence = STORED_CONFIDENCE;
      const fields: ProviderFields = {
        fullName: { value: person.fullName, confidence },
        company: { value: { name: company?.name ?? null, domain: person.domain }, confidence },
      };
      const scalars = {
        firstName: person.firstName,
        lastName: person.lastName,
        position: person.position,
        seniority: person.seniority,
        department: person.department,
        email: person.email,
      };
      for (const [name, value] of Object.entries(scalars)) if (value !== null) fields[name] = { value, confidence };
      // As above: the company's address stands in for the person's location.
      const location = locationOf(storedAddress(company?.profile));
      if (location) fields.location = { value: location, confidence: confidence * 0.8 };
      const profiles = socialProfilesOf(person);
      if (profiles.length > 0) fields.socialProfiles = { value: profiles, confidence };
      return fields;
    },
  };
}
