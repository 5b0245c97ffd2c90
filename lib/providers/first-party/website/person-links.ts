import { isKindKeyword, words } from "@/lib/providers/first-party/website/page-kinds";

/*
 * Links to one person's page. Staff lists, faculty directories and "our attorneys" pages link each person's own page,
 * and that page is where the person's address and position are printed; the crawler ranks such links high. Told from
 * the link text (a person's name, as directories print them) or from the path (a slug under a people section, as
 * "/staff/jane-doe" or "/team/j-doe.html").
 */

/** Titles before a name and words of link text that are never part of one. */
const HONORIFICS = new Set([
  "dr",
  "prof",
  "mr",
  "mrs",
  "ms",
  "mx",
  "rev",
  "fr",
  "sr",
  "hon",
  "herr",
  "frau",
  "dipl",
  "ing",
]);
const NOT_NAME_WORDS = new Set([
  "read",
  "more",
  "view",
  "learn",
  "see",
  "all",
  "home",
  "next",
  "previous",
  "back",
  "details",
  "detail",
  "profile",
  "bio",
  "click",
  "here",
  "our",
  "the",
  "and",
  "of",
  "for",
  "to",
  "us",
  "we",
  "news",
  "blog",
  "services",
  "service",
  "products",
  "product",
  "solutions",
  "menu",
  "login",
  "page",
  "full",
  "download",
  "values",
  "mission",
  "history",
  "meet",
]);
/** Path sections that list people. */
const PEOPLE_SECTIONS = new Set([
  "team",
  "our-team",
  "staff",
  "people",
  "faculty",
  "directory",
  "leadership",
  "board",
  "attorneys",
  "lawyers",
  "mitarbeiter",
  "ansprechpartner",
  "personen",
  "profile",
  "profiles",
  "bio",
  "bios",
  "members",
  "experts",
]);

/** A capitalised name part ("Jane", "O'Neil", "McKay", "Meyer-Lutz", "Žofie") or an initial ("Q", "Q."). */
const NAME_PART = /^(?:\p{Lu}[\p{L}\p{M}'’]*[\p{Ll}\p{M}](?:-\p{Lu}[\p{L}\p{M}'’]*[\p{Ll}\p{M}])*|\p{Lu}\.?)$/u;
/** Credentials after a comma: "MFA", "JD", "Ph.D.", "CPA®", "Jr.", "III". */
const POST_NOMINALS = /^(?:(?:\p{Lu}{2,}|\p{L}+\.(?:\p{L}+\.)*|Jr|Sr|Esq|[IVX]+)[®.]?\s*)+$/u;
/** Connecting particles that names carry in lower case. */
const PARTICLES = new Set(["van", "von", "der", "den", "de", "da", "di", "du", "del", "la", "le", "zu", "ten", "ter"]);

function isNameWords(parts: readonly string[]): boolean {
  const named = parts.filter((part) => !PARTICLES.has(part));
  if (named.length < 2 || named.length > 4 || parts.length > 6) return false;
  if (named.filter((part) => part.replace(/\.$/, "").length >= 2).length < 2) return false;
  return named.every((part) => {
    const lower = part.replace(/\.$/, "").toLowerCase();
    return NAME_PART.test(part) && !NOT_NAME_WORDS.has(lower) && !isKindKeyword(lower);
  });
}

/**
 * Link text that is a person's name as sites print them: "Jane Doe", "Dr. Jane Q. Doe", "Doe, Jane",
 * "Jane Doe, MFA", "Hans van der Berg". Text naming a page ("Contact Sales", "Our Team", "Read More") is not.
 */
export function looksLikePersonName(text: string): boolean {
  const cleaned = text.replace(/[\s\u00a0]+/g, " ").trim();
  if (cleaned.length < 4 || cleaned.length > 60 || /[0-9@|/:;!?()]/.test(cleaned)) return false;
  // "Jane Doe, JD" carries credentials after the comma; "Doe, Jane" is the directory order, last name first.
  const [before = "", ...after] = cleaned.split(",").map((part) => part.trim());
  const rest = after.filter((part) => !POST_NOMINALS.test(part));
  if (rest.length > 1) return false;
  const name = rest.length === 1 ? `${rest[0]} ${before}` : before;
  const parts = name.split(" ").filter((part) => !HONORIFICS.has(part.replace(/\.$/, "").toLowerCase()));
  return isNameWords(parts);
}

/** "/staff/jane-doe", "/team/j-doe.html", "/people/doe_jane/": a name slug directly under a people section. */
export function looksLikeProfilePath(url: URL): boolean {
  const segments = url.pathname
    .toLowerCase()
    .split("/")
    .filter((segment) => segment !== "");
  if (segments.length < 2) return false;
  const slug = segments.at(-1)!.replace(/\.(?:html?|php|aspx?)$/, "");
  if (!PEOPLE_SECTIONS.has(segments.at(-2)!)) return false;
  if (!/^\p{L}+(?:[-_.]\p{L}+){1,3}$/u.test(slug)) return false;
  const parts = words(slug).trim().split(" ");
  return parts.every((part) => !NOT_NAME_WORDS.has(part) && !isKindKeyword(part));
}
