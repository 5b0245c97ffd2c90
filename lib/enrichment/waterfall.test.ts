import { describe, expect, it } from "vitest";
import {
  DOMAIN_EMAIL_FIELDS,
  type DomainEmailsProviderInput,
  type EmailRecord,
} from "@/lib/providers/fields/domain-emails";
import { INTELLIGENCE_FIELDS, type Funding, type IntelligenceProviderInput } from "@/lib/providers/fields/intelligence";
import type { EnrichmentProvider, FieldValue, OperationName, ProviderFields } from "@/lib/providers/provider";
import { runWaterfall, type WaterfallOptions } from "./waterfall";

interface FakeProvider<Input> extends EnrichmentProvider<Input> {
  calls: number;
  signals: AbortSignal[];
}

/**
 * A provider that goes through the real interface. `answer` is what it resolves with, or a function called with its
 * signal that may throw, reject, hang or return anything at all.
 */
function fake<Input = DomainEmailsProviderInput>(
  id: string,
  supplies: string[],
  answer: unknown,
  extra: { costCents?: number; timeoutMs?: number; log?: string[]; operation?: OperationName } = {},
): FakeProvider<Input> {
  const provider: FakeProvider<Input> = {
    id,
    operation: extra.operation ?? "companies_domain_emails",
    supplies,
    costCents: extra.costCents ?? 0,
    timeoutMs: extra.timeoutMs,
    calls: 0,
    signals: [],
    enrich(_input, { signal }) {
      provider.calls += 1;
      provider.signals.push(signal);
      extra.log?.push(id);
      return (typeof answer === "function" ? answer(signal) : Promise.resolve(answer)) as Promise<ProviderFields>;
    },
  };
  return provider;
}

const fv = <T>(value: T, confidence: number): FieldValue<T> => ({ value, confidence });

function email(value: string, confidence: number, extra: Partial<EmailRecord> = {}): EmailRecord {
  return {
    value,
    type: "personal",
    confidence,
    firstName: "Jane",
    lastName: "Doe",
    position: "Head of Growth",
    seniority: "senior",
    department: "marketing",
    linkedin: null,
    twitter: null,
    phoneNumber: null,
    sources: [{ uri: "https://acme.com/team", extractedOn: "2026-10-02" }],
    verification: { date: "2026-11-01", status: "valid" },
    ...extra,
  };
}

const emailsOf = (merged: ProviderFields) => (merged.emails?.value ?? []) as EmailRecord[];

/** A domain-emails call wanting `pattern`, `organization` and two emails, with a generous budget. */
function run(
  providers: EnrichmentProvider<DomainEmailsProviderInput>[],
  overrides: Partial<WaterfallOptions<DomainEmailsProviderInput>> = {},
) {
  return runWaterfall({
    providers,
    input: { domain: "acme.com", wanted: 2 },
    fields: DOMAIN_EMAIL_FIELDS,
    requested: ["pattern", "organization", "emails"],
    isComplete: (merged) =>
      merged.pattern !== undefined && merged.organization !== undefined && emailsOf(merged).length >= 2,
    budgetCents: 1_000,
    ...overrides,
  });
}

const hang = () => new Promise(() => {});

describe("runWaterfall", () => {
  it("calls providers in order and stops as soon as the call is complete", async () => {
    const log: string[] = [];
    const first = fake("first", ["pattern"], { pattern: fv("{first}.{last}", 0.9) }, { log });
    const second = fake(
      "second",
      ["organization", "emails"],
      { organization: fv("Acme", 0.8), emails: fv([email("jane@acme.com", 90)], 0.9) },
      { log },
    );
    const third = fake("third", ["emails"], { emails: fv([email("john@acme.com", 80)], 0.8) }, { log });
    const fourth = fake(
      "fourth",
      ["emails", "organization"],
      { emails: fv([email("ops@acme.com", 70)], 0.7) },
      { log },
    );

    const result = await run([first, second, third, fourth]);

    expect(log).toEqual(["first", "second", "third"]);
    expect(fourth.calls).toBe(0);
    expect(result).toMatchObject({ stoppedBecause: "complete", providersAttempted: 3, providersFailed: 0 });
    expect(emailsOf(result.merged).map((e) => e.value)).toEqual(["jane@acme.com", "john@acme.com"]);
  });

  it("reports complete when the last provider completes the call", async () => {
    const only = fake("only", ["pattern", "organization", "emails"], {
      pattern: fv("{first}", 0.9),
      organization: fv("Acme", 0.9),
      emails: fv([email("jane@acme.com", 90), email("john@acme.com", 90)], 0.9),
    });
    expect((await run([only])).stoppedBecause).toBe("complete");
  });

  it("skips, without charging, a provider that supplies nothing still missing, but never one that supplies a list", async () => {
    const first = fake(
      "first",
      ["pattern", "organization"],
      { pattern: fv("{first}", 0.9), organization: fv("Acme", 0.9) },
      {
        costCents: 10,
      },
    );
    const patternOnly = fake("pattern-only", ["pattern", "domain"], { pattern: fv("{last}", 1) }, { costCents: 100 });
    const unrequested = fake("unrequested", ["webmail"], { webmail: fv(false, 1) }, { costCents: 100 });
    const emails = fake(
      "emails",
      ["emails", "organization"],
      { emails: fv([email("jane@acme.com", 90)], 0.9) },
      { costCents: 5 },
    );
    const moreEmails = fake(
      "more-emails",
      ["emails"],
      { emails: fv([email("john@acme.com", 80)], 0.8) },
      { costCents: 5 },
    );

    const result = await run([first, patternOnly, unrequested, emails, moreEmails], { budgetCents: 25 });

    expect([patternOnly.calls, unrequested.calls, emails.calls, moreEmails.calls]).toEqual([0, 0, 1, 1]);
    expect(result).toMatchObject({ stoppedBecause: "complete", providersAttempted: 3, spentCents: 20 });
    expect(result.merged.pattern).toEqual(fv("{first}", 0.9));
  });

  it("keeps the scalar with the higher confidence, the first one on a tie, and never lets null replace a value", async () => {
    const round = { type: "Series A", amountUsd: 12_000_000, date: "2025-03-01", investors: ["Initialized"] };
    const low: Funding = { totalRaisedUsd: 12_000_000, lastRound: round, rounds: [round] };
    const high: Funding = { totalRaisedUsd: 15_000_000, lastRound: round, rounds: [round] };
    const tied: Funding = { totalRaisedUsd: 99_000_000, lastRound: null, rounds: [] };
    // Each also supplies the requested list `competitors`, which stays missing, so none is skipped.
    const providers = [fv(low, 0.4), fv(high, 0.8), fv(tied, 0.8), fv(null, 1), fv(low, 0.5)].map((funding, index) =>
      fake<IntelligenceProviderInput>(
        `p${index}`,
        ["funding", "competitors"],
        { funding },
        { operation: "companies_intelligence" },
      ),
    );

    const result = await runWaterfall({
      providers,
      input: { domain: "acme.com", signal: "funding" },
      fields: INTELLIGENCE_FIELDS,
      requested: ["funding", "competitors"],
      isComplete: () => false,
      budgetCents: 0,
    });

    expect(providers.map((p) => p.calls)).toEqual([1, 1, 1, 1, 1]);
    expect(result.merged).toEqual({ funding: fv(high, 0.8) });
  });

  it("unions list items by key, the more confident duplicate winning, and keeps the highest list confidence", async () => {
    const janeFromSite = email("Jane.Doe@Acme.com", 60, {
      sources: [{ uri: "https://acme.com/about", extractedOn: "2026-09-01" }],
    });
    const janeVerified = email("jane.doe@acme.com", 95);
    const johnGuessed = email("john.roe@acme.com", 70, { firstName: "John", lastName: "Roe" });
    const johnWeaker = email("JOHN.ROE@ACME.COM", 40, { firstName: "John", lastName: "Roe" });
    const ops = email("ops@acme.com", 50, {
      type: "generic",
      firstName: null,
      lastName: null,
      position: null,
      seniority: null,
      department: null,
    });

    const result = await run(
      [
        fake("site", ["emails"], { emails: fv([janeFromSite, johnGuessed], 0.6) }),
        fake("vendor", ["emails"], { emails: fv([johnWeaker, janeVerified, ops], 0.9) }),
        fake("other", ["emails"], { emails: fv([ops], 0.5) }),
      ],
      { requested: ["emails"], isComplete: () => false },
    );

    expect(result.stoppedBecause).toBe("exhausted");
    expect(emailsOf(result.merged)).toEqual([janeVerified, johnGuessed, ops]);
    expect(result.merged.emails?.confidence).toBe(0.9);
  });

  it("stops before a call that would exceed the budget, allows an exact fit and counts failed calls as spent", async () => {
    const first = fake("first", ["emails"], { emails: fv([email("jane@acme.com", 90)], 0.9) }, { costCents: 30 });
    const failing = fake("failing", ["emails"], () => Promise.reject(new Error("upstream 500")), { costCents: 50 });
    const overBudget = fake(
      "over-budget",
      ["emails"],
      { emails: fv([email("john@acme.com", 90)], 0.9) },
      { costCents: 20 },
    );
    const free = fake("free", ["emails"], { emails: fv([email("ops@acme.com", 90)], 0.9) }, { costCents: 0 });

    const result = await run([first, failing, overBudget, free], { budgetCents: 80 });

    expect([first.calls, failing.calls, overBudget.calls, free.calls]).toEqual([1, 1, 0, 0]);
    expect(result).toMatchObject({
      stoppedBecause: "budget",
      spentCents: 80,
      providersAttempted: 2,
      providersFailed: 1,
    });
  });

  it("counts a provider that throws or rejects as failed and carries on", async () => {
    const throws = fake("throws", ["pattern"], () => {
      throw new Error("bad config");
    });
    const rejects = fake("rejects", ["pattern"], () => Promise.reject(new TypeError("fetch failed")));
    const works = fake("works", ["pattern"], { pattern: fv("{first}.{last}", 0.7) });

    const result = await run([throws, rejects, works], {
      requested: ["pattern"],
      isComplete: (m) => m.pattern !== undefined,
    });

    expect(result).toMatchObject({ stoppedBecause: "complete", providersAttempted: 3, providersFailed: 2 });
    expect(result.merged).toEqual({ pattern: fv("{first}.{last}", 0.7) });
  });

  it("gives up on a provider that ignores its signal once its timeout passes, aborting that signal", async () => {
    const stuck = fake("stuck", ["pattern"], hang, { timeoutMs: 50 });
    const works = fake("works", ["pattern"], { pattern: fv("{first}", 0.7) }, { timeoutMs: 50 });

    const result = await run([stuck, works], { requested: ["pattern"], isComplete: (m) => m.pattern !== undefined });

    expect(result).toMatchObject({ stoppedBecause: "complete", providersAttempted: 2, providersFailed: 1 });
    expect(stuck.signals[0]?.aborted).toBe(true);
    expect(stuck.signals[0]?.reason).toMatchObject({ name: "TimeoutError" });
    expect(works.signals[0]?.aborted).toBe(false);
  });

  it("rejects with the caller's reason when the caller aborts, aborting the provider and starting no other", async () => {
    const controller = new AbortController();
    const stuck = fake("stuck", ["pattern"], () => {
      queueMicrotask(() => controller.abort(new Error("client went away")));
      return hang();
    });
    const next = fake("next", ["pattern"], { pattern: fv("{first}", 0.7) });

    await expect(run([stuck, next], { signal: controller.signal })).rejects.toThrow("client went away");
    expect(stuck.signals[0]?.aborted).toBe(true);
    expect(next.calls).toBe(0);

    const notStarted = fake("not-started", ["pattern"], { pattern: fv("{first}", 0.7) });
    await expect(run([notStarted], { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(notStarted.calls).toBe(0);
  });

  it("ignores malformed answers without failing the call", async () => {
    const goodJane = email("jane@acme.com", 90);
    const garbage = [
      null,
      "pattern: {first}",
      42,
      [fv("{first}", 1)],
      { pattern: "{first}" },
      {
        pattern: fv("{first}", 1.5),
        organization: fv("Acme", Number.NaN),
        acceptAll: { value: true, confidence: "0.9" },
      },
      { pattern: { value: "{first}" }, organization: null, domain: fv(undefined, 0.9) },
      { emails: fv("jane@acme.com", 0.9), employees: fv([1, 2], 0.9) },
      { emails: fv([null, 7, { type: "personal" }, email("ops@acme.com", 500), goodJane], 0.9) },
      { emails: fv([{ value: 7, confidence: 90 }], 1) },
    ].map((answer, index) =>
      fake(`garbage-${index}`, ["pattern", "organization", "emails", "domain", "acceptAll"], answer),
    );

    const result = await run(garbage, { requested: ["pattern", "organization", "emails"] });

    expect(garbage.every((provider) => provider.calls === 1)).toBe(true);
    expect(result).toMatchObject({ stoppedBecause: "exhausted", providersFailed: 0, fieldsReturned: ["emails"] });
    expect(result.merged).toEqual({ emails: fv([goodJane], 0.9) });
  });

  it("keeps unrequested known fields, drops unknown ones and lists returned and missing fields in requested order", async () => {
    const provider = fake("one", ["emails", "pattern", "domain"], {
      emails: fv([email("jane@acme.com", 90)], 0.9),
      domain: fv("acme.com", 1),
      secretVendorScore: fv(97, 1),
      pattern: fv("{first}", 0.6),
    });

    const result = await run([provider], {
      requested: ["organization", "emails", "headcount", "pattern", "acceptAll"],
    });

    expect(result.fieldsReturned).toEqual(["emails", "pattern"]);
    expect(result.fieldsMissing).toEqual(["organization", "headcount", "acceptAll"]);
    expect(Object.keys(result.merged).sort()).toEqual(["domain", "emails", "pattern"]);
  });

  it("ends exhausted with every requested field missing when there are no providers", async () => {
    expect(await run([])).toEqual({
      merged: {},
      providersAttempted: 0,
      providersFailed: 0,
      spentCents: 0,
      stoppedBecause: "exhausted",
      fieldsReturned: [],
      fieldsMissing: ["pattern", "organization", "emails"],
    });
  });
});
