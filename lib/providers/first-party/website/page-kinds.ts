/*
 * Which pages of a company site are worth reading, told from a link's path and text: contact, about, team, imprint,
 * careers, press and legal pages, in that order of priority (contact pages carry addresses; team pages carry people).
 * Paths are matched by whole words ("/about-us", "/ueber-uns/team"), so "/contactless-payments" is not a contact page.
 */

export type PageKind = "home" | "contact" | "about" | "team" | "imprint" | "careers" | "press" | "legal" | "other";

export type WantedPageKind = Exclude<PageKind, "home" | "other">;

/** Highest priority first. */
export const WANTED_PAGE_KINDS: readonly WantedPageKind[] = [
  "contact",
  "about",
  "team",
  "imprint",
  "careers",
  "press",
  "legal",
];

// Phrases as word sequences; a path or link text matches when it contains one as whole words.
const KEYWORDS: Record<WantedPageKind, string[]> = {
  contact: ["contact", "contacts", "contact us", "kontakt", "contacto", "contatti", "get in touch", "reach us"],
  about: [
    "about",
    "about us",
    "company",
    "ueber uns",
    "uber uns",
    "über uns",
    "unternehmen",
    "who we are",
    "our story",
  ],
  team: [
    "team",
    "our team",
    "people",
    "leadership",
    "management",
    "founders",
    "staff",
    "mitarbeiter",
    "ansprechpartner",
  ],
  imprint: ["imprint", "impressum", "legal notice", "mentions legales", "mentions légales", "site notice"],
  careers: [
    "careers",
    "career",
    "jobs",
    "karriere",
    "stellenangebote",
    "join us",
    "work with us",
    "vacancies",
    "open positions",
  ],
  press: ["press", "newsroom", "presse", "pressroom", "media kit", "press releases"],
  legal: ["legal", "privacy", "privacy policy", "datenschutz", "terms", "gdpr", "cookie policy"],
};

/** Lower-case words of a path or text: "/Ueber-Uns/Team.html" → "ueber uns team html". */
function words(text: string): string {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // Keep malformed percent-escapes as they are.
  }
  return ` ${decoded
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;
}

function mentions(haystack: string, phrases: readonly string[]): boolean {
  return phrases.some((phrase) => haystack.includes(` ${phrase} `));
}

/**
 * The kind of page a link leads to, from its path first (the last segment is the most specific: "/about/team" is a
 * team page) and its text second; "other" when neither says.
 */
export function pageKindOf(url: URL, linkText = ""): PageKind {
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  if (segments.length === 0) return "home";
  for (const segment of segments.reverse()) {
    const path = words(segment);
    for (const kind of WANTED_PAGE_KINDS) if (mentions(path, KEYWORDS[kind])) return kind;
  }
  const text = words(linkText);
  for (const kind of WANTED_PAGE_KINDS) if (mentions(text, KEYWORDS[kind])) return kind;
  return "other";
}

/** Paths that are files, not pages. */
const NOT_HTML =
  /\.(?:pdf|jpe?g|png|gif|svg|webp|avif|ico|css|js|mjs|json|xml|txt|zip|gz|rar|7z|docx?|xlsx?|pptx?|mp3|mp4|webm|mov|avi|woff2?|ttf|eot|dmg|exe|apk)$/i;

export function looksLikeHtmlPage(url: URL): boolean {
  return !NOT_HTML.test(url.pathname);
}
