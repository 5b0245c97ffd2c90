import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { ApiError } from "@/lib/errors";
import { inputHash, keepPaidAnswer, readOwnAnswer, readSharedAnswer } from "./answer-cache";
import { recordUsage } from "./balances";
import { placeHold, releaseHold } from "./holds";
import type { PriceRange, PricedOperation } from "./prices";

/** What the upstream work attempted and found: reported in `meta`, and whether an answer is worth caching. */
export interface WorkSummary {
  providersAttempted: number;
  fieldsReturned: string[];
  fieldsMissing: string[];
}

/** The answer shaped for this request, with what it costs (never more than `capCents`). */
export interface ShapedAnswer<Data> {
  data: Data;
  costCents: number;
  /** Records on the page, for multi-record operations. */
  records?: number;
  /** Price of one record, when a budget limited how many records the call returns. */
  budgetCentsPerRecord?: number;
}

export interface PricedCallOptions<Output, Data> {
  principal: ApiKeyPrincipal;
  operation: PricedOperation;
  /** The request as the cache and the ledger see it: equal inputs, equal keys. */
  normalizedInput: Record<string, unknown>;
  priceRange: PriceRange;
  /**
   * What the balance (and X-Budget-Cents) must cover before any upstream work; default `priceRange.minCents`. Lookups
   * that are free when nothing is found set it to the price of a hit, so a call is never started that could not pay.
   */
  requiredCents?: number;
  /** X-Budget-Cents, when the caller sent it. */
  budgetCents?: number;
  /** Cache-Control: no-cache. */
  bypassCache: boolean;
  cacheTtlSeconds: number;
  /**
   * Does the upstream work (test keys: the sandbox, where the operation has one) with at most `spendCapCents` of
   * provider spend, and returns what is cached: everything needed to answer the same question again without upstream.
   * Throwing charges nothing and caches nothing.
   */
  run: (mode: "live" | "test", spendCapCents: number) => Promise<Output>;
  summarize: (output: Output) => WorkSummary;
  /** Applies filters and paging and prices the page, charging at most `capCents`. */
  shape: (output: Output, capCents: number) => ShapedAnswer<Data>;
}

// A type alias, not an interface: the response schema's meta is a loose object (spec §2.2 allows extra properties).
export type PricedCallMeta = {
  costCents: number;
  purchasedBalanceCents: number;
  subscriptionRemainingCents: number;
  cached: boolean;
  latencyMs: number;
  priceRange: PriceRange;
  budgetCents?: number;
  budgetCentsPerRecord?: number;
  providersAttempted: number;
  fieldsReturned: string[];
  fieldsMissing: string[];
  records?: number;
};

interface CallContext {
  /** `performance.now()` when the call began, for `meta.latencyMs`. */
  started: number;
  /** The cache key and the ledger's input hash. */
  hash: string;
}

/** How a call was answered, for its price, its ledger entry and its meta. */
interface Answered<Output> {
  output: Output;
  /** The workspace's own paid answer, repeated free. */
  cached: boolean;
  /** What the call may charge (the hold, for a live call that pays). */
  capCents: number;
  /** Live calls that pay: the hold the usage entry settles. */
  holdId?: string;
}

/**
 * One priced call, the same for every priced operation (enrichment and video details): the one place money is taken.
 * 1. a budget below what the call needs is refused (402) before anything else;
 * 2. live keys: the workspace's own paid answer to the same question (unless `no-cache`) is repeated free;
 * 3. otherwise what the call may charge — min(budget, maximum price, what the balance can still hold), at least what
 *    it needs, else 402 — is held (holds.ts) before any upstream work, and is the work's spending cap;
 * 4. another workspace's paid answer is a source like any provider; else the work runs;
 * 5. the cost is captured from the hold (subscription first) with its ledger entry in one statement, the rest released;
 *    nothing is charged when no source could be attempted; an answer that found something is kept for the workspace.
 * Test keys never read or write the cache (it holds live answers that were paid for), never hold and never move a
 * balance; their calls are still recorded in the ledger at what they would have cost, and still get a full `meta`.
 */
export async function runPricedCall<Output, Data>(
  options: PricedCallOptions<Output, Data>,
): Promise<{ data: Data; meta: PricedCallMeta }> {
  const started = performance.now();
  const { principal, priceRange, budgetCents } = options;
  const requiredCents = options.requiredCents ?? priceRange.minCents;
  if (budgetCents !== undefined && budgetCents < requiredCents) {
    throw new ApiError(
      "payment_required",
      `X-Budget-Cents (${budgetCents}) is below the ${requiredCents} cents this call needs.`,
    );
  }
  const call: CallContext = { started, hash: inputHash(options.operation, options.normalizedInput) };
  const callCapCents = Math.min(budgetCents ?? Number.POSITIVE_INFINITY, priceRange.maxCents);
  if (principal.mode === "test") {
    const output = await options.run("test", callCapCents);
    return settle(options, call, { output, cached: false, capCents: callCapCents });
  }

  const workspaceId = principal.workspace.id;
  const own = options.bypassCache ? null : await readOwnAnswer<Output>(workspaceId, call.hash);
  if (own !== null) return settle(options, call, { output: own, cached: true, capCents: callCapCents });

  const hold = await placeHold({
    workspaceId,
    apiKeyId: principal.apiKeyId,
    operation: options.operation,
    wantedCents: callCapCents,
    requiredCents,
  });
  let settled = false;
  try {
    const shared = options.bypassCache
      ? null
      : await readSharedAnswer<Output>(workspaceId, call.hash, options.cacheTtlSeconds);
    const output = shared ? shared.result : await options.run("live", hold.amountCents);
    const answer = await settle(options, call, { output, cached: false, capCents: hold.amountCents, holdId: hold.id });
    settled = true;
    // Nothing found is not worth remembering: a provider added later, or a retry, may find it.
    if (answer.meta.fieldsReturned.length > 0) {
      await keepPaidAnswer({
        workspaceId,
        key: call.hash,
        operation: options.operation,
        result: output,
        answeredAt: shared?.answeredAt ?? new Date(),
        ttlSeconds: options.cacheTtlSeconds,
      });
    }
    return answer;
  } finally {
    // The usage entry settles the hold; a call that failed before writing it gives the hold back.
    if (!settled) await releaseHold(workspaceId, hold.id);
  }
}

/** Prices the answer, writes its usage entry (settling the hold) and builds `meta`. */
async function settle<Output, Data>(
  options: PricedCallOptions<Output, Data>,
  call: CallContext,
  answered: Answered<Output>,
): Promise<{ data: Data; meta: PricedCallMeta }> {
  const { principal, priceRange, budgetCents } = options;
  const { output, cached, capCents } = answered;
  const summary = options.summarize(output);
  const providersAttempted = cached ? 0 : summary.providersAttempted;
  const answer = options.shape(output, capCents);
  // A repeat of the workspace's own answer is free, and so is a call for which no source could be attempted.
  const costCents = cached || providersAttempted === 0 ? 0 : answer.costCents;
  const latencyMs = Math.round(performance.now() - call.started);
  const balances = await recordUsage({
    workspaceId: principal.workspace.id,
    apiKeyId: principal.apiKeyId,
    keyMode: principal.mode,
    operation: options.operation,
    inputHash: call.hash,
    costCents,
    debit: principal.mode === "live",
    cached,
    latencyMs,
    providersAttempted,
    records: answer.records ?? null,
    holdId: answered.holdId,
  });
  return {
    data: answer.data,
    meta: {
      costCents,
      purchasedBalanceCents: balances.purchasedBalanceCents,
      subscriptionRemainingCents: balances.subscriptionRemainingCents,
      cached,
      latencyMs,
      priceRange,
      ...(budgetCents !== undefined && { budgetCents }),
      ...(answer.budgetCentsPerRecord !== undefined && { budgetCentsPerRecord: answer.budgetCentsPerRecord }),
      providersAttempted,
      fieldsReturned: summary.fieldsReturned,
      fieldsMissing: summary.fieldsMissing,
      ...(answer.records !== undefined && { records: answer.records }),
    },
  };
}
