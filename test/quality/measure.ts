import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { startCompanySites } from "@/test/fakes/company-sites";
import { runPipeline } from "./pipeline";
import { scoreSite, totalScore, type SiteAnswer, type SiteScore, type TotalScore } from "./score";
import { loadTruths, TRUTH_DIR } from "./truth";

/*
 * The enrichment quality measurement: every corpus site (test/quality/truth/*.json) served by the fake company sites
 * on loopback, run through the product's pipeline, scored against its truth. `npm run quality` prints it; a test can
 * call `measureQuality()` and assert targets on the totals.
 */

export interface SiteReport extends SiteScore {
  /** Paths (or URLs, off the site's origin) of the pages crawled, home page first. */
  pages: string[];
  /** Set when the pipeline threw for this site; the site then counts as answering nothing. */
  error: string | null;
}

export interface QualityReport {
  sites: SiteReport[];
  totals: TotalScore;
}

export interface MeasureOptions {
  /** Only these hosts; default every truth file. */
  hosts?: readonly string[];
  /** The truth files' folder: the development corpus (default) or the held-out one. */
  truthDir?: string;
}

/** Pages dated as if collected at one fixed moment, so runs compare. */
const NOW = new Date("2025-06-03T10:20:30Z");
const NOTHING: SiteAnswer = { emails: [], pattern: null, technologies: [] };

/** A loopback port nothing listens on, so https:// fails at once, as on a site without TLS. */
async function closedPort(): Promise<number> {
  const probe = await startCompanySites();
  await probe.close();
  return probe.port;
}

/** The message and the frame that threw, enough to find the bug from the report. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const frame = error.stack?.split("\n").find((line) => line.trim().startsWith("at "));
  return frame === undefined ? String(error) : `${String(error)} (${frame.trim()})`;
}

/** A page on the site's host or its www. twin as its path; anything else as the full URL. */
function shortPage(url: string, host: string): string {
  const parsed = new URL(url);
  return parsed.hostname === host || parsed.hostname === `www.${host}` ? `${parsed.pathname}${parsed.search}` : url;
}

export async function measureQuality(options: MeasureOptions = {}): Promise<QualityReport> {
  const truthDir = options.truthDir ?? TRUTH_DIR;
  const truths = (await loadTruths(truthDir)).filter((truth) => options.hosts?.includes(truth.host) ?? true);
  const unknown = options.hosts?.filter((host) => !truths.some((truth) => truth.host === host)) ?? [];
  if (unknown.length > 0) throw new Error(`no truth file for ${unknown.join(", ")} in ${truthDir}`);

  const sites = await startCompanySites();
  try {
    const http = createOutboundClient({
      allowLoopback: true,
      portOverrides: { http: sites.port, https: await closedPort() },
      resolver: async () => ["127.0.0.1"],
    });
    const reports: SiteReport[] = [];
    // One site at a time: the crawl has its own concurrency, and the machine is small.
    for (const truth of truths) {
      try {
        const run = await runPipeline(truth.host, { http, now: NOW });
        reports.push({
          ...scoreSite(truth, run.answer),
          pages: run.pages.map((url) => shortPage(url, truth.host)),
          error: null,
        });
      } catch (error) {
        reports.push({ ...scoreSite(truth, NOTHING), pages: [], error: describeError(error) });
      }
    }
    return { sites: reports, totals: totalScore(reports) };
  } finally {
    await sites.close();
  }
}
