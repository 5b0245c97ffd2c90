import type { PeopleSearchProviderInput, PersonSearchRecord } from "@/lib/providers/fields/people";
import type { EnrichmentProvider, ProviderFields } from "@/lib/providers/provider";
import { departmentFromTitle, seniorityFromTitle } from "./email/job-title";
import { type FirstPartyOptions, SNAPSHOT_TIMEOUT_MS } from "./options";
import { siteAddressOf } from "./person-lookup";
import { listPeopleAt } from "./people/people-store";

/** people/search confidence (0–100) by where we saw the person. */
const SEARCH_CONFIDENCE = { "json-ld": 95, "team-card": 90, stored: 60 } as const;

/** Everyone the company's site names now, with the address it shows (or its format gives) them. */
export function websitePeopleSearchProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleSearchProviderInput> {
  return {
    id: "website",
    operation: "people_search",
    supplies: ["domain", "people"],
    costCents: 0,
    timeoutMs: SNAPSHOT_TIMEOUT_MS,
    async enrich(input) {
      const fields: ProviderFields = { domain: { value: input.domain, confidence: 1 } };
      const snapshot = await options.snapshots(input.domain);
      if (!snapshot.reachable) return fields;
      const people: PersonSearchRecord[] = snapshot.siteEmails.people.map((person) => ({
        fullName: person.fullName,
        firstName: person.firstName,
        lastName: person.lastName,
        position: person.jobTitle,
        seniority: seniorityFromTitle(person.jobTitle),
        department: departmentFromTitle(person.jobTitle),
        email: siteAddressOf(snapshot, person)?.address ?? null,
        linkedin: person.linkedin,
        twitter: person.twitter,
        confidence: SEARCH_CONFIDENCE[person.evidence],
      }));
      if (people.length > 0)
        fields.people = { value: people, confidence: Math.max(...people.map((person) => person.confidence)) / 100 };
      return fields;
    },
  };
}

/** People earlier visits saw at the company, including those its site no longer lists (less sure). */
export function storedPeopleSearchProvider(options: FirstPartyOptions): EnrichmentProvider<PeopleSearchProviderInput> {
  return {
    id: "people-store",
    operation: "people_search",
    supplies: ["people"],
    costCents: 0,
    async enrich(input) {
      const stored = await listPeopleAt(options.db(), input.domain);
      const people: PersonSearchRecord[] = stored.flatMap((person) =>
        person.firstName === null || person.lastName === null
          ? []
          : [
              {
                fullName: person.fullName,
                firstName: person.firstName,
                lastName: person.lastName,
                position: person.position,
                seniority: person.seniority,
                department: person.department,
                email: person.email,
                linkedin: person.linkedin,
                twitter: person.twitter,
                confidence: SEARCH_CONFIDENCE.stored,
              },
            ],
      );
      return people.length === 0 ? {} : { people: { value: people, confidence: SEARCH_CONFIDENCE.stored / 100 } };
    },
  };
}
