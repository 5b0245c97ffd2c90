import { type HTMLElement } from "node-html-parser";
import { isJobTitle } from "@/lib/providers/first-party/email/job-title";
import { acceptEmail, extractEmails } from "@/lib/providers/first-party/website/extract-emails";
import { classesOf, cleanText, parseHtml } from "@/lib/providers/first-party/website/html";
import {
  allJsonLdNodes,
  jsonLdNodes,
  type JsonLdNode,
  textList,
  textProperty,
  typesOf,
} from "@/lib/providers/first-party/website/json-ld";
import { type PersonName, splitName } from "@/lib/providers/first-party/website/person-names";
import { personLinkedin, twitterHandle } from "@/lib/providers/first-party/website/social";

/*
 * People a company page names, with their role: schema.org Person nodes (also nested in an Organization's
 * employee/founder/member lists or a @graph), and "team cards": repeated sibling elements that each hold one person's
 * name (a heading, <strong> or an element classed "name") and a job title (an element classed title/role/position).
 * A card's mailto and LinkedIn/Twitter links belong to its person.
 */

export interface FoundPerson {
  /** The name as published, without honorifics or suffixes ("Dr. Hannah Schmidt" → "Hannah Schmidt"). */
  fullName: string;
  firstName: string;
  lastName: string;
  jobTitle: string | null;
  email: string | null;
  /** Profile URL, https://www.linkedin.com/in/…. */
  linkedin: string | null;
  /** Handle without "@", as email-finder APIs give it. */
  twitter: string | null;
  /** A number printed for this person (a `tel:` link in their card, JSON-LD `telephone`), as written. */
  phone: string | null;
  evidence: "json-ld" | "team-card";
  pageUrl: string;
}

const MAX_TITLE_LENGTH = 100;

export function extractPeople(html: string, pageUrl: string): FoundPerson[] {
  const root = parseHtml(html);
  const people = [...jsonLdPeople(root, pageUrl), ...teamCardPeople(root, pageUrl)];
  return mergePeople(people);
}

/** One entry per person (same name), JSON-LD first, each field the first non-null value found. */
export function mergePeople(people: readonly FoundPerson[]): FoundPerson[] {
  const byName = new Map<string, FoundPerson>();
  const ordered = [...people].sort((a, b) => (a.evidence === b.evidence ? 0 : a.evidence === "json-ld" ? -1 : 1));
  for (const person of ordered) {
    const key = personKey(person.fullName);
    const known = byName.get(key);
    if (known === undefined) {
      byName.set(key, { ...person });
      continue;
    }
    known.jobTitle ??= person.jobTitle;
    known.email ??= person.email;
    known.linkedin ??= person.linkedin;
    known.twitter ??= person.twitter;
    known.phone ??= person.phone;
  }
  return [...byName.values()];
}

/** Names compare without case or accents: "José Álvarez" on one page is "Jose Alvarez" on another. */
export function personKey(fullName: string): string {
  return fullName.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();
}

function jsonLdPeople(root: HTMLElement, pageUrl: string): FoundPerson[] {
  return allJsonLdNodes(jsonLdNodes(root)).flatMap((node) => {
    if (!typesOf(node).includes("Person")) return [];
    const given = textProperty(node, "givenName");
    const family = textProperty(node, "familyName");
    const name = splitName(
      textProperty(node, "name") ?? (given !== null && family !== null ? `${given} ${family}` : null),
    );
    if (name === null) return [];
    const links = [...textList(node, "sameAs"), ...textList(node, "url")];
    return [
      {
        ...name,
        firstName: given ?? name.firstName,
        lastName: family ?? name.lastName,
        jobTitle: cleanText(textProperty(node, "jobTitle")),
        email: firstEmail(node),
        linkedin: firstOf(links, personLinkedin),
        twitter: firstOf(links, twitterHandle),
        phone: cleanText(textProperty(node, "telephone")),
        evidence: "json-ld" as const,
        pageUrl,
      },
    ];
  });
}

function firstEmail(node: JsonLdNode): string | null {
  return firstOf(textList(node, "email"), acceptEmail);
}

function firstOf(links: readonly string[], read: (href: string) => string | null): string | null {
  for (const link of links) {
    const value = read(link);
    if (value !== null) return value;
  }
  return null;
}

/** Card groups: element children of one parent that share tag and classes, at least two of which read as people. */
function teamCardPeople(root: HTMLElement, pageUrl: string): FoundPerson[] {
  const people: FoundPerson[] = [];
  for (const parent of [root, ...root.querySelectorAll("*")]) {
    const groups = new Map<string, HTMLElement[]>();
    for (const child of parent.childNodes) {
      if (child.nodeType !== 1) continue;
      const element = child as HTMLElement;
      const signature = `${element.tagName} ${classesOf(element).sort().join(" ")}`;
      groups.set(signature, [...(groups.get(signature) ?? []), element]);
    }
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const found = members.flatMap((member) => {
        const person = readCard(member, pageUrl);
        return person === null ? [] : [person];
      });
      if (found.length >= 2) people.push(...found);
    }
  }
  return people;
}

/** Headings and elements marked as names first; <strong>/<b> only when a card has none (bios embolden company names). */
const NAME_ELEMENTS = ["h2, h3, h4, h5, [itemprop=name], [class*=name]", "strong, b"];
const TITLE_ELEMENTS = "[itemprop=jobTitle], [class*=title], [class*=role], [class*=position], [class*=job]";

/** One card's person: exactly one name in it, and a job title. */
function readCard(card: HTMLElement, pageUrl: string): FoundPerson | null {
  let named: { element: HTMLElement; name: PersonName }[] = [];
  for (const selector of NAME_ELEMENTS) {
    named = card.querySelectorAll(selector).flatMap((element) => {
      const name = splitName(element.text);
      return name === null ? [] : [{ element, name }];
    });
    if (named.length > 0) break;
  }
  const distinct = new Set(named.map(({ name }) => personKey(name.fullName)));
  if (distinct.size !== 1) return null;
  const { element: nameElement, name } = named[0]!;
  const jobTitle = titleIn(card, nameElement);
  if (jobTitle === null) return null;

  const hrefs = card.querySelectorAll("a[href]").map((anchor) => anchor.getAttribute("href") ?? "");
  return {
    ...name,
    jobTitle,
    email: extractEmails(card.outerHTML, pageUrl)[0]?.address ?? null,
    linkedin: firstOf(hrefs, personLinkedin),
    twitter: firstOf(hrefs, twitterHandle),
    phone: firstOf(hrefs, telephoneNumber),
    evidence: "team-card",
    pageUrl,
  };
}

/** The number of a `tel:` link, percent-decoded, as written ("tel:+1-555-0142" → "+1-555-0142"). */
function telephoneNumber(href: string): string | null {
  if (!/^tel:/i.test(href)) return null;
  try {
    return cleanText(decodeURIComponent(href.slice(4)));
  } catch {
    return null;
  }
}

/** The card's job title: an element marked as one, else the element right after the name if it reads as a title. */
function titleIn(card: HTMLElement, nameElement: HTMLElement): string | null {
  for (const element of card.querySelectorAll(TITLE_ELEMENTS)) {
    if (element === nameElement || contains(element, nameElement) || contains(nameElement, element)) continue;
    const text = firstLine(element);
    if (text !== null && text.length <= MAX_TITLE_LENGTH) return text;
  }
  // Simple cards put the title in the next element with text (<h3>Name</h3><p>Title</p>, or after a <br>).
  let next = nameElement.nextElementSibling ?? null;
  while (next !== null && cleanText(next.text) === null) next = next.nextElementSibling ?? null;
  const text = next === null ? null : firstLine(next);
  return text !== null && text.length <= MAX_TITLE_LENGTH && isJobTitle(text) ? text : null;
}

/** The element's first line of text ("Title<br>address" → "Title"), unless it is an address. */
function firstLine(element: HTMLElement): string | null {
  const line = cleanText(element.structuredText.split("\n").find((text) => cleanText(text) !== null));
  return line === null || line.includes("@") || line.includes("[email") ? null : line;
}

function contains(ancestor: HTMLElement, element: HTMLElement): boolean {
  for (let node: HTMLElement | null = element.parentNode; node !== null; node = node.parentNode) {
    if (node === ancestor) return true;
  }
  return false;
}
