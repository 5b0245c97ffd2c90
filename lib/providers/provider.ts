/**
 * The port every data provider implements, and its vocabulary. An operation asks for fields; providers (first-party
 * collectors, vendor adapters, the test-key sandbox) each supply some of them with a confidence; the enrichment
 * waterfall (lib/enrichment/waterfall.ts) runs providers in order and merges what they return. Provider ids are
 * internal: they never appear in a response, header, error or log line a client can see.
 */

export type OperationName =
  | "companies_domain_emails"
  | "companies_intelligence"
  | "companies_enrich"
  | "companies_search"
  | "companies_discover"
  | "people_email"
  | "people_enrich"
  | "people_mobile"
  | "people_search";

/** One value a provider found, with how sure it is (0–1). */
export interface FieldValue<T = unknown> {
  value: T;
  confidence: number;
}

/** What one provider returned: some fields, each with a confidence. List fields hold arrays of items. */
export type ProviderFields = Record<string, FieldValue | undefined>;

export interface ProviderContext {
  /** Aborted when the provider's time is up or the request went away. */
  signal: AbortSignal;
}

export interface EnrichmentProvider<Input = unknown> {
  /** Internal id, e.g. "sandbox" or a vendor's name. Never leaves the server. */
  id: string;
  operation: OperationName;
  /** The fields this provider can fill; the waterfall skips it when none of them is still missing. */
  supplies: readonly string[];
  /** What one call costs us, in cents; the waterfall will not start a call that would exceed the budget. */
  costCents: number;
  /** Per-call time limit; default 10 s. */
  timeoutMs?: number;
  /** Returns what it found. Throwing (or timing out) skips the provider; the call still answers. */
  enrich(input: Input, context: ProviderContext): Promise<ProviderFields>;
}

/** How a field merges across providers. */
export type FieldSpec =
  | { name: string; kind: "scalar" }
  /** Arrays of items de-duplicated by `key`; for equal keys the item with the higher `confidence` wins. */
  | { name: string; kind: "list"; key: (item: unknown) => string; confidence: (item: unknown) => number };
