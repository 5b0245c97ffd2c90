import type { QualityReport, SiteReport } from "./measure";
import { share, type Tally, type TotalScore } from "./score";

/*
 * The quality report as text: one table row per site and a totals row, then, per site, what a developer needs to
 * fix (missed and extra addresses, wrong types, names, positions, pattern, technologies).
 */

const COLUMNS = [
  "host",
  "truth",
  "found",
  "recall",
  "precision",
  "role→personal",
  "names",
  "positions",
  "pattern",
  "tech recall",
  "tech precision",
  "pages",
] as const;

function decimal(tally: Tally): string {
  const value = share(tally);
  return value === null ? "-" : value.toFixed(2);
}

function fraction(tally: Tally): string {
  return tally.of === 0 ? "-" : `${tally.hits}/${tally.of}`;
}

function patternCell({ expected, returned }: SiteReport["pattern"]): string {
  if (expected === null) return returned === null ? "-" : "unexpected";
  return returned === expected ? "ok" : "wrong";
}

function siteRow(site: SiteReport): string[] {
  return [
    site.host,
    String(site.recall.of),
    String(site.recall.hits),
    decimal(site.recall),
    decimal(site.precision),
    String(site.roleTypedPersonal.length),
    fraction(site.names),
    fraction(site.positions),
    patternCell(site.pattern),
    decimal(site.technologyRecall),
    decimal(site.technologyPrecision),
    site.error === null ? String(site.pages.length) : "error",
  ];
}

function totalsRow(totals: TotalScore, pages: number): string[] {
  return [
    `total (${totals.sites} sites)`,
    String(totals.recall.of),
    String(totals.recall.hits),
    decimal(totals.recall),
    decimal(totals.precision),
    String(totals.roleTypedPersonal),
    fraction(totals.names),
    fraction(totals.positions),
    fraction(totals.pattern),
    decimal(totals.technologyRecall),
    decimal(totals.technologyPrecision),
    String(pages),
  ];
}

function table(rows: readonly string[][]): string {
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ");
  const [header, ...body] = rows;
  return [line(header!), widths.map((width) => "-".repeat(width)).join("  "), ...body.map(line)].join("\n");
}

/** What to fix on one site; empty when the site scored perfectly. */
function siteFindings(site: SiteReport): string[] {
  const findings: string[] = [];
  const list = (label: string, items: readonly string[]) => {
    if (items.length > 0) findings.push(`  ${label}: ${items.join(", ")}`);
  };
  if (site.error !== null) findings.push(`  error: ${site.error}`);
  list("missed", site.missed);
  list("extra", site.extra);
  list("role mailboxes typed personal", site.roleTypedPersonal);
  list(
    "names",
    site.nameMismatches.map((miss) => `${miss.address} "${miss.returned ?? "none"}" (truth "${miss.expected}")`),
  );
  list(
    "positions",
    site.positionMismatches.map((miss) => `${miss.address} "${miss.returned ?? "none"}" (truth "${miss.expected}")`),
  );
  const { expected, returned } = site.pattern;
  if (expected !== returned) findings.push(`  pattern: returned ${returned ?? "none"} (truth ${expected ?? "none"})`);
  list("technologies missed", site.missedTechnologies);
  list("technologies extra", site.extraTechnologies);
  return findings.length === 0 ? [] : [`${site.host}  (pages: ${site.pages.join(" ") || "none"})`, ...findings];
}

export function formatReport(report: QualityReport): string {
  const pages = report.sites.reduce((total, site) => total + site.pages.length, 0);
  const rows = [[...COLUMNS], ...report.sites.map(siteRow), totalsRow(report.totals, pages)];
  const { totals } = report;
  const summary = [
    `recall ${decimal(totals.recall)} (${fraction(totals.recall)})`,
    `precision ${decimal(totals.precision)} (${fraction(totals.precision)})`,
    `role mailboxes typed personal ${totals.roleTypedPersonal}`,
    `names ${decimal(totals.names)} (${fraction(totals.names)})`,
    `positions ${decimal(totals.positions)} (${fraction(totals.positions)})`,
    `pattern ${decimal(totals.pattern)} (${fraction(totals.pattern)}), returned where none is shown on ${totals.unexpectedPatterns} sites`,
    `technologies recall ${decimal(totals.technologyRecall)} (${fraction(totals.technologyRecall)}), precision ${decimal(totals.technologyPrecision)} (${fraction(totals.technologyPrecision)})`,
  ];
  const findings = report.sites.flatMap(siteFindings);
  return [
    table(rows),
    "",
    ...summary,
    ...(findings.length > 0 ? ["", "What to fix, per site:", ...findings] : []),
  ].join("\n");
}
