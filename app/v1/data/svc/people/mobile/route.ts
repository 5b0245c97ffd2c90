import { route } from "@/lib/api/route";
import { personMobileContract } from "@/lib/contracts/people";
import { findPersonPhoneNumbers } from "@/lib/enrichment/people-mobile";

// POST /v1/data/svc/people/mobile — a person's phone numbers (found-or-free).
export const POST = route(personMobileContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await findPersonPhoneNumbers({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
