import { decodeOffsetCursor, encodeOffsetCursor, type CursorScope } from "@/lib/cursor";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { multiRecordCost, multiRecordPriceRange, PRICES } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  PEOPLE_SEARCH_FIELDS,
  type PeopleSearchProviderInput,
  type PeopleSeniority,
  type PersonSearchRecord,
} from "@/lib/providers/fields/people";
import { type EngineOutput, runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

export interface PeopleSearchRequest {
  domain: string;
  titles?: string[];
  seniority?: PeopleSeniority[];
  department?: string[];
  limit: number;
  cursor?: string;
}

const CACHE_TTL_SECONDS = 7 * 24 * 3600;
/**
 * People considered per company. Providers are always asked for this many, whatever page is requested, so every page
 * is cut from the same ranked list (the same cached answer, for live keys): pages never skip or repeat a person.
 */
const MAX_PEOPLE = 100;
const SENIORITY_ORDER: Record<string, number> = { executive: 0, senior: 1, junior: 2 };

/** Lower-case, trimmed, de-duplicated and sorted: the same filters in any order or case are one question. */
function normalizedList(values: readonly string[] | undefined): string[] | undefined {
  return values === undefined ? undefined : [...new Set(values.map((value) => value.trim().toLowerCase()))].sort();
}

interface Filters {
  titles?: string[];
  seniority?: string[];
  department?: string[];
}

/** Any title as part of the position; any seniority; any department. An unknown value never matches a filter. */
function matches(person: PersonSearchRecord, filters: Filters): boolean {
  const position = person.position?.toLowerCase() ?? "";
  if (filters.titles && !filters.titles.some((title) => position.includes(title))) return false;
  if (filters.seniority && !filters.seniority.includes(person.seniority?.toLowerCase() ?? "")) return false;
  if (filters.department && !filters.department.includes(person.department?.toLowerCase() ?? "")) return false;
  return true;
}

/** The ranked list: most certain first, then the more senior, then by name, so paging is stable. */
function rankedPeople(output: EngineOutput, filters: Filters): PersonSearchRecord[] {
  const people = (output.merged.people?.value as PersonSearchRecord[] | undefined) ?? [];
  const rank = (person: PersonSearchRecord) => SENIORITY_ORDER[person.seniority ?? ""] ?? 3;
  return people
    .filter((person) => matches(person, filters))
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        rank(a) - rank(b) ||
        (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0),
    )
    .slice(0, MAX_PEOPLE);
}

const toPublic = (person: PersonSearchRecord): PersonSearchRecord => ({
  fullName: person.fullName,
  firstName: person.firstName,
  lastName: person.lastName,
  position: person.position,
  seniority: person.seniority,
  department: person.department,
  email: person.email,
  linkedin: person.linkedin,
  twitter: person.twitter,
  confidence: person.confidence,
});

/** POST /v1/data/svc/people/search: people at a company, filtered, ranked and paged by cursor. */
export async function searchPeople(options: {
  principal: ApiKeyPrincipal;
  request: PeopleSearchRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { request } = options;
  const filters: Filters = {
    titles: normalizedList(request.titles),
    seniority: normalizedList(request.seniority),
    department: normalizedList(request.department),
  };
  // A cursor is valid only for this workspace, this company and these filters; it is checked before anything is spent.
  const scope: CursorScope = {
    workspaceId: options.principal.workspace.id,
    list: "people_search",
    domain: request.domain,
    titles: filters.titles?.join("\n"),
    seniority: filters.seniority?.join(","),
    department: filters.department?.join("\n"),
  };
  const offset = request.cursor === undefined ? 0 : decodeOffsetCursor(request.cursor, scope);
  const providerInput: PeopleSearchProviderInput = {
    domain: request.domain,
    titles: filters.titles,
    seniority: filters.seniority as PeopleSeniority[] | undefined,
    department: filters.department,
    wanted: MAX_PEOPLE,
  };

  return runEnrichmentCall({
    principal: options.principal,
    operation: "people_search",
    // Paging is applied to the answer, not asked of providers: it is not part of the input.
    normalizedInput: { domain: request.domain, ...filters },
    priceRange: multiRecordPriceRange("people_search", request.limit),
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).peopleSearch,
        input: providerInput,
        fields: PEOPLE_SEARCH_FIELDS,
        requested: ["domain", "people"],
        isComplete: (merged) => ((merged.people?.value as unknown[] | undefined)?.length ?? 0) >= MAX_PEOPLE,
        budgetCents: spendCapCents,
      }),
    shape: (output, capCents) => {
      const people = rankedPeople(output, filters);
      const { baseCents, perRecordCents } = PRICES.people_search;
      // A budget may afford fewer people than `limit`: the page is cut there, never the price raised.
      const affordable = Number.isFinite(capCents)
        ? Math.max(0, Math.floor((capCents - baseCents) / perRecordCents))
        : request.limit;
      const limited = affordable < request.limit;
      const page = people.slice(offset, offset + Math.min(request.limit, affordable));
      const next = offset + page.length;
      return {
        data: {
          domain: (output.merged.domain?.value as string | undefined) ?? request.domain,
          people: page.map(toPublic),
          total: people.length,
          nextCursor: next < people.length ? encodeOffsetCursor(next, scope) : null,
        },
        costCents: multiRecordCost("people_search", page.length),
        records: page.length,
        ...(limited && { budgetCentsPerRecord: perRecordCents }),
      };
    },
  });
}
