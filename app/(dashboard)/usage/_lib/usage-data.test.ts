import { describe, expect, it } from "vitest";
import {
  busiestDay,
  describeLedgerEntry,
  fillSpendPerDay,
  operationLabel,
  remainingShare,
  totals,
  utcDay,
  type LedgerEntry,
} from "./usage-data";

const today = new Date("2025-03-10T15:00:00.000Z");

describe("fillSpendPerDay", () => {
  it("covers every day of the period, with zeros for quiet days", () => {
    const filled = fillSpendPerDay([{ day: "2025-03-08", costCents: 120, calls: 3 }], 7, today);
    expect(filled.map((entry) => entry.day)).toEqual([
      "2025-03-04",
      "2025-03-05",
      "2025-03-06",
      "2025-03-07",
      "2025-03-08",
      "2025-03-09",
      "2025-03-10",
    ]);
    expect(filled[4]).toEqual({ day: "2025-03-08", costCents: 120, calls: 3 });
    expect(filled[0]).toEqual({ day: "2025-03-04", costCents: 0, calls: 0 });
  });

  it("keeps a reported day from just before the period (the API counts back exactly N×24 h)", () => {
    const filled = fillSpendPerDay([{ day: "2025-03-03", costCents: 5, calls: 1 }], 7, today);
    expect(filled[0]).toEqual({ day: "2025-03-03", costCents: 5, calls: 1 });
    expect(filled).toHaveLength(8);
  });

  it("crosses month ends in UTC", () => {
    const filled = fillSpendPerDay([], 3, new Date("2025-03-01T00:30:00.000Z"));
    expect(filled.map((entry) => entry.day)).toEqual(["2025-02-27", "2025-02-28", "2025-03-01"]);
  });

  it("ends at a reported day later than the browser's today (a clock behind the server's)", () => {
    const filled = fillSpendPerDay([{ day: "2025-03-11", costCents: 1, calls: 1 }], 2, today);
    expect(filled.map((entry) => entry.day)).toEqual(["2025-03-10", "2025-03-11"]);
  });
});

describe("totals and busiestDay", () => {
  const spend = [
    { day: "2025-03-01", costCents: 10, calls: 2 },
    { day: "2025-03-02", costCents: 30, calls: 1 },
    { day: "2025-03-03", costCents: 0, calls: 5 },
  ];
  it("adds up cost and calls", () => {
    expect(totals(spend)).toEqual({ costCents: 40, calls: 8 });
  });
  it("finds the most expensive day, or none", () => {
    expect(busiestDay(spend)?.day).toBe("2025-03-02");
    expect(busiestDay([{ day: "2025-03-03", costCents: 0, calls: 5 }])).toBeNull();
  });
});

describe("utcDay", () => {
  it("is the UTC calendar day", () => {
    expect(utcDay(new Date("2025-03-10T23:59:59.999Z"))).toBe("2025-03-10");
  });
});

describe("operationLabel", () => {
  it("turns operation ids into words", () => {
    expect(operationLabel("companies_domain_emails")).toBe("Companies: domain emails");
    expect(operationLabel("media")).toBe("Media");
    expect(operationLabel("")).toBe("");
  });
});

describe("remainingShare", () => {
  it("is the remaining fraction, clamped", () => {
    expect(remainingShare(250, 1000)).toBe(0.25);
    expect(remainingShare(1500, 1000)).toBe(1);
    expect(remainingShare(5, 0)).toBe(0);
  });
});

describe("describeLedgerEntry", () => {
  const base: LedgerEntry = {
    id: "l1",
    kind: "usage",
    operation: "companies_intelligence",
    keyMode: "live",
    costCents: 10,
    subscriptionDeltaCents: -4,
    purchasedDeltaCents: -6,
    cached: false,
    latencyMs: 120,
    records: 1,
    note: null,
    createdAt: "2025-03-10T10:00:00.000Z",
  };
  const en = { locale: "en-US" };

  it("shows what a live call was charged", () => {
    expect(describeLedgerEntry(base, en)).toEqual({ kind: "Call", amount: "$0.10", detail: null });
  });

  it("explains free test and cached calls", () => {
    expect(
      describeLedgerEntry({ ...base, keyMode: "test", subscriptionDeltaCents: 0, purchasedDeltaCents: 0 }, en),
    ).toEqual({
      kind: "Call",
      amount: "$0.00",
      detail: "Test key: free (live price $0.10)",
    });
    expect(
      describeLedgerEntry(
        { ...base, cached: true, costCents: 0, subscriptionDeltaCents: 0, purchasedDeltaCents: 0 },
        en,
      ).detail,
    ).toMatch(/cache/);
  });

  it("signs balance changes", () => {
    const credit = {
      ...base,
      kind: "credit" as const,
      operation: null,
      keyMode: null,
      costCents: 0,
      subscriptionDeltaCents: 0,
      purchasedDeltaCents: 1000,
      note: "Top-up",
    };
    expect(describeLedgerEntry(credit, en)).toEqual({ kind: "Credit", amount: "+$10.00", detail: "Top-up" });
    const reset = {
      ...credit,
      kind: "period_reset" as const,
      subscriptionDeltaCents: 500,
      purchasedDeltaCents: 0,
      note: null,
    };
    expect(describeLedgerEntry(reset, en)).toEqual({
      kind: "New period",
      amount: "+$5.00",
      detail: "Allowance refilled",
    });
    const allowance = {
      ...credit,
      kind: "allowance" as const,
      subscriptionDeltaCents: -200,
      purchasedDeltaCents: 0,
      note: "Plan change",
    };
    expect(describeLedgerEntry(allowance, en)).toEqual({
      kind: "Allowance changed",
      amount: "-$2.00",
      detail: "Plan change",
    });
  });
});
