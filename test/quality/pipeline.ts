import type { OutboundClient } from "@/lib/outbound/types";
import { detectSiteTechnologies } from "@/lib/providers/first-party/technographics/detect-technologies";
import { crawlCompanySite, type SiteCrawl } from "@/lib/providers/first-party/website/crawl-site";
import { collectSiteEmails } from "@/lib/providers/first-party/website/site-emails";
import type { SiteAnswer } from "./score";

/*
 * The product's own pipeline for a domain-emails call without vendors, and its technology detection, run on one
 * site: the calls lib/providers/first-party/company-snapshot.ts makes, nothing of the extractors' insides.
 */

/** The crawl budget the app gives a company visit. */
const MAX_PAGES = 12;

export interface PipelineRun {
  answer: SiteAnswer;
  /** URLs of the pages the crawl kept, home page first. */
  pages: string[];
}

/** Technologies as company-snapshot.ts detects them from a visit: every crawled page (the corpus has no DNS). */
function detectCrawlTechnologies(crawl: SiteCrawl): string[] {
  return detectSiteTechnologies(crawl.pages).map((technology) => technology.name);
}

export async function runPipeline(host: string, options: { http: OutboundClient; now: Date }): Promise<PipelineRun> {
  const crawl = await crawlCompanySite(host, { http: options.http, maxPages: MAX_PAGES });
  const siteEmails = collectSiteEmails(crawl, { domainHasMx: true, now: options.now });
  return {
    answer: {
      emails: siteEmails.emails,
      pattern: siteEmails.pattern?.pattern ?? null,
      technologies: detectCrawlTechnologies(crawl),
    },
    pages: crawl.pages.map((page) => page.url),
  };
}
