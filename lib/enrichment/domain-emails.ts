import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { domainEmailsCost, domainEmailsPriceRange, PRICES } from "@/lib/billing/prices";
import { liveProviders, sandboxProviders } from "@/lib/providers/registry";
import {
  DOMAIN_EMAIL_FIELDS,
  type DomainEmailsProviderInput,
  type EmailRecord,
} from "@/lib/providers/fields/domain-emails";
import { type EngineOutput, runEnrichmentCall } from "./enrichment-call";
import { runWaterfall } from "./waterfall";

export interface DomainEmailsRequest {
  domain?: string;
  company?: string;
  limit: number;
  offset: number;
  type?: "personal" | "generic";
  seniority?: string;
  department?: string;
}

const CACHE_TTL_SECONDS = 7 * 24 * 3600;
/**
 * Addresses considered per company. Providers are always asked for this many, whatever page is requested, so every
 * page is cut from the same list (the same cached answer, for live keys): pages never skip or repeat an address.
 */
const MAX_DOMAIN_EMAILS = 100;
const SCALARS = ["domain", "organization", "pattern", "acceptAll", "webmail", "disposable"] as const;
const REQUESTED = [...SCALARS, "emails"];

const sameText = (a: string | null, b: string | undefined) =>
  b === undefined || (a ?? "").toLowerCase() === b.toLowerCase();

/** Filters, then a stable order (most confident first, then by address) so paging never skips or repeats. */
function matchingEmails(output: EngineOutput, request: DomainEmailsRequest): EmailRecord[] {
  const emails = (output.merged.emails?.value as EmailRecord[] | undefined) ?? [];
  return emails
    .filter(
      (email) =>
        (request.type === undefined || email.type === request.type) &&
        sameText(email.seniority, request.seniority) &&
        sameText(email.department, request.department),
    )
    .sort((a, b) => b.confidence - a.confidence || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

function scalar<T>(output: EngineOutput, name: string): T | null {
  return (output.merged[name]?.value as T | undefined) ?? null;
}

/** POST /v1/data/svc/companies/domain-emails: the addresses found for a company, by domain or by name. */
export async function findDomainEmails(options: {
  principal: ApiKeyPrincipal;
  request: DomainEmailsRequest;
  budgetCents?: number;
  bypassCache: boolean;
}) {
  const { request } = options;
  const providerInput: DomainEmailsProviderInput = {
    domain: request.domain,
    company: request.domain ? undefined : request.company,
    wanted: MAX_DOMAIN_EMAILS,
    type: request.type,
    seniority: request.seniority,
    department: request.department,
  };
  return runEnrichmentCall({
    principal: options.principal,
    operation: "companies_domain_emails",
    // Paging is applied to the answer, not asked of providers: it is not part of the input.
    normalizedInput: {
      domain: request.domain,
      company: request.domain ? undefined : request.company?.trim().toLowerCase(),
      type: request.type,
      seniority: request.seniority?.toLowerCase(),
      department: request.department?.toLowerCase(),
    },
    priceRange: domainEmailsPriceRange(request.limit),
    budgetCents: options.budgetCents,
    bypassCache: options.bypassCache,
    cacheTtlSeconds: CACHE_TTL_SECONDS,
    run: (mode, spendCapCents) =>
      runWaterfall({
        providers: (mode === "test" ? sandboxProviders : liveProviders()).domainEmails,
        input: providerInput,
        fields: DOMAIN_EMAIL_FIELDS,
        requested: REQUESTED,
        // Filled means found: every scalar, and addresses from at least one provider (each returns all it has).
        isComplete: (merged) =>
          SCALARS.every((name) => merged[name]?.value != null) &&
          ((merged.emails?.value as unknown[] | undefined)?.length ?? 0) > 0,
        budgetCents: spendCapCents,
      }),
    shape: (output, capCents) => {
      const emails = matchingEmails(output, request).slice(0, MAX_DOMAIN_EMAILS);
      const { baseCents, perEmailCents } = PRICES.companies_domain_emails;
      // A budget may afford fewer emails than `limit`: the page is cut there, never the price raised.
      const affordable = Number.isFinite(capCents)
        ? Math.max(0, Math.floor((capCents - baseCents) / perEmailCents))
        : request.limit;
      const limited = affordable < request.limit;
      const page = emails.slice(request.offset, request.offset + Math.min(request.limit, affordable));
      return {
        data: {
          domain: scalar<string>(output, "domain") ?? request.domain ?? null,
          organization: scalar<string>(output, "organization"),
          pattern: scalar<string>(output, "pattern"),
          acceptAll: scalar<boolean>(output, "acceptAll"),
          webmail: scalar<boolean>(output, "webmail"),
          disposable: scalar<boolean>(output, "disposable"),
          emails: page,
          total: emails.length,
        },
        costCents: domainEmailsCost(page.length),
        records: page.length,
        ...(limited && { budgetCentsPerRecord: perEmailCents }),
      };
    },
  });
}
