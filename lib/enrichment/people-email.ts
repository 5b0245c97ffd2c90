import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { lookupPriceRange, PRICES } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  PEOPLE_EMAIL_FIELDS,
  type EmailCandidate,
  type PeopleEmailProviderInput,
  type PersonEmailFinding,
} from "@/lib/providers/fields/people";
import { type EngineOutput, runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

export interface PersonEmailRequest {
  firstName?: string;
  lastName?: string;
  fullName?: string;
  domain?: string;
  company?: string;
}

const CACHE_TTL_SECONDS = 7 * 24 * 3600;
/** An address at least this sure (one the company publishes) answers the call; a format's guess lets vendors try. */
const SURE_CONFIDENCE = 80;
/** Candidates shown at most. */
const MAX_CANDIDATES = 10;
const REQUESTED = ["email", "domain", "position", "seniority", "department", "pattern", "candidates"];

/** First and last name: as sent, or the first and last words of `fullName` (the contract requires two words). */
export function personNames(request: PersonEmailRequest): { firstName: string; lastName: string; fullName: string } {
  if (request.fullName !== undefined) {
    const words = request.fullName.trim().split(/\s+/);
    return { firstName: words[0] ?? "", lastName: words.at(-1) ?? "", fullName: words.join(" ") };
  }
  const firstName = (request.firstName ?? "").trim().replace(/\s+/g, " ");
  const lastName = (request.lastName ?? "").trim().replace(/\s+/g, " ");
  return { firstName, lastName, fullName: `${firstName} ${lastName}` };
}

function scalar<T>(output: EngineOutput, name: string): T | null {
  return (output.merged[name]?.value as T | undefined) ?? null;
}

/** Most likely first; the chosen address leads even when another source rated an alternative alike. */
function rankedCandidates(output: EngineOutput, best: PersonEmailFinding | null): EmailCandidate[] {
  const candidates = [...((output.merged.candidates?.value as EmailCandidate[] | undefined) ?? [])];
  if (best !== null && !candidates.some((candidate) => candidate.email === best.email)) {
    candidates.push({ email: best.email, confidence: best.confidence, reason: best.reason });
  }
  const lead = (candidate: EmailCandidate) => (best !== null && candidate.email === best.email ? 0 : 1);
  return candidates
    .sort(
      (a, b) =>
        lead(a) - lead(b) || b.confidence - a.confidence || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0),
    )
    .slice(0, MAX_CANDIDATES);
}

/** POST /v1/data/svc/people/email: a person's work address at a company, found or free. */
export async function findPersonEmail(options: {
  principal: ApiKeyPrincipal;
  request: PersonEmailRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { request } = options;
  const names = personNames(request);
  const providerInput: PeopleEmailProviderInput = {
    ...names,
    domain: request.domain,
    company: request.domain ? undefined : request.company,
  };
  return runEnrichmentCall({
    principal: options.principal,
    operation: "people_email",
    // The name as providers read it: "Jordan Ellis" as fullName or as two fields is one question.
    normalizedInput: {
      firstName: names.firstName.toLowerCase(),
      lastName: names.lastName.toLowerCase(),
      domain: request.domain,
      company: request.domain ? undefined : request.company?.trim().toLowerCase(),
    },
    priceRange: lookupPriceRange("people_email"),
    // Found-or-free: a call starts only when a hit could be paid for.
    requiredCents: PRICES.people_email,
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).peopleEmail,
        input: providerInput,
        fields: PEOPLE_EMAIL_FIELDS,
        requested: REQUESTED,
        isComplete: (merged) =>
          ((merged.email?.value as PersonEmailFinding | undefined)?.confidence ?? 0) >= SURE_CONFIDENCE,
        budgetCents: spendCapCents,
      }),
    shape: (output) => {
      const best = scalar<PersonEmailFinding>(output, "email");
      return {
        data: {
          email: best?.email ?? null,
          firstName: scalar<string>(output, "firstName") ?? names.firstName,
          lastName: scalar<string>(output, "lastName") ?? names.lastName,
          domain: scalar<string>(output, "domain") ?? request.domain ?? null,
          position: scalar<string>(output, "position"),
          seniority: scalar<string>(output, "seniority"),
          department: scalar<string>(output, "department"),
          confidence: best?.confidence ?? null,
          verification: best?.verification ?? { date: null, status: null },
          sources: best?.sources ?? [],
          candidates: rankedCandidates(output, best),
          pattern: scalar<string>(output, "pattern"),
        },
        costCents: best === null ? 0 : PRICES.people_email,
      };
    },
  });
}
