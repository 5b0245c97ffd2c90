import { getDomain } from "tldts";
import type { OutboundClient } from "@/lib/outbound/types";
import { CrawlFrontier, pageKey } from "@/lib/providers/first-party/website/crawl-frontier";
import {
  type LinkBucket,
  type LinkOrigin,
  languageOf,
  rankLink,
  type RankedLink,
} from "@/lib/providers/first-party/website/link-ranking";
import { frameSources, isFrameShell, readPageLinks } from "@/lib/providers/first-party/website/page-links";
import type { PageKind } from "@/lib/providers/first-party/website/page-kinds";
import { ByteBudget, type CrawledPage, isWithin, SiteFetcher } from "@/lib/providers/first-party/website/site-fetcher";

export type { CrawledPage } from "@/lib/providers/first-party/website/site-fetcher";

/*
 * A small, polite crawl of one company's site that reads what a person looking for addresses and people would read:
 * the home page (and, when it is only a frameset or an iframe around the real page, the pages it frames), then the
 * site's pages best first (link-ranking.ts) until the page budget is spent or nothing is left worth reading. Links
 * come from every page read and from the sitemaps, so a profile two links behind a staff list is reached. Requests go
 * through site-fetcher.ts: robots.txt honoured, redirects followed hop by hop within the registrable domain, bytes
 * bounded. Pages are fetched in rounds of CONCURRENCY and each round's results are read in the order they were
 * chosen, so the same site gives the same pages in the same order however the responses race.
 */

export interface SiteCrawl {
  domain: string;
  /** The home page's final URL; null when no home page could be read (unreachable, not HTML, or robots.txt said no). */
  homeUrl: string | null;
  /**
   * The home page first, then the pages its frames show (also of kind "home": they are its content), then the
   * others in the order they were read, best first.
   */
  pages: CrawledPage[];
}

export interface CrawlOptions {
  http: OutboundClient;
  signal?: AbortSignal;
  /** Pages kept at most, the home page included; default 12. */
  maxPages?: number;
  /** Bytes read at most over the whole crawl (robots.txt and sitemaps included); default 3 MiB. */
  maxBytes?: number;
}

const DEFAULT_MAX_PAGES = 12;
const DEFAULT_MAX_BYTES = 3 * 1024 * 1024;
/** Pages fetched at once; the outbound client also caps requests per host. */
const CONCURRENCY = 2;
/** Requests for pages that come back missing, refused or not HTML, beyond the page budget: this many per page. */
const ATTEMPTS_PER_PAGE = 2;
const SPARE_ATTEMPTS = 4;
/** Frames read as the home page's content (a frameset with a menu, a banner and a body has three). */
const MAX_FRAMES = 4;
/** Links of one page that join the frontier, its best first; a page with more is a directory or an archive. */
const MAX_LINKS_PER_PAGE = 200;
/** Sitemap entries that join the frontier, best first; sitemaps of shops and blogs list thousands. */
const MAX_SITEMAP_LINKS = 200;

/** The page kind callers see: a person's page is a team page (extractors treat team pages' own links as people's). */
function kindOf(bucket: LinkBucket): PageKind {
  return bucket === "profile" ? "team" : bucket;
}

export async function crawlCompanySite(domain: string, options: CrawlOptions): Promise<SiteCrawl> {
  const host = normaliseDomain(domain);
  const site = getDomain(host) ?? host;
  const maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
  const fetcher = new SiteFetcher(
    options.http,
    site,
    new ByteBudget(options.maxBytes ?? DEFAULT_MAX_BYTES),
    options.signal,
  );

  let home: CrawledPage | null = null;
  for (const url of homeCandidates(host)) {
    home = await fetcher.page(url, "home");
    if (home !== null) break;
  }
  if (home === null) return { domain: host, homeUrl: null, pages: [] };

  const crawl = new Crawl(fetcher, site, home, maxPages);
  await crawl.readFrames();
  await crawl.addSitemap();
  await crawl.readBestFirst();
  return { domain: host, homeUrl: home.url, pages: crawl.pages };
}

/** One crawl's state: the pages kept and the frontier of pages known but not read. */
class Crawl {
  readonly pages: CrawledPage[];
  private readonly frontier = new CrawlFrontier();
  private readonly homeUrl: URL;
  private readonly siteLanguage: string | null;
  private attemptsLeft: number;

  constructor(
    private readonly fetcher: SiteFetcher,
    private readonly site: string,
    home: CrawledPage,
    private readonly maxPages: number,
  ) {
    this.pages = [home];
    this.homeUrl = new URL(home.url);
    this.siteLanguage = languageOf(this.homeUrl);
    this.attemptsLeft = maxPages * ATTEMPTS_PER_PAGE + SPARE_ATTEMPTS;
    this.frontier.recordRead(this.homeUrl, null);
    // The site's root, when the home page is a redirect away from it ("/" → "/en/"), is that page again.
    this.frontier.markVisited(new URL("/", this.homeUrl));
    this.learnFrom(home, "home", 0);
  }

  private readonly isOnSite = (url: URL) => isWithin(url, this.site);

  /**
   * A home page that is a frameset or an iframe shell shows its content from other pages: those are read next, as
   * home pages, and their links are ranked as the home page's own. A framed page may itself be a frameset.
   */
  async readFrames(): Promise<void> {
    const shells = [this.pages[0]!];
    let framesRead = 0;
    while (shells.length > 0 && framesRead < MAX_FRAMES && this.pages.length < this.maxPages) {
      const shell = shells.shift()!;
      if (!isFrameShell(shell.html)) continue;
      const frames = frameSources(shell.html, shell.url, this.isOnSite).filter((url) => !this.frontier.isVisited(url));
      for (const url of frames.slice(0, Math.min(MAX_FRAMES - framesRead, this.maxPages - this.pages.length))) {
        framesRead++;
        this.frontier.markVisited(url);
        const page = await this.fetcher.page(url, "home");
        if (page === null || this.isPageAgain(page, url)) continue;
        this.frontier.recordRead(new URL(page.url), null);
        this.pages.push(page);
        this.learnFrom(page, "home", 0);
        shells.push(page);
      }
    }
  }

  /** The sitemap's pages join the frontier below pages a link leads to, unless their names are strong. */
  async addSitemap(): Promise<void> {
    const origin: LinkOrigin = {
      place: "sitemap",
      pageDepth: 0,
      pageBucket: "home",
      pageMailtos: 0,
      pagePersonNameLinks: 0,
    };
    const ranked = (await this.fetcher.sitemapPages(this.homeUrl.origin)).map((url) =>
      rankLink(url, "", origin, this.siteLanguage),
    );
    for (const link of best(ranked, MAX_SITEMAP_LINKS)) this.frontier.add(link);
  }

  /** Reads the best pages known, round by round, until the budget is spent or nothing is left to read. */
  async readBestFirst(): Promise<void> {
    while (this.pages.length < this.maxPages && this.attemptsLeft > 0 && this.frontier.size > 0) {
      const round = this.frontier.take(Math.min(CONCURRENCY, this.maxPages - this.pages.length, this.attemptsLeft));
      this.attemptsLeft -= round.length;
      const fetched = await Promise.all(round.map((link) => this.fetcher.page(link.url, kindOf(link.bucket))));
      round.forEach((link, index) => {
        const page = fetched[index] ?? null;
        if (page === null || this.isPageAgain(page, link.url)) return;
        this.frontier.recordRead(new URL(page.url), link.bucket);
        this.pages.push(page);
        this.learnFrom(page, link.bucket, link.depth);
      });
    }
  }

  /** An alias that redirected to a page already read (or chosen in the same round) is that page again. */
  private isPageAgain(page: CrawledPage, requested: URL): boolean {
    const landed = new URL(page.url);
    return pageKey(landed) !== pageKey(requested) && this.frontier.isVisited(landed);
  }

  /** Ranks a page's links (its frames' sources included) and adds the best to the frontier. */
  private learnFrom(page: CrawledPage, bucket: LinkBucket | "home", depth: number): void {
    const found = readPageLinks(page.html, page.url, this.isOnSite);
    const ranked = found.links.map((link) =>
      rankLink(
        link.url,
        link.text,
        {
          place: link.place,
          pageDepth: depth,
          pageBucket: bucket,
          pageMailtos: found.mailtos,
          pagePersonNameLinks: found.personNameLinks,
        },
        this.siteLanguage,
      ),
    );
    for (const link of best(ranked, MAX_LINKS_PER_PAGE)) this.frontier.add(link);
  }
}

/** The `limit` best-ranked links, ties in the order found; links to pages never worth reading dropped. */
function best(links: readonly (RankedLink | null)[], limit: number): RankedLink[] {
  return links
    .filter((link): link is RankedLink => link !== null)
    .map((link, order) => ({ link, order }))
    .sort((a, b) => b.link.score - a.link.score || a.order - b.order)
    .slice(0, limit)
    .map(({ link }) => link);
}

/** "Acme.example", "https://acme.example/about", "acme.example." → "acme.example". */
function normaliseDomain(domain: string): string {
  const trimmed = domain.trim().toLowerCase();
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(trimmed) ? trimmed : `http://${trimmed}`).hostname.replace(/\.$/, "");
  } catch {
    return trimmed.replace(/\.$/, "");
  }
}

function homeCandidates(host: string): URL[] {
  const hosts = host.startsWith("www.") ? [host] : [host, `www.${host}`];
  return hosts.flatMap((name) => [new URL(`https://${name}/`), new URL(`http://${name}/`)]);
}
