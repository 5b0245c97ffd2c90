import { type HTMLElement } from "node-html-parser";
import { getDomain, parse as parseDomain } from "tldts";
import { acceptEmail } from "@/lib/providers/first-party/website/extract-emails";
import {
  cleanText,
  metaContent,
  parseHtml,
  resolveHttpUrl,
  visibleText,
} from "@/lib/providers/first-party/website/html";
import {
  allJsonLdNodes,
  jsonLdNodes,
  type JsonLdNode,
  nodeProperty,
  textList,
  textProperty,
  typesOf,
} from "@/lib/providers/first-party/website/json-ld";
import { companyProfile, type SocialProfile } from "@/lib/providers/first-party/website/social";

/*
 * What a company says about itself on one page: schema.org Organization data first (the site's own structured
 * statement), then Open Graph and plain meta tags, the <title>, icons and social links; on imprint-style pages an
 * <address> block, tel: links and a line naming the legal entity ("Acme Analytics, Inc."). `mergeOrganizations`
 * combines pages: the home page speaks for the brand, the imprint for the legal entity.
 */

export interface OrganizationAddress {
  street: string | null;
  locality: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
}

export interface OrganizationFacts {
  name: string | null;
  legalName: string | null;
  description: string | null;
  logo: string | null;
  url: string | null;
  socialProfiles: SocialProfile[];
  address: OrganizationAddress | null;
  phone: string | null;
  email: string | null;
  foundingDate: string | null;
  keywords: string[];
}

/** schema.org Organization and the subtypes small-business sites use most. */
const ORGANIZATION_TYPES = new Set([
  "Organization",
  "Corporation",
  "LocalBusiness",
  "OnlineBusiness",
  "OnlineStore",
  "NGO",
  "EducationalOrganization",
  "GovernmentOrganization",
  "MedicalOrganization",
  "NewsMediaOrganization",
  "ResearchOrganization",
  "SportsOrganization",
  "Airline",
  "Store",
  "Restaurant",
  "Bakery",
  "CafeOrCoffeeShop",
  "FoodEstablishment",
  "ProfessionalService",
  "LegalService",
  "FinancialService",
  "AccountingService",
  "HealthAndBeautyBusiness",
  "HomeAndConstructionBusiness",
  "AutomotiveBusiness",
  "LodgingBusiness",
  "Hotel",
  "TravelAgency",
  "RealEstateAgent",
  "EmploymentAgency",
  "Dentist",
  "Physician",
]);
/** Title segments that name the page, not the company ("Home | Acme"). */
const GENERIC_TITLE_WORDS = new Set([
  "home",
  "homepage",
  "home page",
  "start",
  "startseite",
  "welcome",
  "willkommen",
  "index",
  "official site",
  "official website",
]);
/** Legal-form endings that mark a line as the name of a legal entity. */
const LEGAL_FORM =
  /^[\p{L}\d&.,'’ -]{2,80}?,?\s(?:Inc\.?|Incorporated|LLC|L\.L\.C\.|Ltd\.?|Limited|LLP|PLC|plc|Corp\.?|Corporation|Co\.|GmbH(?: & Co\. KG)?|AG|KG|OHG|UG(?: \(haftungsbeschränkt\))?|e\.K\.|e\.V\.|SE|S\.A\.|SA|S\.L\.|SL|SAS|SARL|S\.r\.l\.|SpA|S\.p\.A\.|B\.V\.|BV|N\.V\.|NV|AB|A\/S|ApS|Oy|Pty Ltd|K\.K\.)$/u;
const US_CITY_LINE = /^(?<locality>[\p{L} .'-]+),\s*(?<region>[A-Z]{2})\s+(?<postalCode>\d{5}(?:-\d{4})?)$/u;
const EU_CITY_LINE = /^(?:[A-Z]{1,3}-)?(?<postalCode>\d{4,5})\s+(?<locality>[\p{L} .'()-]+)$/u;
const PHONE = /^\+?[\d\s().\/-]{6,24}$/;

export function extractOrganization(html: string, pageUrl: string): OrganizationFacts {
  const root = parseHtml(html);
  const org = bestOrganizationNode(jsonLdNodes(root), pageUrl);
  const title = cleanText(root.querySelector("title")?.text);

  const facts: OrganizationFacts = {
    name:
      (org && textProperty(org, "name")) ?? metaContent(root, "og:site_name") ?? companyNameFromTitle(title, pageUrl),
    legalName: (org && textProperty(org, "legalName")) ?? legalNameIn(root, visibleText(parseHtml(html))),
    description:
      (org && textProperty(org, "description")) ??
      metaContent(root, "og:description") ??
      metaContent(root, "description"),
    logo: absolute(
      (org && urlProperty(org, "logo")) ??
        iconHref(root, "apple-touch-icon") ??
        metaContent(root, "og:image") ??
        iconHref(root, "icon"),
      pageUrl,
    ),
    url: absolute(
      (org && urlProperty(org, "url")) ?? metaContent(root, "og:url") ?? linkHref(root, "canonical"),
      pageUrl,
    ),
    socialProfiles: socialProfiles(root, org),
    address: (org && jsonLdAddress(org)) ?? microdataAddress(root) ?? addressElement(root),
    phone: (org && textProperty(org, "telephone")) ?? microdataText(root, "telephone") ?? telLink(root),
    email:
      (org &&
        textList(org, "email")
          .map(acceptEmail)
          .find((email) => email !== null)) ??
      null,
    foundingDate: org && textProperty(org, "foundingDate"),
    keywords: keywords(org, root),
  };
  return facts;
}

/** The page kinds the crawler assigns; only "home" and "imprint" matter when merging. */
export interface OrganizationPage {
  kind: string;
  facts: OrganizationFacts;
}

/**
 * One organization from many pages. The home page comes first for the brand (name, description, logo, url, founding
 * date, email, keywords, social profiles, those of team pages left out); the imprint first for the legal entity
 * (legal name, address, phone), since that is the page the law makes a company keep accurate. Other pages fill what
 * both leave empty, in crawl order.
 */
export function mergeOrganizations(pages: readonly OrganizationPage[]): OrganizationFacts {
  const byKind = (kind: string) => pages.filter((page) => page.kind === kind);
  const rest = pages.filter((page) => page.kind !== "home" && page.kind !== "imprint");
  const brandOrder = [...byKind("home"), ...byKind("imprint"), ...rest].map((page) => page.facts);
  const legalOrder = [...byKind("imprint"), ...byKind("home"), ...rest].map((page) => page.facts);
  const first = <K extends keyof OrganizationFacts>(order: OrganizationFacts[], key: K): OrganizationFacts[K] | null =>
    order.map((facts) => facts[key]).find((value) => value !== null) ?? null;

  // Team pages link their people's own profiles, which are not the company's.
  const profilePages = [...byKind("home"), ...byKind("imprint"), ...rest].filter((page) => page.kind !== "team");
  const profiles = new Map<string, SocialProfile>();
  for (const { facts } of profilePages)
    for (const profile of facts.socialProfiles)
      if (!profiles.has(profile.network)) profiles.set(profile.network, profile);
  return {
    name: first(brandOrder, "name"),
    legalName: first(legalOrder, "legalName"),
    description: first(brandOrder, "description"),
    logo: first(brandOrder, "logo"),
    url: first(brandOrder, "url"),
    socialProfiles: [...profiles.values()],
    address: first(legalOrder, "address"),
    phone: first(legalOrder, "phone"),
    email: first(brandOrder, "email"),
    foundingDate: first(brandOrder, "foundingDate"),
    keywords: uniqueIgnoringCase(brandOrder.flatMap((facts) => facts.keywords)),
  };
}

/** The page's own organization: top-level nodes before nested ones, and not one whose url is another site. */
function bestOrganizationNode(topLevel: JsonLdNode[], pageUrl: string): JsonLdNode | null {
  const site = getDomain(pageUrl);
  let best: { node: JsonLdNode; score: number } | null = null;
  for (const node of allJsonLdNodes(topLevel)) {
    if (!typesOf(node).some((type) => ORGANIZATION_TYPES.has(type))) continue;
    const url = urlProperty(node, "url");
    const urlSite = url === null ? null : getDomain(absolute(url, pageUrl) ?? "");
    const score = (topLevel.includes(node) ? 2 : 0) + (urlSite === null ? 0 : urlSite === site ? 1 : -3);
    if (best === null || score > best.score) best = { node, score };
  }
  return best === null || best.score < 0 ? null : best.node;
}

/** A URL-valued property: a string, or an ImageObject's `url`/`contentUrl`. */
function urlProperty(node: JsonLdNode, key: string): string | null {
  const value = node[key];
  if (typeof value === "string") return cleanText(value);
  const nested = nodeProperty(node, key);
  if (nested !== null)
    return textProperty(nested, "url") ?? textProperty(nested, "contentUrl") ?? textProperty(nested, "@id");
  return Array.isArray(value) ? (value.find((item): item is string => typeof item === "string") ?? null) : null;
}

function absolute(href: string | null, pageUrl: string): string | null {
  return resolveHttpUrl(href, pageUrl)?.href ?? null;
}

/**
 * The company's name from a <title>: the segment that contains the domain's name ("Team | Acme Analytics" on
 * acme.example), else the first segment of the home page ("Acme Analytics | Logistics analytics") and the last of any
 * other page ("Our story · Sunrise Bakery"), the conventions of most site builders. Generic segments ("Home") are skipped.
 */
export function companyNameFromTitle(title: string | null, pageUrl: string): string | null {
  if (title === null) return null;
  const segments = title
    .split(/\s+[|–—·•:-]\s+|\s*\|\s*/)
    .map((segment) => segment.trim())
    .filter((segment) => segment !== "" && !GENERIC_TITLE_WORDS.has(segment.toLowerCase()));
  if (segments.length === 0) return null;
  const label = (parseDomain(pageUrl).domainWithoutSuffix ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
  const naming = segments.find(
    (segment) =>
      label.length >= 3 &&
      segment
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")
        .includes(label),
  );
  if (naming !== undefined) return naming;
  const isHome = resolveHttpUrl(pageUrl, pageUrl)?.pathname === "/";
  return isHome ? segments[0]! : segments[segments.length - 1]!;
}

function linkHref(root: HTMLElement, rel: string): string | null {
  for (const link of root.querySelectorAll("link[rel][href]")) {
    const rels = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rels.includes(rel)) return cleanText(link.getAttribute("href"));
  }
  return null;
}

/** `rel="icon"` also matches "shortcut icon"; the largest declared size wins. */
function iconHref(root: HTMLElement, rel: string): string | null {
  let best: { href: string; size: number } | null = null;
  for (const link of root.querySelectorAll("link[rel][href]")) {
    const rels = (link.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (!rels.includes(rel)) continue;
    const href = cleanText(link.getAttribute("href"));
    const size = Number(/^(\d+)x\d+/i.exec(link.getAttribute("sizes") ?? "")?.[1] ?? 0);
    if (href !== null && (best === null || size > best.size)) best = { href, size };
  }
  return best?.href ?? null;
}

function socialProfiles(root: HTMLElement, org: JsonLdNode | null): SocialProfile[] {
  const links = [
    ...(org ? textList(org, "sameAs") : []),
    ...root.querySelectorAll("a[href]").map((anchor) => anchor.getAttribute("href") ?? ""),
  ];
  const byNetwork = new Map<string, SocialProfile>();
  for (const link of links) {
    const profile = companyProfile(link);
    if (profile !== null && !byNetwork.has(profile.network)) byNetwork.set(profile.network, profile);
  }
  return [...byNetwork.values()];
}

function jsonLdAddress(org: JsonLdNode): OrganizationAddress | null {
  const value = org.address ?? nodeProperty(org, "location")?.address;
  if (typeof value === "string") return parseAddressLines(value.split(/\s*[,\n]\s*/));
  const node = Array.isArray(value) ? value[0] : value;
  if (typeof node !== "object" || node === null) return null;
  const postal = node as JsonLdNode;
  const address: OrganizationAddress = {
    street: textProperty(postal, "streetAddress"),
    locality: textProperty(postal, "addressLocality"),
    region: textProperty(postal, "addressRegion"),
    postalCode: textProperty(postal, "postalCode"),
    country: textProperty(postal, "addressCountry"),
  };
  return Object.values(address).some((part) => part !== null) ? address : null;
}

function microdataText(root: HTMLElement, property: string): string | null {
  const element = root.querySelector(`[itemprop=${property}]`);
  if (element === null) return null;
  return cleanText(element.getAttribute("content") ?? element.text);
}

function microdataAddress(root: HTMLElement): OrganizationAddress | null {
  const address: OrganizationAddress = {
    street: microdataText(root, "streetAddress"),
    locality: microdataText(root, "addressLocality"),
    region: microdataText(root, "addressRegion"),
    postalCode: microdataText(root, "postalCode"),
    country: microdataText(root, "addressCountry"),
  };
  return address.street !== null || address.locality !== null ? address : null;
}

/** The first `<address>` block that reads as a postal address. */
function addressElement(root: HTMLElement): OrganizationAddress | null {
  for (const element of root.querySelectorAll("address")) {
    const lines = element.text.split("\n").flatMap((line) => cleanText(line) ?? []);
    const address = parseAddressLines(lines.length > 1 ? lines : lines.flatMap((line) => line.split(/\s*,\s*/)));
    if (address !== null) return address;
  }
  return null;
}

/** Street, city line (US "Springfield, IL 62704" or European "10115 Berlin") and country, from address lines. */
export function parseAddressLines(lines: readonly string[]): OrganizationAddress | null {
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const match = US_CITY_LINE.exec(line) ?? EU_CITY_LINE.exec(line);
    if (match?.groups === undefined) continue;
    // The street is the nearest line above with a house number; an entity name above it has none.
    const street =
      [lines[index - 1], lines[index - 2]].find(
        (candidate) => candidate !== undefined && /\d/.test(candidate) && !PHONE.test(candidate),
      ) ?? null;
    const after = lines[index + 1];
    const country = after !== undefined && /^[\p{L} .'-]{2,40}$/u.test(after) ? after : null;
    return {
      street,
      locality: match.groups.locality!.trim(),
      region: match.groups.region ?? null,
      postalCode: match.groups.postalCode!,
      country,
    };
  }
  return null;
}

/** The text of the first tel: link (as shown, when it looks like a number), else its number. */
function telLink(root: HTMLElement): string | null {
  const link = root.querySelector('a[href^="tel:"]');
  if (link === null) return null;
  const shown = cleanText(link.text);
  if (shown !== null && PHONE.test(shown)) return shown;
  const href = (link.getAttribute("href") ?? "").replace(/^tel:/, "");
  try {
    return cleanText(decodeURIComponent(href));
  } catch {
    return cleanText(href);
  }
}

/** A line naming a legal entity ("Acme Analytics, Inc.", "Beispiel GmbH"), from <address> blocks first, then the text. */
function legalNameIn(root: HTMLElement, text: string): string | null {
  const lines = [
    ...root.querySelectorAll("address").flatMap((element) => element.text.split("\n")),
    ...text.split("\n"),
  ];
  for (const line of lines) {
    const text = cleanText(line);
    if (text !== null && LEGAL_FORM.test(text)) return text;
  }
  return null;
}

function keywords(org: JsonLdNode | null, root: HTMLElement): string[] {
  const lists = [...(org ? textList(org, "keywords") : []), metaContent(root, "keywords") ?? ""];
  return uniqueIgnoringCase(
    lists.flatMap((list) => list.split(/\s*[,;]\s*/)).flatMap((keyword) => cleanText(keyword) ?? []),
  );
}

function uniqueIgnoringCase(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = value.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
