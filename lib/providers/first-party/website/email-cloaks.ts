import type { HTMLElement } from "node-html-parser";
import { parseHtml } from "@/lib/providers/first-party/website/html";

/*
 * Addresses a page carries encoded for a script to unmask: the email cloaking of the two CMSs most common on club,
 * school, university and municipal sites, and hand-made `document.write` links. Joomla (on by default):
 * - Joomla 4 and later: `<joomla-hidden-mail is-email="1" first="base64(local part)" last="base64(domain)">`;
 * - Joomla 3: a `<span id="cloak…">` and an inline script building `addy…` from quoted, entity-encoded pieces:
 *   `var addy5c = 'info' + '&#64;'; addy5c = addy5c + 'verein' + '&#46;' + 'example';`.
 * TYPO3 (`spamProtectEmailAddresses`): the `mailto:` URL with each character of three ranges shifted within its range,
 * in `data-mailto-token` (TYPO3 11 and later) or `javascript:linkTo_UnCryptMailto('…')` (earlier). The shift is a site
 * setting (-10 to 10); the one that turns the token into a `mailto:` URL is the one the site used.
 * Candidates are returned unvalidated.
 */

/** One `addy…` assignment: its variable and the quoted pieces it appends (JS string concatenation, no escapes). */
const ADDY_ASSIGNMENT = /\baddy([0-9a-f]+)\s*=\s*(?:addy[0-9a-f]+\s*\+\s*)?((?:'[^'\n]{0,200}'\s*\+?\s*){1,20});/gi;
const QUOTED = /'([^'\n]*)'/g;

/** A cloaked address and the element that stands where a browser shows it (what is printed beside it is its context). */
export interface CloakedAddress {
  address: string;
  element: HTMLElement;
}

/** Every address the page hides behind Joomla's or TYPO3's cloaking, or in a `mailto:` link a script writes. */
export function cloakedAddresses(root: HTMLElement): CloakedAddress[] {
  return [...joomlaHiddenMail(root), ...joomlaCloakScripts(root), ...typo3Tokens(root), ...scriptWrittenMailto(root)];
}

/** A string concatenation seam in a script: `'mai' + 'lto:'`, `"info" + "&#64;"`. */
const CONCATENATION = /(['"])\s*\+\s*\1/g;
const MAILTO_IN_SCRIPT = /mai(?:&#108;|l)to:([^'"<>\s?]{3,200})/gi;

/**
 * The hand-made kind: `document.write('<a href="mai' + 'lto:' + 'info' + '&#64;' + 'club.example">…')`. Only the
 * target of a `mailto:` the script writes counts, never any address-like string in a script (bundles hold many).
 */
function scriptWrittenMailto(root: HTMLElement): CloakedAddress[] {
  return root
    .querySelectorAll("script:not([src])")
    .filter((script) => /document\.write|innerHTML|mai/i.test(script.rawText) && !script.rawText.includes("addy"))
    .flatMap((script) => {
      const joined = script.rawText.replace(CONCATENATION, "");
      return Array.from(joined.matchAll(MAILTO_IN_SCRIPT), ([, target]) => ({
        // Entities decoded ("info&#64;club.example").
        address: parseHtml(target!).text,
        element: script.parentNode ?? script,
      }));
    });
}

function joomlaHiddenMail(root: HTMLElement): CloakedAddress[] {
  return root.querySelectorAll("joomla-hidden-mail[is-email='1']").flatMap((element) => {
    const local = fromBase64(element.getAttribute("first"));
    const domain = fromBase64(element.getAttribute("last"));
    return local === null || domain === null ? [] : [{ address: `${local}@${domain}`, element }];
  });
}

/** Joomla 3: the script fills `<span id="cloak<id>">` with the address it builds in `addy<id>`. */
function joomlaCloakScripts(root: HTMLElement): CloakedAddress[] {
  return root
    .querySelectorAll("script")
    .filter((script) => script.rawText.includes("addy"))
    .flatMap((script) =>
      [...classicCloaks(script.rawText)].map(([id, address]) => ({
        address,
        element: root.querySelector(`#cloak${id}`) ?? script.parentNode ?? script,
      })),
    );
}

function typo3Tokens(root: HTMLElement): CloakedAddress[] {
  return root
    .querySelectorAll("a[data-mailto-token], a[href^='javascript:linkTo_UnCryptMailto']")
    .flatMap((element) => {
      const token =
        element.getAttribute("data-mailto-token") ??
        /linkTo_UnCryptMailto\(\s*(?:%27|')([^'%]{1,400})/.exec(element.getAttribute("href") ?? "")?.[1] ??
        "";
      for (let shift = -TYPO3_MAX_SHIFT; shift <= TYPO3_MAX_SHIFT; shift++) {
        const decoded = shiftTypo3(token, shift);
        if (decoded.startsWith("mailto:"))
          return [{ address: decoded.slice("mailto:".length).split("?")[0]!, element }];
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

/** The addresses a cloaking script builds, by the id its `addy<id>` variable and its `cloak<id>` span share. */
function classicCloaks(script: string): Map<string, string> {
  const encoded = new Map<string, string>();
  for (const [, id, pieces] of script.matchAll(ADDY_ASSIGNMENT)) {
    const text = Array.from(pieces!.matchAll(QUOTED), ([, piece]) => piece).join("");
    encoded.set(id!, (encoded.get(id!) ?? "") + text);
  }
  return new Map([...encoded].map(([id, text]) => [id, parseHtml(text).text]));
}

function fromBase64(value: string | undefined): string | null {
  if (value === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  return Buffer.from(value, "base64").toString("utf8");
}
