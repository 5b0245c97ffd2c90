import type { HTMLElement } from "node-html-parser";
import { parseHtml } from "@/lib/providers/first-party/website/html";

/*
 * Joomla's email cloaking, on by default in every Joomla site, so common on club, school and municipal pages. The page
 * carries the address itself, only encoded for a script to unmask:
 * - Joomla 4 and later: `<joomla-hidden-mail is-email="1" first="base64(local part)" last="base64(domain)">`;
 * - Joomla 3: a `<span id="cloak…">` and an inline script building `addy…` from quoted, entity-encoded pieces:
 *   `var addy5c = 'info' + '&#64;'; addy5c = addy5c + 'verein' + '&#46;' + 'example';`.
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
