import { looksLikeHtmlPage, type NamedPageKind, pageKindOf } from "@/lib/providers/first-party/website/page-kinds";
import type { LinkPlace } from "@/lib/providers/first-party/website/page-links";
import { looksLikePersonName, looksLikeProfilePath } from "@/lib/providers/first-party/website/person-links";

/*
 * How likely a link is to lead to addresses and people, as one score: what the page is (its kind, from path and link
 * text), where the link was found (the home page's navigation and footer are the site's own map; the body of a staff
 * list links each person's page), how deep it is, how many addresses the page it came from shows, and whether the
 * path has the shape of pages that rarely carry addresses (dated blog posts, archives, shops, pagination, query
 * variants, other-language copies). Pages that never do (log-in, cart, search, feeds) are not links to follow at all.
 *
 * The numbers are judgement, tuned on the development corpus, and only their order matters: a contact page beats a
 * team page beats an imprint; any named kind beats an unnamed page; a dated blog post comes last.
 */

/** A crawl bucket: the page kind, with "profile" (one person's page) apart from the team lists it is linked from. */
export type LinkBucket = NamedPageKind | "profile" | "other";

const BUCKET_VALUE: Readonly<Record<LinkBucket, number>> = {
  contact: 100,
  team: 95,
  imprint: 90,
  locations: 85,
  profile: 85,
  department: 80,
  about: 75,
  security: 65,
  events: 60,
  press: 55,
  careers: 50,
  legal: 45,
  other: 20,
};
/** Kinds whose name alone says the page carries addresses: trusted even when only the sitemap lists them. */
const STRONG_BUCKETS = new Set<LinkBucket>(["contact", "team", "imprint", "locations", "profile"]);

const HOME_MAP_BONUS = 10;
const HOME_BODY_BONUS = 5;
const FRAME_BONUS = 5;
const SITEMAP_PENALTY = 15;
const STRONG_SITEMAP_PENALTY = 5;
/** Per link followed beyond the first. */
const DEPTH_PENALTY = 8;
const MAILTO_BONUS_EACH = 2;
const MAX_MAILTO_BONUS = 10;
/**
 * A page with this many links that read as people's names, and as many addresses, is a directory of people whatever
 * its path says. Names alone are not enough: a product list ("Hot-Smoked Trout", "Fish Stock") reads like one too.
 */
const PEOPLE_LIST_MIN_NAMES = 3;

const DATED_PENALTY = 40;
const ARCHIVE_PENALTY = 40;
const SHOP_PENALTY = 30;
const POST_PENALTY = 25;
const QUERY_PENALTY = 25;
const OTHER_LANGUAGE_PENALTY = 30;

/** Path segments of pages that never carry a company's addresses. */
const NEVER_SEGMENTS =
  /^(?:log-?in|log-?out|sign-?in|sign-?up|register|registration|cart|basket|checkout|warenkorb|kasse|my-?account|account|wp-admin|wp-login\.php|wp-json|xmlrpc\.php|feed|rss|atom|search|suche|cdn-cgi|print|share|trackback|embed)$/i;
/** Query keys of searches, print and share views, shop actions. */
const NEVER_QUERY_KEYS =
  /^(?:s|q|search|query|replytocom|add-to-cart|add_to_cart|print|share|download|login|logout|action|format)$/i;
const DATED = /(?:^|\/)(?:19|20)\d{2}(?:[/-](?:0?[1-9]|1[0-2]))(?:[/-]|$)|(?:^|\/)(?:19|20)\d{2}\/|\/\d{8}(?:\/|-|$)/;
const ARCHIVE = /\/(?:tag|tags|category|categories|kategorie|author|archive|archives|page)\/|[?&](?:page|paged|p)=\d/i;
/** A page below a shop or product section ("/shop/tents", "/our-products/smoked-trout/"); the section itself is not. */
const SHOP = /\/(?:[\w-]*-)?(?:product|products|produkt|produkte|shop|item|items|catalog|catalogue|katalog)\/[^/]+/i;
const POST_SECTION = /\/(?:blog|news|posts?|articles?|aktuelles|nachrichten|stories)\/[^/]+/i;
/** A leading language segment: "/en/", "/de-at/", "/pt_BR/". */
const LANGUAGE_PREFIX = /^\/([a-z]{2}(?:[-_][a-z]{2})?)(?:\/|$)/i;

/** Where a link was found. */
export interface LinkOrigin {
  place: LinkPlace | "sitemap";
  /** Links followed from the home page to the page the link sits on: 0 on the home page and its frames. */
  pageDepth: number;
  /** The bucket of the page the link sits on ("home" for the home page and its frames). */
  pageBucket: LinkBucket | "home";
  /** `mailto:` links on that page. */
  pageMailtos: number;
  /** Links on that page whose text is a person's name. */
  pagePersonNameLinks: number;
}

export interface RankedLink {
  url: URL;
  bucket: LinkBucket;
  score: number;
  /** Links followed from the home page to reach this one. */
  depth: number;
}

/** The language segment a path starts with ("en" for "/en/contact"), lower case; null when it starts with none. */
export function languageOf(url: URL): string | null {
  return LANGUAGE_PREFIX.exec(url.pathname)?.[1]?.toLowerCase().replace("_", "-") ?? null;
}

/** Whether a URL is a page the crawl never reads, whatever links to it. */
export function isNeverWorthReading(url: URL): boolean {
  if (!looksLikeHtmlPage(url)) return true;
  if (url.pathname.split("/").some((segment) => NEVER_SEGMENTS.test(segment))) return true;
  return [...url.searchParams.keys()].some((key) => NEVER_QUERY_KEYS.test(key));
}

function bucketOf(url: URL, text: string, origin: LinkOrigin): LinkBucket {
  if (looksLikeProfilePath(url)) return "profile";
  const fromPeopleList =
    origin.pageBucket === "team" ||
    origin.pageBucket === "department" ||
    (origin.pagePersonNameLinks >= PEOPLE_LIST_MIN_NAMES && origin.pageMailtos >= PEOPLE_LIST_MIN_NAMES);
  if (origin.place === "body" && fromPeopleList && looksLikePersonName(text)) return "profile";
  const kind = pageKindOf(url, text);
  return kind === "home" ? "other" : kind;
}

function placeBonus(origin: LinkOrigin, bucket: LinkBucket): number {
  if (origin.place === "sitemap") return -(STRONG_BUCKETS.has(bucket) ? STRONG_SITEMAP_PENALTY : SITEMAP_PENALTY);
  if (origin.place === "frame") return FRAME_BONUS;
  if (origin.pageBucket !== "home") return 0;
  return origin.place === "map" ? HOME_MAP_BONUS : HOME_BODY_BONUS;
}

/** What the path's shape says against the page. Profiles keep their query strings: directories link people by id. */
function shapePenalty(url: URL, bucket: LinkBucket, siteLanguage: string | null): number {
  const path = url.pathname;
  let penalty = 0;
  if (DATED.test(path)) penalty += DATED_PENALTY;
  if (ARCHIVE.test(`${path}${url.search}`)) penalty += ARCHIVE_PENALTY;
  if (SHOP.test(path)) penalty += SHOP_PENALTY;
  if (POST_SECTION.test(path)) penalty += POST_PENALTY;
  if (url.search !== "" && bucket !== "profile") penalty += QUERY_PENALTY;
  const language = languageOf(url);
  if (language !== null && language !== siteLanguage) penalty += OTHER_LANGUAGE_PENALTY;
  return penalty;
}

/**
 * A link's rank; null for a page never worth reading. `siteLanguage` is the language segment of the home page's
 * path, if any: pages under another language's prefix are copies of pages the crawl reads in the home's language.
 */
export function rankLink(url: URL, text: string, origin: LinkOrigin, siteLanguage: string | null): RankedLink | null {
  if (isNeverWorthReading(url)) return null;
  const bucket = bucketOf(url, text, origin);
  const depth = origin.place === "sitemap" ? 1 : origin.pageDepth + (origin.place === "frame" ? 0 : 1);
  const mailtoBonus = origin.place === "body" ? Math.min(MAX_MAILTO_BONUS, origin.pageMailtos * MAILTO_BONUS_EACH) : 0;
  const score =
    BUCKET_VALUE[bucket] +
    placeBonus(origin, bucket) +
    mailtoBonus -
    DEPTH_PENALTY * Math.max(0, depth - 1) -
    shapePenalty(url, bucket, siteLanguage);
  return { url, bucket, score, depth };
}
