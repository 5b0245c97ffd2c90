/*
 * What a page of a company site is about, told from a link's path and text: the kinds of page that print addresses
 * and people (contact, team, imprint, locations, departments, about, security, events, press, careers, legal), in
 * several languages. Paths are matched by whole words ("/about-us", "/ueber-uns/team"), so "/contactless-payments" is
 * not a contact page. How much a kind is worth to the crawl lives in link-ranking.ts, not here.
 */

export type PageKind =
  | "home"
  | "contact"
  | "team"
  | "imprint"
  | "locations"
  | "department"
  | "about"
  | "security"
  | "events"
  | "press"
  | "careers"
  | "legal"
  | "other";

export type NamedPageKind = Exclude<PageKind, "home" | "other">;

/*
 * Phrases as word sequences; a path segment or link text matches when it contains one as whole words. The order of
 * the kinds decides between two that both match one segment ("contact our team" is a contact page). German compounds
 * are listed whole, since whole-word matching cannot split "datenschutzerklaerung".
 */
const KEYWORDS: Readonly<Record<NamedPageKind, readonly string[]>> = {
  contact: [
    "contact",
    "contacts",
    "contact us",
    "kontakt",
    "kontaktformular",
    "contacto",
    "contactos",
    "contatti",
    "contato",
    "contactez nous",
    "get in touch",
    "reach us",
    "write to us",
    "customer service",
    "kundenservice",
    "support",
  ],
  team: [
    "team",
    "teams",
    "our team",
    "people",
    "our people",
    "leadership",
    "management",
    "founders",
    "staff",
    "staff directory",
    "faculty",
    "directory",
    "board",
    "trustees",
    "committee",
    "vorstand",
    "geschaeftsfuehrung",
    "geschäftsführung",
    "mitarbeiter",
    "mitarbeitende",
    "ansprechpartner",
    "ansprechpersonen",
    "personen",
    "kollegium",
    "equipe",
    "équipe",
    "equipo",
    "medewerkers",
    "attorneys",
    "lawyers",
    "clergy",
  ],
  imprint: [
    "imprint",
    "impressum",
    "legal notice",
    "legal notices",
    "mentions legales",
    "mentions légales",
    "site notice",
    "colofon",
    "aviso legal",
    "note legali",
    "anbieterkennzeichnung",
  ],
  locations: [
    "locations",
    "location",
    "our locations",
    "standorte",
    "standort",
    "branches",
    "branch",
    "filialen",
    "filiale",
    "niederlassungen",
    "showroom",
    "showrooms",
    "stores",
    "store locator",
    "offices",
    "our offices",
    "find us",
    "visit",
    "visit us",
    "plan your visit",
    "visitor information",
    "getting here",
    "anreise",
    "directions",
    "anfahrt",
    "dealers",
    "haendler",
    "händler",
    "sucursales",
    "agences",
    "vestigingen",
  ],
  department: [
    "department",
    "departments",
    "abteilung",
    "abteilungen",
    "fachbereich",
    "fachbereiche",
    "division",
    "divisions",
    "administration",
    "verwaltung",
    "ministries",
    "sales",
    "vertrieb",
    "wholesale",
    "trade accounts",
    "b2b",
    "einkauf",
    "purchasing",
    "procurement",
    "customer care",
    "kundendienst",
  ],
  about: [
    "about",
    "about us",
    "company",
    "ueber uns",
    "uber uns",
    "über uns",
    "wir ueber uns",
    "unternehmen",
    "who we are",
    "our story",
    "qui sommes nous",
    "chi siamo",
    "sobre nosotros",
    "over ons",
  ],
  security: [
    "security",
    "vulnerability disclosure",
    "responsible disclosure",
    "report a vulnerability",
    "bug bounty",
    "psirt",
    "sicherheit",
    "trust center",
    "safety",
    "product safety",
    "recalls",
    "product recalls",
  ],
  events: [
    "events",
    "event",
    "veranstaltungen",
    "termine",
    "whats on",
    "what s on",
    "agenda",
    "evenements",
    "événements",
  ],
  press: ["press", "newsroom", "presse", "pressroom", "media kit", "press releases", "pressemitteilungen"],
  careers: [
    "careers",
    "career",
    "jobs",
    "karriere",
    "stellenangebote",
    "stellen",
    "join us",
    "work with us",
    "vacancies",
    "vacatures",
    "open positions",
    "emplois",
    "empleo",
  ],
  legal: [
    "legal",
    "privacy",
    "privacy policy",
    "data protection",
    "datenschutz",
    "datenschutzerklaerung",
    "datenschutzerklärung",
    "dsgvo",
    "terms",
    "gdpr",
    "cookie policy",
    "privacidad",
    "confidentialite",
    "confidentialité",
  ],
};

const NAMED_KINDS = Object.keys(KEYWORDS) as NamedPageKind[];

/** Lower-case words of a path or text: "/Ueber-Uns/Team.html" → " ueber uns team html ". */
export function words(text: string): string {
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

function kindOfWords(haystack: string): NamedPageKind | null {
  return NAMED_KINDS.find((kind) => KEYWORDS[kind].some((phrase) => haystack.includes(` ${phrase} `))) ?? null;
}

/** Whether a word (lower case) is one of the kind keywords: such a word is a page's name, not a person's. */
export function isKindKeyword(word: string): boolean {
  return kindOfWords(` ${word.toLowerCase()} `) !== null;
}

/**
 * The kind of page a link leads to, from its path first (the last segment is the most specific: "/about/team" is a
 * team page) and its text second; "other" when neither says.
 */
export function pageKindOf(url: URL, linkText = ""): PageKind {
  const segments = url.pathname.split("/").filter((segment) => segment !== "");
  if (segments.length === 0) return "home";
  for (const segment of segments.reverse()) {
    const kind = kindOfWords(words(segment));
    if (kind !== null) return kind;
  }
  return kindOfWords(words(linkText)) ?? "other";
}

/** Paths that are files, not pages. */
const NOT_HTML =
  /\.(?:pdf|jpe?g|png|gif|svg|webp|avif|ico|css|js|mjs|json|xml|txt|zip|gz|rar|7z|docx?|xlsx?|pptx?|odt|ods|ics|vcf|mp3|mp4|webm|mov|avi|woff2?|ttf|eot|dmg|exe|apk)$/i;

export function looksLikeHtmlPage(url: URL): boolean {
  return !NOT_HTML.test(url.pathname);
}
