import { getDomain } from "tldts";
import { OutboundError, OutboundRefusedError, type OutboundClient, type OutboundResponse } from "@/lib/outbound/types";
import { resolveHttpUrl } from "@/lib/providers/first-party/website/html";
import type { PageKind } from "@/lib/providers/first-party/website/page-kinds";
import { robotsSitemaps, sitemapLocations } from "@/lib/providers/first-party/website/sitemap";

/*
 * The crawl's only way to the network: requests within one registrable domain through the outbound client (robots.txt
 * honoured for pages and sitemaps), redirects followed here hop by hop and only within the company's registrable
 * domain (www., careers. and other subdomains are fine; a redirect to another site, or to an address such as a cloud
 * metadata endpoint, ends that page), and every byte counted against the crawl's budget.
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

/** One page's share: a page larger than this is read in part, which still holds its header, links and footer. */
const PAGE_MAX_BYTES = 1024 * 1024;
const SITEMAP_MAX_BYTES = 512 * 1024;
const ROBOTS_MAX_BYTES = 64 * 1024;
/** With less than this left, a request would read too little to be of use; the crawl stops asking. */
const MIN_REQUEST_BYTES = 4 * 1024;
const MAX_HOPS = 5;
/** A sitemap index may list hundreds of sitemaps; the first few (pages, posts) hold the pages we look for. */
const MAX_SITEMAPS = 4;
/** Kept from sitemaps; the rest are not read. */
const MAX_SITEMAP_LOCATIONS = 5_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";

/**
 * Bytes left for the crawl. Each request reserves its cap and gives back what it did not use; when less than a full
 * cap is left, a request waits for those in flight to settle, so a page is not cut short by another's unused share.
 */
export class ByteBudget {
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

/** Requests within one registrable domain, redirects followed by hand, bytes counted against the crawl's budget. */
export class SiteFetcher {
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

  /** The page URLs of the site listed by the sitemaps robots.txt names (or /sitemap.xml when it names none). */
  async sitemapPages(origin: string): Promise<URL[]> {
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
      return url !== null && isWithin(url, this.site) ? [url] : [];
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

/** Whether a URL is an http(s) page of the site (the registrable domain: apex, www. and other subdomains). */
export function isWithin(url: URL, site: string): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  return getDomain(url.hostname) === site;
}

/** HTML by its content type; without one, by how the body starts. */
function isHtml(response: OutboundResponse): boolean {
  const type = response.headers.get("content-type");
  if (type !== null) return /^\s*(?:text\/html|application\/xhtml\+xml)\b/i.test(type);
  return /^\s*(?:<!doctype html|<html)/i.test(response.body.subarray(0, 512).toString("utf8"));
}
