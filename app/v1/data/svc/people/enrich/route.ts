import { route } from "@/lib/api/route";
import { personEnrichContract } from "@/lib/contracts/people";
import { enrichPerson } from "@/lib/enrichment/people-enrich";

// POST /v1/data/svc/people/enrich — a person's profile from an email address or a LinkedIn URL (found-or-free).
export const POST = route(personEnrichContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await enrichPerson({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
