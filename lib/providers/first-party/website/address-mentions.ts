import { type HTMLElement } from "node-html-parser";
import type { CloakedAddress } from "@/lib/providers/first-party/website/email-cloaks";
import { acceptEmail, extractEmails } from "@/lib/providers/first-party/website/extract-emails";

/*
 * Where on a page an address is printed: the links that mail it (mailto:, Cloudflare's protected links and spans, the
 * places Joomla's and TYPO3's cloaking fill in) and
 * the innermost elements whose text spells it, plainly or disguised ("jane(at)club(dot)example", "jane [at] …", an
 * address split across tags), or as a bare local part in prose that names the shared domain once ("write to legal@").
 * extract-emails decides which addresses a page has; this only finds where they sit, to read what is printed beside.
 */

const SPACE = "[\\s\\u00a0]";
const AT = `(?:${SPACE}*@${SPACE}*|${SPACE}*[\\[({<]${SPACE}*(?:at|@)${SPACE}*[\\])}>]${SPACE}*|${SPACE}+at${SPACE}+)`;
const DOT = `(?:\\.|${SPACE}*[\\[({<]${SPACE}*(?:dot|punkt)${SPACE}*[\\])}>]${SPACE}*|${SPACE}+dot${SPACE}+)`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern for the address as text prints it: disguised or not, or its local part alone before a bare "@". */
export function mentionPattern(address: string): RegExp {
  const at = address.indexOf("@");
  const local = escape(address.slice(0, at));
  const domain = address
    .slice(at + 1)
    .split(".")
    .map(escape)
    .join(DOT);
  return new RegExp(
    `(?<![\\p{L}\\p{N}._%+-])${local}(?:${AT}${domain}(?![\\p{L}\\p{N}-])|@(?![\\p{L}\\p{N}.-]))`,
    "iu",
  );
}

/** One place the address is printed: the link that mails it, or the innermost element whose text spells it. */
export interface Mention {
  element: HTMLElement;
  /** A mailto or protected link (its text may be a name rather than the address). */
  isLink: boolean;
}

const LINKS = "a[href^='mailto:' i], a[href*='/cdn-cgi/l/email-protection' i], [data-cfemail]";

/**
 * Every place on the page (a tree with invisible elements removed) that prints one of `addresses`; `cloaked`: the
 * page's cloaked addresses (email-cloaks.ts), read before its scripts were removed.
 */
export function findMentions(
  root: HTMLElement,
  addresses: readonly string[],
  pageUrl: string,
  cloaked: readonly CloakedAddress[],
): Map<string, Mention[]> {
  const mentions = new Map<string, Mention[]>(addresses.map((address) => [address, []]));
  const links: HTMLElement[] = [];
  for (const element of root.querySelectorAll(LINKS)) {
    const link = element.closest("a") ?? element;
    if (links.includes(link)) continue;
    links.push(link);
    for (const { address } of extractEmails(link.outerHTML, pageUrl))
      mentions.get(address)?.push({ element: link, isLink: true });
  }
  // A cloaked address stands where its script puts it: its span, custom element or link.
  for (const { address, element } of cloaked) {
    const accepted = acceptEmail(address);
    if (accepted === null || links.includes(element)) continue;
    links.push(element);
    mentions.get(accepted)?.push({ element, isLink: true });
  }
  const textOf = cachedText();
  for (const address of addresses) {
    const pattern = mentionPattern(address);
    for (const element of innermostMatching(root, (candidate) => pattern.test(textOf(candidate)))) {
      const inLink = links.some((link) => link === element || isInside(element, link) || isInside(link, element));
      if (!inLink) mentions.get(address)!.push({ element, isLink: false });
    }
  }
  return mentions;
}

/** Element text with block boundaries kept (an address at the end of one paragraph is not glued to the next), once per element. */
function cachedText(): (element: HTMLElement) => string {
  const cache = new Map<HTMLElement, string>();
  return (element) => {
    let text = cache.get(element);
    if (text === undefined) {
      text = element.structuredText;
      cache.set(element, text);
    }
    return text;
  };
}

/** The deepest elements that match, descending only through matching ones (a match split over children stops there). */
function innermostMatching(root: HTMLElement, matches: (element: HTMLElement) => boolean): HTMLElement[] {
  if (!matches(root)) return [];
  const children = root.childNodes.filter((child): child is HTMLElement => child.nodeType === 1);
  const deeper = children.flatMap((child) => innermostMatching(child, matches));
  return deeper.length > 0 ? deeper : [root];
}

export function isInside(element: HTMLElement, ancestor: HTMLElement): boolean {
  for (let node = element.parentNode; node !== null; node = node.parentNode) if (node === ancestor) return true;
  return false;
}
