import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { ApiError } from "@/lib/errors";
import { inputHash, readCachedResult, writeCachedResult } from "./answer-cache";
import { getBalances, paymentRequired, recordUsage } from "./balances";
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

/**
 * One priced call, the same for every priced operation (enrichment and video details): the one place money is taken.
 * 1. a budget below what the call needs, or a balance below it, is refused (402) before any upstream work;
 * 2. a cached answer (live keys, unless `no-cache`) is served at no cost;
 * 3. otherwise the work runs with at most what the call may charge — min(budget, balance, maximum price);
 * 4. the cost is debited (subscription first) together with its ledger entry, then an answer that found something is
 *    cached.
 * Test keys never read or write the cache (it holds live answers that were paid for) and never move a balance; their
 * calls are still recorded in the ledger at what they would have cost, and still get a full `meta`.
 */
export async function runPricedCall<Output, Data>(
  options: PricedCallOptions<Output, Data>,
): Promise<{ data: Data; meta: PricedCallMeta }> {
  const started = performance.now();
  const { principal, priceRange, budgetCents } = options;
  const mode = principal.mode;
  const requiredCents = options.requiredCents ?? priceRange.minCents;
  if (budgetCents !== undefined && budgetCents < requiredCents) {
    throw new ApiError(
      "payment_required",
      `X-Budget-Cents (${budgetCents}) is below the ${requiredCents} cents this call needs.`,
    );
  }
  const hash = inputHash(options.operation, options.normalizedInput);
  const useCache = mode === "live" && !options.bypassCache;

  let output = useCache ? await readCachedResult<Output>(hash) : null;
  const cached = output !== null;
  let capCents = Math.min(budgetCents ?? Number.POSITIVE_INFINITY, priceRange.maxCents);
  if (output === null) {
    if (mode === "live") {
      const balances = await getBalances(principal.workspace.id);
      const available = balances.subscriptionRemainingCents + balances.purchasedBalanceCents;
      if (available < requiredCents) throw paymentRequired(requiredCents);
      capCents = Math.min(capCents, available);
    }
    output = await options.run(mode, capCents);
  }

  const summary = options.summarize(output);
  const providersAttempted = cached ? 0 : summary.providersAttempted;
  const answer = options.shape(output, capCents);
  const costCents = cached ? 0 : answer.costCents;
  const latencyMs = Math.round(performance.now() - started);
  const balances = await recordUsage({
    workspaceId: principal.workspace.id,
    apiKeyId: principal.apiKeyId,
    keyMode: mode,
    operation: options.operation,
    inputHash: hash,
    costCents,
    debit: mode === "live",
    cached,
    latencyMs,
    providersAttempted,
    records: answer.records ?? null,
  });
  // Nothing found is not worth remembering: a provider added later, or a retry, may find it.
  if (mode === "live" && !cached && summary.fieldsReturned.length > 0) {
    await writeCachedResult({
      key: hash,
      operation: options.operation,
      result: output,
      ttlSeconds: options.cacheTtlSeconds,
    });
  }

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
