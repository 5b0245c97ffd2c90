import { route } from "@/lib/api/route";
import { companyEnrichContract } from "@/lib/contracts/companies";
import { enrichCompany } from "@/lib/enrichment/company-enrich";

// POST /v1/data/svc/companies/enrich — a company's profile from its domain (found or free).
export const POST = route(companyEnrichContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await enrichCompany({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
