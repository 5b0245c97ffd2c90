import { type LinkBucket, languageOf, type RankedLink } from "@/lib/providers/first-party/website/link-ranking";

/*
 * The pages the crawl knows of and has not read, best first. A page is known once, by its `pageKey`, at the best rank
 * any link to it earned. Taking pages applies the per-kind caps: past its cap a kind still competes, at a lower score,
 * so a site with twenty profile pages and nothing else spends its budget on them, while a site with a contact page,
 * a locations page and twenty profiles reads all three kinds first. Ties go to the page found first, which keeps the
 * crawl deterministic: discovery order depends only on the order pages are read in, never on timing.
 */

/** Pages of one bucket read before the rest of that bucket must compete at a lower score. */
const BUCKET_CAP: Partial<Record<LinkBucket, number>> = { profile: 4 };
const DEFAULT_BUCKET_CAP = 2;
const OVER_CAP_PENALTY = 40;
/** A copy of a page already read, under another language prefix ("/en/contact" after "/contact"). */
const LANGUAGE_COPY_PENALTY = 50;
/** Pages known at most; past it a newly found page only displaces a worse one. */
const MAX_FRONTIER = 1_000;

interface Entry extends RankedLink {
  key: string;
  contentKey: string;
  order: number;
}

/**
 * Same page: host without "www." (apex and www serve one site), path without a trailing slash or a directory index
 * file, and query; scheme and host case ignored.
 */
export function pageKey(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const path = url.pathname.replace(/\/(?:index|default)\.(?:html?|php|aspx?)$/i, "/").replace(/\/+$/, "") || "/";
  return `${host}${path}${url.search}`;
}

/** The page's key without its language prefix: "/en/contact" and "/contact" are one page in two languages. */
function contentKey(url: URL): string {
  const language = languageOf(url);
  if (language === null) return pageKey(url);
  const stripped = new URL(url.href);
  stripped.pathname = url.pathname.slice(language.length + 1) || "/";
  return pageKey(stripped);
}

export class CrawlFrontier {
  private readonly entries = new Map<string, Entry>();
  private readonly visited = new Set<string>();
  private readonly readContent = new Set<string>();
  private readonly readPerBucket = new Map<LinkBucket, number>();
  private found = 0;

  /** Records a link; a page already read or queued at a better rank is left as it is. */
  add(link: RankedLink): void {
    const key = pageKey(link.url);
    if (this.visited.has(key)) return;
    const known = this.entries.get(key);
    if (known !== undefined) {
      if (link.score > known.score) this.entries.set(key, { ...known, ...link, order: known.order });
      return;
    }
    if (this.entries.size >= MAX_FRONTIER) {
      const worst = this.worst();
      if (worst === undefined || worst.score >= link.score) return;
      this.entries.delete(worst.key);
    }
    this.entries.set(key, { ...link, key, contentKey: contentKey(link.url), order: this.found++ });
  }

  /** A URL the crawl has read or asked for (a redirect's target included): never queued again. */
  markVisited(url: URL): void {
    const key = pageKey(url);
    this.visited.add(key);
    this.entries.delete(key);
  }

  isVisited(url: URL): boolean {
    return this.visited.has(pageKey(url));
  }

  /**
   * A page kept by the crawl: counts against its bucket's cap (the home page and its frames have none) and makes its
   * other-language copies worth less.
   */
  recordRead(url: URL, bucket: LinkBucket | null): void {
    this.markVisited(url);
    this.readContent.add(contentKey(url));
    if (bucket !== null) this.readPerBucket.set(bucket, (this.readPerBucket.get(bucket) ?? 0) + 1);
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Removes and returns the best `count` pages. Each taken page counts against its bucket's cap for the next choice,
   * as if already read, so one batch cannot take two pages past a cap.
   */
  take(count: number): RankedLink[] {
    const pending = new Map<LinkBucket, number>();
    const taken: RankedLink[] = [];
    while (taken.length < count && this.entries.size > 0) {
      let best: { entry: Entry; score: number } | null = null;
      for (const entry of this.entries.values()) {
        const score = this.effectiveScore(entry, pending.get(entry.bucket) ?? 0);
        if (best === null || score > best.score || (score === best.score && entry.order < best.entry.order))
          best = { entry, score };
      }
      const { entry } = best!;
      this.entries.delete(entry.key);
      this.visited.add(entry.key);
      pending.set(entry.bucket, (pending.get(entry.bucket) ?? 0) + 1);
      taken.push({ url: entry.url, bucket: entry.bucket, score: entry.score, depth: entry.depth });
    }
    return taken;
  }

  private effectiveScore(entry: Entry, pendingInBucket: number): number {
    const read = (this.readPerBucket.get(entry.bucket) ?? 0) + pendingInBucket;
    const overCap = read >= (BUCKET_CAP[entry.bucket] ?? DEFAULT_BUCKET_CAP);
    const languageCopy = this.readContent.has(entry.contentKey);
    return entry.score - (overCap ? OVER_CAP_PENALTY : 0) - (languageCopy ? LANGUAGE_COPY_PENALTY : 0);
  }

  private worst(): Entry | undefined {
    let worst: Entry | undefined;
    for (const entry of this.entries.values())
      if (
        worst === undefined ||
        entry.score < worst.score ||
        (entry.score === worst.score && entry.order > worst.order)
      )
        worst = entry;
    return worst;
  }
}
