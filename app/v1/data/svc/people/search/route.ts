import { route } from "@/lib/api/route";
import { peopleSearchContract } from "@/lib/contracts/people";
import { searchPeople } from "@/lib/enrichment/people-search";

// POST /v1/data/svc/people/search — people at a company, filtered and paged (priced per person).
export const POST = route(peopleSearchContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await searchPeople({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
