import { getDomain } from "tldts";
import { OutboundError, OutboundRefusedError, type OutboundClient, type OutboundResponse } from "@/lib/outbound/types";
import { parseHtml, resolveHttpUrl } from "@/lib/providers/first-party/website/html";
import {
  looksLikeHtmlPage,
  pageKindOf,
  type PageKind,
  WANTED_PAGE_KINDS,
  type WantedPageKind,
} from "@/lib/providers/first-party/website/page-kinds";
import { robotsSitemaps, sitemapLocations } from "@/lib/providers/first-party/website/sitemap";

/*
 * A small, polite crawl of one company's site: its home page, then the few pages that name people and addresses
 * (contact, about, team, imprint, careers, press, legal), found from the home page's links and the sitemap. Every
 * page request goes through the outbound client with robots.txt honoured. Redirects are followed here, hop by hop,
 * and only within the company's registrable domain (www., careers. and other subdomains are fine; a redirect to
 * another site, or to an address such as a cloud metadata endpoint, ends that page). Pages and bytes are bounded.
 */

export interface CrawledPage {
  /** The final URL, after redirects. */
  url: string;
  kind: PageKind;
  status: number;
  /** ISO timestamp. */
  fetchedAt: string;
  html: string;
  headers: Headers;
}

export interface SiteCrawl {
  domain: string;
  /** The home page's final URL; null when no home page could be read (unreachable, not HTML, or robots.txt said no). */
  homeUrl: string | null;
  /** The home page first, then the others in priority order. */
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
/** One page's share: a page larger than this is read in part, which still holds its header, links and footer. */
const PAGE_MAX_BYTES = 1024 * 1024;
const SITEMAP_MAX_BYTES = 512 * 1024;
const ROBOTS_MAX_BYTES = 64 * 1024;
/** With less than this left, a request would read too little to be of use; the crawl stops asking. */
const MIN_REQUEST_BYTES = 4 * 1024;
const MAX_HOPS = 5;
/** Two pages of a kind at most, so twelve press releases cannot crowd out the team page. */
const MAX_PER_KIND = 2;
/** A sitemap index may list hundreds of sitemaps; the first few (pages, posts) hold the pages we look for. */
const MAX_SITEMAPS = 4;
/** Kept from sitemaps; the rest are not read. */
const MAX_SITEMAP_LOCATIONS = 5_000;
/** Candidates tried beyond the page budget, for pages that turn out missing, refused or not HTML. */
const SPARE_CANDIDATES = 4;
/** Pages fetched at once; the outbound client also caps requests per host. */
const CONCURRENCY = 2;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

interface Candidate {
  url: URL;
  kind: WantedPageKind;
  /** Links from the home page come before sitemap entries of the same kind. */
  fromSitemap: boolean;
}

/**
 * Bytes left for the crawl. Each request reserves its cap and gives back what it did not use; when less than a full
 * cap is left, a request waits for those in flight to settle, so a page is not cut short by another's unused share.
 */
class ByteBudget {
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private remaining: number) {}

  async reserve(cap: number): Promise<number> {
    while (this.remaining < cap && this.inFlight > 0) await new Promise<void>((resolve) => this.waiters.push(resolve));
    const granted = Math.max(0, Math.min(cap, this.remaining));
    this.remaining -= granted;
    this.inFlight++;
    return granted;
  }

  settle(reserved: number, used: number): void {
    this.remaining += Math.max(0, reserved - used);
    this.inFlight--;
    for (const wake of this.waiters.splice(0)) wake();
  }
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

  const homeUrl = new URL(home.url);
  const sitemapCandidates = await fetcher.sitemapCandidates(homeUrl.origin);
  const candidates = chooseCandidates(
    [...linkCandidates(home.html, homeUrl, site), ...sitemapCandidates],
    homeUrl,
  ).slice(0, maxPages - 1 + SPARE_CANDIDATES);

  // Fetched by a small pool, kept in candidate order; a page reached twice (an alias redirecting to it) is kept once.
  const results: (CrawledPage | null)[] = new Array<CrawledPage | null>(candidates.length).fill(null);
  const seen = new Set([pageKey(homeUrl)]);
  let next = 0;
  let kept = 1;
  let inFlight = 0;
  const worker = async () => {
    // Pages in flight count against maxPages: spare candidates are only tried once a fetch has come back empty.
    while (next < candidates.length && kept + inFlight < maxPages) {
      const index = next++;
      const candidate = candidates[index]!;
      if (seen.has(pageKey(candidate.url))) continue;
      seen.add(pageKey(candidate.url));
      inFlight++;
      const page = await fetcher.page(candidate.url, candidate.kind).finally(() => inFlight--);
      if (page === null) continue;
      const key = pageKey(new URL(page.url));
      if (key !== pageKey(candidate.url) && seen.has(key)) continue;
      seen.add(key);
      results[index] = page;
      kept++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const pages = [home, ...results.filter((page): page is CrawledPage => page !== null)].slice(0, maxPages);
  return { domain: host, homeUrl: home.url, pages };
}

/** Requests within one registrable domain, redirects followed by hand, bytes counted against the crawl's budget. */
class SiteFetcher {
  constructor(
    private readonly http: OutboundClient,
    private readonly site: string,
    private readonly budget: ByteBudget,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** An HTML page (2xx, HTML content) at `url` or where it redirects within the site; null otherwise. */
  async page(url: URL, kind: PageKind): Promise<CrawledPage | null> {
    const response = await this.get(url, { robots: true, maxBytes: PAGE_MAX_BYTES, accept: HTML_ACCEPT });
    if (response === null || response.status < 200 || response.status > 299 || !isHtml(response)) return null;
    return {
      url: response.url,
      kind,
      status: response.status,
      fetchedAt: new Date().toISOString(),
      html: response.text(),
      headers: response.headers,
    };
  }

  /** Pages of the wanted kinds listed by the sitemaps robots.txt names (or /sitemap.xml when it names none). */
  async sitemapCandidates(origin: string): Promise<Candidate[]> {
    const robots = await this.get(new URL("/robots.txt", origin), {
      robots: false,
      maxBytes: ROBOTS_MAX_BYTES,
      accept: "text/plain",
    });
    const listed = robots !== null && robots.status >= 200 && robots.status < 300 ? robotsSitemaps(robots.text()) : [];
    const queue = (listed.length > 0 ? listed : ["/sitemap.xml"]).flatMap((href) => resolveHttpUrl(href, origin) ?? []);
    const locations: string[] = [];
    for (let read = 0; read < MAX_SITEMAPS && queue.length > 0 && locations.length < MAX_SITEMAP_LOCATIONS; read++) {
      const response = await this.get(queue.shift()!, {
        robots: true,
        maxBytes: SITEMAP_MAX_BYTES,
        accept: "application/xml,text/xml;q=0.9,*/*;q=0.5",
      });
      if (response === null || response.status < 200 || response.status > 299) continue;
      const sitemap = sitemapLocations(response.text());
      if (sitemap.kind === "index")
        queue.push(...sitemap.locations.flatMap((href) => resolveHttpUrl(href, response.url) ?? []));
      else locations.push(...sitemap.locations.slice(0, MAX_SITEMAP_LOCATIONS - locations.length));
    }
    return locations.flatMap((href) => {
      const url = resolveHttpUrl(href, origin);
      if (url === null || !isWithin(url, this.site) || !looksLikeHtmlPage(url)) return [];
      const kind = pageKindOf(url);
      return isWanted(kind) ? [{ url, kind, fromSitemap: true }] : [];
    });
  }

  /** The final response, or null when the site could not be read there, refused us, or redirected off the site. */
  private async get(
    start: URL,
    request: { robots: boolean; maxBytes: number; accept: string },
  ): Promise<OutboundResponse | null> {
    let url = start;
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      if (!isWithin(url, this.site)) return null;
      const reserved = await this.budget.reserve(request.maxBytes);
      if (reserved < Math.min(request.maxBytes, MIN_REQUEST_BYTES)) {
        this.budget.settle(reserved, 0);
        return null;
      }
      let response: OutboundResponse;
      try {
        response = await this.http.request(url, {
          robots: request.robots,
          maxBytes: reserved,
          maxRedirects: 0,
          signal: this.signal,
          headers: { accept: request.accept },
        });
      } catch (error) {
        this.budget.settle(reserved, 0);
        // Our caller giving up ends the crawl; anything the site or the client's policy did ends this page only.
        if (this.signal?.aborted) throw error;
        if (error instanceof OutboundError || error instanceof OutboundRefusedError) return null;
        throw error;
      }
      this.budget.settle(reserved, response.body.length);
      if (!REDIRECT_STATUSES.has(response.status)) return response;
      const next = resolveHttpUrl(response.headers.get("location"), response.url);
      if (next === null) return null;
      url = next;
    }
    return null;
  }
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

function isWithin(url: URL, site: string): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return getDomain(url.hostname) === site;
}

function isWanted(kind: PageKind): kind is WantedPageKind {
  return (WANTED_PAGE_KINDS as readonly PageKind[]).includes(kind);
}

/** HTML by its content type; without one, by how the body starts. */
function isHtml(response: OutboundResponse): boolean {
  const type = response.headers.get("content-type");
  if (type !== null) return /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(type);
  return /^\s*(?:<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString("utf8"));
}

/** Same page: host, path without a trailing slash, and query, compared without case in the host. */
function pageKey(url: URL): string {
  return `${url.hostname.toLowerCase()}${url.pathname.replace(/\/+$/, "") || "/"}${url.search}`;
}

function linkCandidates(html: string, base: URL, site: string): Candidate[] {
  return parseHtml(html)
    .querySelectorAll("a[href]")
    .flatMap((anchor) => {
      const url = resolveHttpUrl(anchor.getAttribute("href"), base.href);
      if (url === null || !isWithin(url, site) || !looksLikeHtmlPage(url)) return [];
      const kind = pageKindOf(url, anchor.text);
      return isWanted(kind) ? [{ url, kind, fromSitemap: false }] : [];
    });
}

/** Candidates by kind priority, home-page links before sitemap entries, shallow paths first; deduplicated, capped per kind. */
function chooseCandidates(candidates: readonly Candidate[], home: URL): Candidate[] {
  const priority = (kind: WantedPageKind) => WANTED_PAGE_KINDS.indexOf(kind);
  const depth = (url: URL) => url.pathname.split("/").filter((segment) => segment !== "").length;
  const sorted = candidates
    .map((candidate, order) => ({ candidate, order }))
    .sort(
      (a, b) =>
        priority(a.candidate.kind) - priority(b.candidate.kind) ||
        Number(a.candidate.fromSitemap) - Number(b.candidate.fromSitemap) ||
        depth(a.candidate.url) - depth(b.candidate.url) ||
        a.order - b.order,
    );
  const seen = new Set([pageKey(home)]);
  const perKind = new Map<WantedPageKind, number>();
  const chosen: Candidate[] = [];
  for (const { candidate } of sorted) {
    const key = pageKey(candidate.url);
    const count = perKind.get(candidate.kind) ?? 0;
    if (seen.has(key) || count >= MAX_PER_KIND) continue;
    seen.add(key);
    perKind.set(candidate.kind, count + 1);
    chosen.push(candidate);
  }
  return chosen;
}
