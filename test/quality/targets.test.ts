import { describe, expect, it } from "vitest";
import { measureQuality, type QualityReport } from "./measure";
import { share as scoreShare, type Tally } from "./score";

/*
 * Issue #16's targets, held on the development corpus so a change that loses addresses, invents them, types a role
 * mailbox as a person or drops names fails here, with the per-site report (`npm run quality`) saying where.
 */

/** Nothing to score counts as met. */
const share = (tally: Tally) => scoreShare(tally) ?? 1;

describe("enrichment quality on the development corpus", () => {
  let report: QualityReport;

  it("runs every site without an error", async () => {
    report = await measureQuality();
    expect(report.sites.filter((site) => site.error !== null).map((site) => [site.host, site.error])).toEqual([]);
  }, 120_000);

  it("finds at least 0.9 of the addresses, at precision 0.97, no role mailbox typed personal", () => {
    expect(share(report.totals.recall)).toBeGreaterThanOrEqual(0.9);
    expect(share(report.totals.precision)).toBeGreaterThanOrEqual(0.97);
    expect(report.totals.roleTypedPersonal).toBe(0);
  });

  it("attaches names and positions to at least 0.9 of the personal addresses that print them", () => {
    expect(share(report.totals.names)).toBeGreaterThanOrEqual(0.9);
    expect(share(report.totals.positions)).toBeGreaterThanOrEqual(0.9);
  });

  it("infers the pattern where the site shows one, and none where it does not", () => {
    expect(share(report.totals.pattern)).toBeGreaterThanOrEqual(0.9);
    expect(report.totals.unexpectedPatterns).toBe(0);
  });

  it("detects at least 0.9 of the technologies at precision 0.95", () => {
    expect(share(report.totals.technologyRecall)).toBeGreaterThanOrEqual(0.9);
    expect(share(report.totals.technologyPrecision)).toBeGreaterThanOrEqual(0.95);
  });
});
