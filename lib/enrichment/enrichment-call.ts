import { type PricedCallOptions, runPricedCall } from "@/lib/billing/priced-call";
import type { OperationName } from "@/lib/providers/provider";
import type { WaterfallResult } from "./waterfall";

/** What the providers found, as cached: everything needed to answer the same question again without them. */
export interface EngineOutput {
  merged: WaterfallResult["merged"];
  providersAttempted: number;
  fieldsReturned: string[];
  fieldsMissing: string[];
}

export interface EnrichmentCallOptions<Data> extends Omit<
  PricedCallOptions<EngineOutput, Data>,
  "operation" | "run" | "summarize"
> {
  operation: OperationName;
  /** Runs the waterfall (sandbox providers for test keys) with at most `spendCapCents` of provider spend. */
  run: (mode: "live" | "test", spendCapCents: number) => Promise<WaterfallResult>;
}

/**
 * An enrichment operation as a priced call (`runPricedCall`, where the money is taken): the waterfall is the work, and
 * what it merged is what the cache keeps.
 */
export function runEnrichmentCall<Data>(options: EnrichmentCallOptions<Data>) {
  return runPricedCall<EngineOutput, Data>({
    ...options,
    run: async (mode, spendCapCents) => {
      const result = await options.run(mode, spendCapCents);
      return {
        merged: result.merged,
        providersAttempted: result.providersAttempted,
        fieldsReturned: result.fieldsReturned,
        fieldsMissing: result.fieldsMissing,
      };
    },
    summarize: (output) => output,
  });
}
