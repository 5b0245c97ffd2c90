import { route } from "@/lib/api/route";
import { intelligenceContract } from "@/lib/contracts/enrichment";
import { getCompanyIntelligence } from "@/lib/enrichment/intelligence";

// POST /v1/data/svc/companies/intelligence — one signal about a company (flat-priced).
export const POST = route(intelligenceContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await getCompanyIntelligence({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
