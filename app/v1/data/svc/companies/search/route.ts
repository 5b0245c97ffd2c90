import { route } from "@/lib/api/route";
import { companySearchContract } from "@/lib/contracts/companies";
import { searchCompanies } from "@/lib/enrichment/company-search";

// POST /v1/data/svc/companies/search — companies by name or keywords, paged (priced per company).
export const POST = route(companySearchContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await searchCompanies({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
