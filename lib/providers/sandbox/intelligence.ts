import {
  INTELLIGENCE_FIELDS,
  type Competitor,
  type Funding,
  type FundingRound,
  type IntelligenceProviderInput,
  type IntelligenceSignal,
  type Technology,
} from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider } from "@/lib/providers/provider";
import { certain, generator, normalizeDomain, SANDBOX_DATE } from "./kit";

/* What test keys get from intelligence: synthetic funding, competitors and technographics (see kit.ts). */

const ROUND_TYPES = [
  // Amounts in units of 100,000 USD, so every figure is a round number.
  { type: "seed", min: 5, max: 30 },
  { type: "series_a", min: 50, max: 150 },
  { type: "series_b", min: 150, max: 400 },
  { type: "series_c", min: 400, max: 1000 },
] as const;
const INVESTORS = [
  "Sandbox Ventures",
  "Example Capital",
  "Placeholder Partners",
  "Testbed Fund",
  "Fixture Growth",
  "Mock Angels",
] as const;
const TECHNOLOGIES = [
  { name: "React", category: "javascript_framework" },
  { name: "Next.js", category: "javascript_framework" },
  { name: "Vue.js", category: "javascript_framework" },
  { name: "Cloudflare", category: "cdn" },
  { name: "Fastly", category: "cdn" },
  { name: "Amazon Web Services", category: "hosting" },
  { name: "Vercel", category: "hosting" },
  { name: "Stripe", category: "payments" },
  { name: "Google Analytics", category: "analytics" },
  { name: "Segment", category: "analytics" },
  { name: "HubSpot", category: "marketing_automation" },
  { name: "Salesforce", category: "crm" },
  { name: "Intercom", category: "customer_support" },
  { name: "Zendesk", category: "customer_support" },
  { name: "Google Workspace", category: "email" },
  { name: "Sentry", category: "monitoring" },
  { name: "WordPress", category: "cms" },
  { name: "Shopify", category: "ecommerce" },
] as const;

function isoDate(year: number, monthIndex: number, day: number): string {
  const y = year + Math.floor(monthIndex / 12);
  const m = (monthIndex % 12) + 1;
  return `${y}-${String(m).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function sandboxFunding(domain: string): Funding {
  const random = generator("intelligence:funding", domain);
  const startYear = random.int(2014, 2019);
  let monthIndex = random.int(0, 11);
  const rounds = ROUND_TYPES.slice(0, random.int(1, ROUND_TYPES.length)).map((round, index): FundingRound => {
    if (index > 0) monthIndex += random.int(9, 20);
    return {
      type: round.type,
      amountUsd: random.int(round.min, round.max) * 100_000,
      date: isoDate(startYear, monthIndex, random.int(1, 28)),
      investors: random.shuffle(INVESTORS).slice(0, random.int(1, 3)),
    };
  });
  return {
    totalRaisedUsd: rounds.reduce((sum, round) => sum + (round.amountUsd ?? 0), 0),
    lastRound: rounds.at(-1) ?? null,
    rounds,
  };
}

function sandboxCompetitors(domain: string): Competitor[] {
  const random = generator("intelligence:competitors", domain);
  const numbers = random.shuffle(Array.from({ length: 40 }, (_, index) => index + 1)).slice(0, random.int(3, 6));
  return numbers
    .map((n) => ({ name: `Sandbox Rival ${n}`, domain: `rival-${n}.example`, similarity: random.int(40, 95) / 100 }))
    .sort((a, b) => b.similarity - a.similarity || a.domain.localeCompare(b.domain));
}

function sandboxTechnographics(domain: string): Technology[] {
  const random = generator("intelligence:technographics", domain);
  return random
    .shuffle(TECHNOLOGIES)
    .slice(0, random.int(4, 10))
    .map((technology) => ({
      name: technology.name,
      category: technology.category,
      confidence: random.int(60, 100) / 100,
      firstDetected: isoDate(random.int(2019, 2024), random.int(0, 11), random.int(1, 28)),
      lastDetected: SANDBOX_DATE,
      evidence: ["sandbox"],
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const SIGNALS: Record<IntelligenceSignal, (domain: string) => unknown> = {
  funding: sandboxFunding,
  competitors: sandboxCompetitors,
  technographics: sandboxTechnographics,
};

/** Test-key answers for intelligence: only the field of the requested signal. */
export const sandboxIntelligenceProvider: EnrichmentProvider<IntelligenceProviderInput> = {
  id: "sandbox",
  operation: "companies_intelligence",
  supplies: INTELLIGENCE_FIELDS.map((field) => field.name),
  costCents: 0,
  async enrich(input) {
    return { [input.signal]: certain(SIGNALS[input.signal](normalizeDomain(input.domain))) };
  },
};
