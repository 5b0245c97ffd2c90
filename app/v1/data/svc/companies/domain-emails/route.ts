import { route } from "@/lib/api/route";
import { domainEmailsContract } from "@/lib/contracts/enrichment";
import { findDomainEmails } from "@/lib/enrichment/domain-emails";

// POST /v1/data/svc/companies/domain-emails — email addresses found for a company (priced).
export const POST = route(domainEmailsContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await findDomainEmails({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
