import type { IntelligenceSignal } from "@/lib/contracts/enrichment";
import type { FieldSpec } from "@/lib/providers/provider";

// The signal names are the contract's: one definition for the API, the prices and the providers.
export type { IntelligenceSignal };

export interface IntelligenceProviderInput {
  domain: string;
  signal: IntelligenceSignal;
}

export interface FundingRound {
  type: string;
  amountUsd: number | null;
  date: string | null;
  investors: string[];
}

export interface Funding {
  totalRaisedUsd: number | null;
  lastRound: FundingRound | null;
  rounds: FundingRound[];
}

export interface Competitor {
  name: string;
  domain: string;
  /** 0–1. */
  similarity: number;
}

export interface Technology {
  name: string;
  category: string;
  /** 0–1. */
  confidence: number;
  firstDetected: string | null;
  lastDetected: string | null;
  evidence: string[];
}

/** One field per signal: `funding` (Funding), `competitors` (Competitor[]), `technographics` (Technology[]). */
export const INTELLIGENCE_FIELDS: readonly FieldSpec[] = [
  { name: "funding", kind: "scalar" },
  {
    name: "competitors",
    kind: "list",
    key: (item) => (item as Competitor).domain.toLowerCase(),
    confidence: (item) => (item as Competitor).similarity,
  },
  {
    name: "technographics",
    kind: "list",
    key: (item) => (item as Technology).name.toLowerCase(),
    confidence: (item) => (item as Technology).confidence,
  },
];
