import { describe, expect, it } from "vitest";
import { guardSandboxPurity } from "@/test/sandbox-purity";
import type { Competitor, Funding, IntelligenceSignal, Technology } from "@/lib/providers/fields/intelligence";
import type { ProviderFields } from "@/lib/providers/provider";
import { sandboxIntelligenceProvider } from "./intelligence";

const context = () => ({ signal: new AbortController().signal });
const DOMAINS = Array.from({ length: 40 }, (_, index) => `company-${index}.com`);

async function signalFor(domain: string, signal: IntelligenceSignal): Promise<ProviderFields> {
  return sandboxIntelligenceProvider.enrich({ domain, signal }, context());
}

guardSandboxPurity();

describe("sandbox intelligence", () => {
  it("is free, internal and supplies every intelligence field", () => {
    expect(sandboxIntelligenceProvider).toMatchObject({
      id: "sandbox",
      operation: "companies_intelligence",
      costCents: 0,
    });
    expect([...sandboxIntelligenceProvider.supplies].sort()).toEqual(["competitors", "funding", "technographics"]);
  });

  it("returns only the requested signal's field, with full confidence", async () => {
    for (const signal of ["funding", "competitors", "technographics"] as const) {
      const fields = await signalFor("stripe.com", signal);
      expect(Object.keys(fields)).toEqual([signal]);
      expect(fields[signal]?.confidence).toBe(1);
    }
  });

  it("is deterministic per domain and differs between domains", async () => {
    for (const signal of ["funding", "competitors", "technographics"] as const) {
      expect(await signalFor("Stripe.com", signal)).toEqual(await signalFor("stripe.com", signal));
      const answers = await Promise.all(DOMAINS.map(async (domain) => JSON.stringify(await signalFor(domain, signal))));
      expect(new Set(answers).size).toBeGreaterThan(DOMAINS.length * 0.9);
    }
  });

  it("funding: chronological rounds with fake investors, a total and the last round", async () => {
    for (const domain of DOMAINS) {
      const funding = (await signalFor(domain, "funding")).funding?.value as Funding;
      expect(funding.rounds.length).toBeGreaterThanOrEqual(1);
      expect(funding.totalRaisedUsd).toBe(funding.rounds.reduce((sum, round) => sum + (round.amountUsd ?? 0), 0));
      expect(funding.lastRound).toEqual(funding.rounds.at(-1));
      const dates = funding.rounds.map((round) => round.date ?? "");
      expect(dates).toEqual([...dates].sort());
      for (const round of funding.rounds) {
        expect(round.type).toMatch(/^(seed|series_[a-c])$/);
        expect(round.date).toMatch(/^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d)$/);
        expect(round.date! < "2026-01-15").toBe(true);
        expect(round.amountUsd! % 100_000).toBe(0);
        expect(round.investors.length).toBeGreaterThanOrEqual(1);
        for (const investor of round.investors)
          expect(investor).toMatch(/^(Sandbox|Example|Placeholder|Testbed|Fixture|Mock) /);
      }
    }
  });

  it("competitors: 3 to 6 fake rivals at reserved domains, most similar first", async () => {
    for (const domain of DOMAINS) {
      const competitors = (await signalFor(domain, "competitors")).competitors?.value as Competitor[];
      expect(competitors.length).toBeGreaterThanOrEqual(3);
      expect(competitors.length).toBeLessThanOrEqual(6);
      expect(new Set(competitors.map((competitor) => competitor.domain)).size).toBe(competitors.length);
      for (const competitor of competitors) {
        const n = /^Sandbox Rival (\d+)$/.exec(competitor.name)?.[1];
        expect(competitor.domain).toBe(`rival-${n}.example`);
        expect(competitor.similarity).toBeGreaterThanOrEqual(0);
        expect(competitor.similarity).toBeLessThanOrEqual(1);
      }
      const similarities = competitors.map((competitor) => competitor.similarity);
      expect(similarities).toEqual([...similarities].sort((a, b) => b - a));
    }
  });

  it("technographics: real technology names, sandbox evidence, fixed dates", async () => {
    for (const domain of DOMAINS) {
      const technologies = (await signalFor(domain, "technographics")).technographics?.value as Technology[];
      expect(technologies.length).toBeGreaterThanOrEqual(4);
      expect(technologies.length).toBeLessThanOrEqual(10);
      expect(new Set(technologies.map((technology) => technology.name)).size).toBe(technologies.length);
      for (const technology of technologies) {
        expect(technology).toEqual({
          name: expect.any(String),
          category: expect.stringMatching(/^[a-z_]+$/),
          confidence: expect.any(Number),
          firstDetected: expect.stringMatching(/^20(19|2[0-4])-\d\d-\d\d$/),
          lastDetected: "2026-01-15",
          evidence: ["sandbox"],
        });
        expect(technology.confidence).toBeGreaterThanOrEqual(0.6);
        expect(technology.confidence).toBeLessThanOrEqual(1);
      }
    }
    const names = new Set<string>();
    for (const domain of DOMAINS)
      for (const technology of (await signalFor(domain, "technographics")).technographics?.value as Technology[])
        names.add(technology.name);
    expect(names).toContain("React");
    expect(names).toContain("Cloudflare");
  });
});
