import { type CursorScope, decodeOffsetCursor, encodeOffsetCursor } from "@/lib/cursor";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { multiRecordCost, PRICES } from "@/lib/billing/prices";
import { inputHash } from "@/lib/billing/answer-cache";
import type { ShapedAnswer } from "@/lib/billing/priced-call";

type PagedOperation = "companies_search" | "companies_discover";

/**
 * What a cursor of a ranked companies list is valid for: the workspace and key mode (a test key's sandbox list is not
 * a live key's), the operation, and the normalized request (the cache key), so a cursor never pages another list.
 */
export function rankedListScope(
  principal: ApiKeyPrincipal,
  operation: PagedOperation,
  normalizedInput: Record<string, unknown>,
): CursorScope {
  return {
    workspaceId: principal.workspace.id,
    mode: principal.mode,
    list: operation,
    input: inputHash(operation, normalizedInput),
  };
}

/** The offset a request starts at: 0, or its cursor's (400 when the cursor was altered or issued for another list). */
export function startOffset(cursor: string | undefined, scope: CursorScope): number {
  return cursor === undefined ? 0 : decodeOffsetCursor(cursor, scope);
}

/**
 * One page of a ranked list, priced as a multi-record call: base price plus one price per record, nothing when the
 * list is empty. A budget that affords fewer records than `limit` cuts the page there (the price is never raised);
 * `nextCursor` then continues right after the last record returned, so a cut page skips nothing.
 */
export function pageOfRankedList<T>(options: {
  operation: PagedOperation;
  items: readonly T[];
  offset: number;
  limit: number;
  capCents: number;
  scope: CursorScope;
}): ShapedAnswer<{ page: T[]; total: number; nextCursor: string | null }> {
  const { baseCents, perRecordCents } = PRICES[options.operation];
  const affordable = Number.isFinite(options.capCents)
    ? Math.max(0, Math.floor((options.capCents - baseCents) / perRecordCents))
    : options.limit;
  const limited = affordable < options.limit;
  const page = options.items.slice(options.offset, options.offset + Math.min(options.limit, affordable));
  const next = options.offset + page.length;
  // `null` only when nothing is left: a page a budget cut to no record at all still continues where it stood.
  const nextCursor = next < options.items.length ? encodeOffsetCursor(next, options.scope) : null;
  return {
    data: { page, total: options.items.length, nextCursor },
    costCents: multiRecordCost(options.operation, page.length),
    records: page.length,
    ...(limited && { budgetCentsPerRecord: perRecordCents }),
  };
}
