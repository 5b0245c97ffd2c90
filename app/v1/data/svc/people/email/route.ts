import { route } from "@/lib/api/route";
import { personEmailContract } from "@/lib/contracts/people";
import { findPersonEmail } from "@/lib/enrichment/people-email";

// POST /v1/data/svc/people/email — a person's work email address (found-or-free).
export const POST = route(personEmailContract, async ({ auth, body, headers }) => ({
  success: true as const,
  ...(await findPersonEmail({
    principal: auth,
    request: body,
    budgetCents: headers["x-budget-cents"],
    bypassCache: /\bno-cache\b/i.test(headers["cache-control"] ?? ""),
  })),
}));
