import { ApiError } from "@/lib/errors";
import type { ApiKeyPrincipal } from "@/lib/auth/api-keys";
import { getBalances, paymentRequired, recordUsage } from "@/lib/billing/balances";
import type { PriceRange } from "@/lib/billing/prices";
import { inputHash, readCachedResult, writeCachedResult } from "./cache";
import type { OperationName, WaterfallResult } from "./types";

/** What the providers found, as cached: everything needed to answer the same question again without them. */
export interface EngineOutput {
  merged: WaterfallResult["merged"];
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

export interface PricedCallOptions<Data> {
  principal: ApiKeyPrincipal;
  operation: OperationName;
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
  /** Runs the waterfall (sandbox providers for test keys) with at most `spendCapCents` of provider spend. */
  run: (mode: "live" | "test", spendCapCents: number) => Promise<WaterfallResult>;
  /** Applies filters and paging and prices the page, charging at most `capCents`. */
  shape: (output: EngineOutput, capCents: number) => ShapedAnswer<Data>;
}

// A type alias, not an interface: the response schema's meta is a loose object (spec §2.2 allows extra properties).
export type EnrichmentMeta = {
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

const outputOf = (result: WaterfallResult): EngineOutput => ({
  merged: result.merged,
  providersAttempted: result.providersAttempted,
  fieldsReturned: result.fieldsReturned,
  fieldsMissing: result.fieldsMissing,
});

/**
 * One priced enrichment call, the same for every operation:
 * 1. a budget below the minimum price, or a balance below it, is refused (402) before any upstream work;
 * 2. a cached answer (live keys, unless `no-cache`) is served at no cost;
 * 3. otherwise the waterfall runs with at most what the call may charge — min(budget, balance, maximum price);
 * 4. the cost is debited (subscription first) together with its ledger entry, then an answer with data is cached.
 * Test keys run the sandbox instead, never touch the cache or a balance, and still get a full `meta`.
 */
export async function runPricedCall<Data>(options: PricedCallOptions<Data>): Promise<{ data: Data; meta: EnrichmentMeta }> {
  const started = performance.now();
  const { principal, priceRange, budgetCents } = options;
  const mode = principal.mode;
  const requiredCents = options.requiredCents ?? priceRange.minCents;
  if (budgetCents !== undefined && budgetCents < requiredCents) {
    throw new ApiError("payment_required", `X-Budget-Cents (${budgetCents}) is below the ${requiredCents} cents this call needs.`);
  }
  const hash = inputHash(options.operation, options.normalizedInput);
  const useCache = mode === "live" && !options.bypassCache;

  let output = useCache ? await readCachedResult<EngineOutput>(hash) : null;
  const cached = output !== null;
  let capCents = Math.min(budgetCents ?? Number.POSITIVE_INFINITY, priceRange.maxCents);
  if (!output) {
    if (mode === "live") {
      const balances = await getBalances(principal.workspace.id);
      const available = balances.subscriptionRemainingCents + balances.purchasedBalanceCents;
      if (available < requiredCents) throw paymentRequired(requiredCents);
      capCents = Math.min(capCents, available);
    }
    output = outputOf(await options.run(mode, capCents));
  }

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
    providersAttempted: cached ? 0 : output.providersAttempted,
    records: answer.records ?? null,
  });
  // Nothing found is not worth remembering: a provider added later, or a retry, may find it.
  if (mode === "live" && !cached && output.fieldsReturned.length > 0) {
    await writeCachedResult({ key: hash, operation: options.operation, result: output, ttlSeconds: options.cacheTtlSeconds });
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
      providersAttempted: cached ? 0 : output.providersAttempted,
      fieldsReturned: output.fieldsReturned,
      fieldsMissing: output.fieldsMissing,
      ...(answer.records !== undefined && { records: answer.records }),
    },
  };
}
