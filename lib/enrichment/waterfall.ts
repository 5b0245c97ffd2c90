import type { EnrichmentProvider, FieldSpec, FieldValue, ProviderFields } from "@/lib/providers/provider";

export interface WaterfallOptions<Input> {
  providers: readonly EnrichmentProvider<Input>[];
  input: Input;
  fields: readonly FieldSpec[];
  /** Fields the caller wants; the waterfall stops once `isComplete` says they are all there. */
  requested: readonly string[];
  /** Whether the merged result already answers the call (e.g. scalars present and enough list items). */
  isComplete: (merged: ProviderFields) => boolean;
  /** Provider spend allowed for this call, in cents. */
  budgetCents: number;
  signal?: AbortSignal;
}

export interface WaterfallResult {
  merged: ProviderFields;
  /** Providers that were called (including those that failed or timed out). */
  providersAttempted: number;
  providersFailed: number;
  spentCents: number;
  /** Why it stopped: all requested fields found, the next call would exceed the budget, or no providers left. */
  stoppedBecause: "complete" | "budget" | "exhausted";
  fieldsReturned: string[];
  fieldsMissing: string[];
}

const DEFAULT_TIMEOUT_MS = 10_000;

type ListSpec = Extract<FieldSpec, { kind: "list" }>;
interface ScoredItem {
  key: string;
  item: unknown;
  confidence: number;
}

/**
 * Runs providers in order, merging what each returns, until the call is complete, the next call would exceed the
 * budget, or the list ends. Provider failures, timeouts and malformed answers never fail the call; an abort of
 * `options.signal` does (it rejects with the signal's reason), so no paid call starts after the request went away.
 */
export async function runWaterfall<Input>(options: WaterfallOptions<Input>): Promise<WaterfallResult> {
  const { providers, input, fields, requested, isComplete, budgetCents, signal } = options;
  const specs = new Map(fields.map((spec) => [spec.name, spec]));
  let merged: ProviderFields = {};
  let providersAttempted = 0;
  let providersFailed = 0;
  let spentCents = 0;

  // `merged` only ever holds non-null scalars and non-empty lists, so presence is `!== undefined`.
  const finish = (stoppedBecause: WaterfallResult["stoppedBecause"]): WaterfallResult => ({
    merged,
    providersAttempted,
    providersFailed,
    spentCents,
    stoppedBecause,
    fieldsReturned: requested.filter((name) => merged[name] !== undefined),
    fieldsMissing: requested.filter((name) => merged[name] === undefined),
  });

  signal?.throwIfAborted();
  for (const provider of providers) {
    if (isComplete(merged)) return finish("complete");

    // A list can always take more items, so it stays missing until the call is complete.
    const missing = requested.filter((name) => {
      const spec = specs.get(name);
      return spec !== undefined && (spec.kind === "list" || merged[name] === undefined);
    });
    if (!provider.supplies.some((name) => missing.includes(name))) continue;

    // Order is priority: a cheaper provider further down is a worse source, so the budget ends the waterfall
    // rather than sending it looking for whatever still fits.
    if (spentCents + provider.costCents > budgetCents) return finish("budget");

    providersAttempted += 1;
    spentCents += provider.costCents; // we pay upstream as soon as the call starts, whatever its outcome
    try {
      merged = mergeFields(fields, merged, await callProvider(provider, input, signal));
    } catch {
      providersFailed += 1;
    }
    signal?.throwIfAborted();
  }
  return finish(isComplete(merged) ? "complete" : "exhausted");
}

/**
 * Returns a new object holding `into` with `from` merged in, field by field, keeping only the fields in `fields`.
 * Scalars: the higher confidence wins, the earlier value on a tie; null and undefined never replace anything.
 * Lists: the union de-duplicated by `spec.key`, the item with the higher `spec.confidence` winning a key; the
 * list's confidence is the highest seen. Anything malformed in either argument is ignored.
 */
function mergeFields(fields: readonly FieldSpec[], into: ProviderFields, from: unknown): ProviderFields {
  const source = typeof from === "object" && from !== null ? (from as Record<string, unknown>) : {};
  const result: ProviderFields = {};
  for (const spec of fields) {
    const value =
      spec.kind === "scalar"
        ? mergeScalar(asFieldValue(into[spec.name]), asFieldValue(source[spec.name]))
        : mergeList(spec, [into[spec.name], source[spec.name]]);
    if (value !== undefined) result[spec.name] = value;
  }
  return result;
}

/** The provider's answer, or a rejection once its time is up or `external` aborts, even if it ignores its signal. */
async function callProvider<Input>(
  provider: EnrichmentProvider<Input>,
  input: Input,
  external: AbortSignal | undefined,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(provider.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = external ? AbortSignal.any([external, timeout]) : timeout;
  const answer = provider.enrich(input, { signal });
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([answer, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function isConfidence(value: unknown): value is number {
  return typeof value === "number" && value >= 0 && value <= 1; // NaN fails both comparisons
}

/** A well-formed field value with a non-null value, copied so extra properties a provider sent are dropped. */
function asFieldValue(raw: unknown): FieldValue | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { value, confidence } = raw as Partial<FieldValue>;
  return isConfidence(confidence) && value !== null && value !== undefined ? { value, confidence } : undefined;
}

function mergeScalar(current: FieldValue | undefined, incoming: FieldValue | undefined): FieldValue | undefined {
  if (current === undefined) return incoming;
  return incoming !== undefined && incoming.confidence > current.confidence ? incoming : current;
}

function mergeList(spec: ListSpec, candidates: unknown[]): FieldValue | undefined {
  // A Map keeps first-seen order; replacing a key's item keeps its position.
  const byKey = new Map<string, ScoredItem>();
  let confidence = 0;
  for (const candidate of candidates) {
    const field = asFieldValue(candidate);
    if (field === undefined || !Array.isArray(field.value)) continue;
    const items = field.value.map((item: unknown) => scoreItem(spec, item)).filter((item) => item !== undefined);
    // A list with nothing usable in it says nothing, so its confidence does not count either.
    if (items.length === 0) continue;
    confidence = Math.max(confidence, field.confidence);
    for (const item of items) {
      const seen = byKey.get(item.key);
      if (seen === undefined || item.confidence > seen.confidence) byKey.set(item.key, item);
    }
  }
  return byKey.size === 0 ? undefined : { value: [...byKey.values()].map(({ item }) => item), confidence };
}

function scoreItem(spec: ListSpec, item: unknown): ScoredItem | undefined {
  try {
    const key = spec.key(item);
    const confidence = spec.confidence(item);
    return typeof key === "string" && isConfidence(confidence) ? { key, item, confidence } : undefined;
  } catch {
    // The specs' accessors assume well-formed items (e.g. an email without `value` throws); such an item is dropped.
    return undefined;
  }
}
