import type { FundingRound } from "@/lib/providers/fields/intelligence";

/*
 * A company as a company-data vendor describes it, in our words and no vendor's. Adapters map their vendor's record
 * into it; operations (funding today, company enrichment and search next) read from it. Every fact is nullable: a
 * vendor that does not know something says null, and null is never guessed into a value.
 */

export interface CompanyLocation {
  locality: string | null;
  region: string | null;
  country: string | null;
}

/** Profile URLs, with a scheme. */
export interface CompanySocialProfiles {
  linkedin: string | null;
  twitter: string | null;
  facebook: string | null;
}

export interface CompanyFundingSummary {
  totalRaisedUsd: number | null;
  /** The most recent round's type, e.g. "series_b". */
  latestStage: string | null;
  /** The most recent round's date, "YYYY-MM-DD". */
  lastRoundDate: string | null;
  roundCount: number | null;
  /** Oldest first; as detailed as the vendor is (a round may carry only its type). */
  rounds: FundingRound[];
}

export interface CompanyProfile {
  name: string | null;
  /** The company's main website domain, lower-case, without "www.". */
  domain: string | null;
  description: string | null;
  industry: string | null;
  /** An employee-count bracket, e.g. "51-200". */
  sizeRange: string | null;
  employeeCount: number | null;
  /** Year founded. */
  founded: number | null;
  location: CompanyLocation;
  socialProfiles: CompanySocialProfiles;
  tags: string[];
  funding: CompanyFundingSummary;
  /** 0–1: how sure the vendor is that this record is the company asked about. */
  matchConfidence: number;
}
