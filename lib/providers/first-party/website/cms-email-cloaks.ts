import type { HTMLElement } from "node-html-parser";
import { parseHtml } from "@/lib/providers/first-party/website/html";

/*
 * The email cloaking of the two CMSs most common on club, school, university and municipal sites. The page carries the
 * address itself, only encoded for a script to unmask. Joomla (on by default):
 * - Joomla 4 and later: `<joomla-hidden-mail is-email="1" first="base64(local part)" last="base64(domain)">`;
 * - Joomla 3: a `<span id="cloak…">` and an inline script building `addy…` from quoted, entity-encoded pieces:
 *   `var addy5c = 'info' + '&#64;'; addy5c = addy5c + 'verein' + '&#46;' + 'example';`.
 * TYPO3 (`spamProtectEmailAddresses`): the `mailto:` URL with each character of three ranges shifted within its range,
 * in `data-mailto-token` (TYPO3 11 and later) or `javascript:linkTo_UnCryptMailto('…')` (earlier). The shift is a site
 * setting (-10 to 10); the one that turns the token into a `mailto:` URL is the one the site used.
 * Candidates are returned unvalidated.
 */

/** One `addy…` assignment: its variable and the quoted pieces it appends (JS string concatenation, no escapes). */
const ADDY_ASSIGNMENT = /\b(addy[0-9a-f]+)\s*=\s*(?:addy[0-9a-f]+\s*\+\s*)?((?:'[^'\n]{0,200}'\s*\+?\s*){1,20});/gi;
const QUOTED = /'([^'\n]*)'/g;

export function joomlaCloakedEmails(root: HTMLElement): string[] {
  const hiddenMail = root.querySelectorAll("joomla-hidden-mail[is-email='1']").flatMap((element) => {
    const local = fromBase64(element.getAttribute("first"));
    const domain = fromBase64(element.getAttribute("last"));
    return local === null || domain === null ? [] : [`${local}@${domain}`];
  });
  const scripts = root
    .querySelectorAll("script")
    .flatMap((script) => (script.rawText.includes("addy") ? classicCloaks(script.rawText) : []));
  return [...hiddenMail, ...scripts];
}

export function typo3CloakedEmails(root: HTMLElement): string[] {
  const tokens = root
    .querySelectorAll("a[data-mailto-token], a[href^='javascript:linkTo_UnCryptMailto']")
    .map(
      (anchor) =>
        anchor.getAttribute("data-mailto-token") ??
        /linkTo_UnCryptMailto\(\s*(?:%27|')([^'%]{1,400})/.exec(anchor.getAttribute("href") ?? "")?.[1] ??
        "",
    );
  return tokens.flatMap((token) => {
    for (let shift = -TYPO3_MAX_SHIFT; shift <= TYPO3_MAX_SHIFT; shift++) {
      const decoded = shiftTypo3(token, shift);
      if (decoded.startsWith("mailto:")) return [decoded.slice("mailto:".length).split("?")[0]!];
    }
    return [];
  });
}

const TYPO3_MAX_SHIFT = 10;
/** The character ranges TYPO3 shifts, each within itself: "+" to ":", "@" to "Z", "a" to "z". */
const TYPO3_RANGES: readonly (readonly [number, number])[] = [
  [0x2b, 0x3a],
  [0x40, 0x5a],
  [0x61, 0x7a],
];

function shiftTypo3(token: string, shift: number): string {
  return Array.from(token, (character) => {
    const code = character.charCodeAt(0);
    const range = TYPO3_RANGES.find(([start, end]) => code >= start && code <= end);
    if (range === undefined) return character;
    const [start, end] = range;
    const size = end - start + 1;
    return String.fromCharCode(start + ((((code - start + shift) % size) + size) % size));
  }).join("");
}

function classicCloaks(script: string): string[] {
  const addresses = new Map<string, string>();
  for (const [, variable, pieces] of script.matchAll(ADDY_ASSIGNMENT)) {
    const text = Array.from(pieces!.matchAll(QUOTED), ([, piece]) => piece).join("");
    addresses.set(variable!, (addresses.get(variable!) ?? "") + text);
  }
  return [...addresses.values()].map((encoded) => parseHtml(encoded).text);
}

function fromBase64(value: string | undefined): string | null {
  if (value === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, "base64").toString("utf8");
}
