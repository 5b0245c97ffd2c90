import { route } from "@/lib/api/route";
import { companyDiscoverContract } from "@/lib/contracts/companies";
import { discoverCompanies } from "@/lib/enrichment/company-discover";

// POST /v1/data/svc/companies/discover — lookalikes of a company or companies matching filters, paged (priced per company).
export const POST = route(companyDiscoverContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await discoverCompanies({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
