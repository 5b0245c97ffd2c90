import { isValidEmailSyntax } from "@/lib/providers/first-party/email/verification";
import { cloakedAddresses } from "@/lib/providers/first-party/website/email-cloaks";
import { spelledOutEmails } from "@/lib/providers/first-party/website/email-obfuscations";
import { parseHtml } from "@/lib/providers/first-party/website/html";
import { allJsonLdNodes, jsonLdNodes, textList } from "@/lib/providers/first-party/website/json-ld";
import { seamAwareMatcher } from "@/lib/providers/first-party/website/seam-matches";
import { sharedDomainEmails } from "@/lib/providers/first-party/website/shared-domain-emails";
import { textRuns } from "@/lib/providers/first-party/website/text-runs";

/*
 * Email addresses a page publishes, exactly as a reader would take them down: mailto links, schema.org `email`
 * properties, Cloudflare's and Joomla's email protection, plain text, and the disguises sites use (HTML entities, an
 * address split across inline tags, "name [at] domain [dot] com" and its German and bracketed variants, local parts
 * sharing one announced domain). Text is read run by run (see `textRuns`), so neighbouring elements never glue into
 * an address no page prints. Look-alikes that are not addresses (retina images such as "logo@2x.png", form
 * placeholders such as "you@example.com", package versions, handles) are dropped.
 */

/** How the address was found, best first: a link or structured data is meant to be mailed; a disguise is less sure. */
export type EmailEvidence = "mailto" | "json-ld" | "text" | "cfemail" | "obfuscated";

export interface FoundEmail {
  /** Lower-case. */
  address: string;
  evidence: EmailEvidence;
  pageUrl: string;
}

const EVIDENCE_RANK: Record<EmailEvidence, number> = { mailto: 0, "json-ld": 1, text: 2, cfemail: 3, obfuscated: 4 };

/** What follows "@" in asset names and bundles, never a top-level domain we mail. */
const FILE_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "svg",
  "webp",
  "avif",
  "ico",
  "bmp",
  "tif",
  "tiff",
  "css",
  "js",
  "mjs",
  "json",
  "xml",
  "pdf",
  "zip",
  "mp4",
  "webm",
  "mov",
  "mp3",
  "woff",
  "woff2",
  "ttf",
  "eot",
  "map",
]);
/** Domains of form placeholders and documentation. */
const PLACEHOLDER_DOMAINS = new Set([
  "example.com",
  "example.org",
  "example.net",
  "domain.com",
  "yourdomain.com",
  "your-domain.com",
  "yourcompany.com",
  "email.tld",
]);
/** A local part made only of a long hex run is a build hash or error-tracker key, not a mailbox. */
const HEX_TOKEN = /^[0-9a-f]{24,}$/;

/** An address as printed. Not after "@": "@jane@social.example" is a fediverse handle, not a mailbox. */
const EMAIL_IN_TEXT =
  /(?<![a-z0-9._%+@-])[a-z0-9](?:[a-z0-9._%+-]{0,62}[a-z0-9_%+-])?@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,8}[a-z]{2,24}(?![a-z0-9-])/gi;
const printedEmails = seamAwareMatcher(EMAIL_IN_TEXT);

/** The address, normalised, when it is one we would mail; null otherwise. */
export function acceptEmail(candidate: string): string | null {
  const address = candidate
    .trim()
    .toLowerCase()
    .replace(/^mailto:/, "")
    .replace(/[.,;:]+$/, "");
  if (!isValidEmailSyntax(address)) return null;
  const [local, domain] = address.split("@") as [string, string];
  if (FILE_EXTENSIONS.has(domain.slice(domain.lastIndexOf(".") + 1))) return null;
  if (PLACEHOLDER_DOMAINS.has(domain) || HEX_TOKEN.test(local)) return null;
  return address;
}

/** The addresses of a `mailto:` URL: percent-decoded, query dropped, comma- or semicolon-separated recipients split. */
export function mailtoAddresses(href: string): string[] {
  const recipients =
    href
      .trim()
      .replace(/^mailto:/i, "")
      .split("?")[0] ?? "";
  let decoded = recipients;
  try {
    decoded = decodeURIComponent(recipients);
  } catch {
    // A stray "%" leaves the recipients as written.
  }
  return decoded.split(/[,;]/).flatMap((part) => {
    const address = acceptEmail(part);
    return address === null ? [] : [address];
  });
}

/** Cloudflare's email protection: hex bytes, the first a key every following byte is XOR-ed with (UTF-8 inside). */
export function decodeCloudflareEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(hex)) return null;
  const bytes = Buffer.from(hex, "hex");
  const key = bytes[0]!;
  const decoded = new TextDecoder().decode(bytes.subarray(1).map((byte) => byte ^ key));
  return acceptEmail(decoded);
}

export function extractEmails(html: string, pageUrl: string): FoundEmail[] {
  const found = new Map<string, FoundEmail>();
  const add = (address: string | null, evidence: EmailEvidence) => {
    if (address === null) return;
    const known = found.get(address);
    if (known === undefined || EVIDENCE_RANK[evidence] < EVIDENCE_RANK[known.evidence])
      found.set(address, { address, evidence, pageUrl });
  };

  const root = parseHtml(html);
  for (const node of allJsonLdNodes(jsonLdNodes(root))) {
    for (const email of textList(node, "email")) add(acceptEmail(email), "json-ld");
  }
  for (const anchor of root.querySelectorAll("a[href], area[href]")) {
    const href = anchor.getAttribute("href") ?? "";
    if (/^\s*mailto:/i.test(href)) mailtoAddresses(href).forEach((address) => add(address, "mailto"));
    const protectedHex = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i.exec(href)?.[1];
    if (protectedHex !== undefined) add(decodeCloudflareEmail(protectedHex), "cfemail");
  }
  for (const element of root.querySelectorAll("[data-cfemail]"))
    add(decodeCloudflareEmail(element.getAttribute("data-cfemail") ?? ""), "cfemail");
  for (const { address } of cloakedAddresses(root)) add(acceptEmail(address), "obfuscated");

  const runs = textRuns(root);
  // Visible but not in the markup as written: it was entity-encoded or split across tags to hide it from scrapers.
  const inMarkup = new Set(Array.from(html.matchAll(EMAIL_IN_TEXT), ([address]) => address.toLowerCase()));
  for (const run of runs) {
    for (const [printed] of printedEmails(run)) {
      const address = acceptEmail(printed);
      if (address !== null) add(address, inMarkup.has(address) ? "text" : "obfuscated");
    }
    for (const spelled of spelledOutEmails(run)) add(acceptEmail(spelled), "obfuscated");
  }
  for (const shared of sharedDomainEmails(runs)) add(acceptEmail(shared), "obfuscated");
  // What a page shows visitors without JavaScript, often the plain form of an address a script writes.
  for (const noscript of root.querySelectorAll("noscript"))
    for (const shown of extractEmails(noscript.rawText, pageUrl)) add(shown.address, shown.evidence);
  return [...found.values()];
}
