import { isRoleWord } from "@/lib/providers/first-party/email/classify-email";
import { isJobTitle } from "@/lib/providers/first-party/email/job-title";
import { cleanText } from "@/lib/providers/first-party/website/html";

/*
 * People's names as sites print them: "Jane Q. Doe", "Prof. Dr. Hannah Schmidt", "Dipl.-Ing. Jörg Weiß", "Sam O'Neill,
 * MBA", "Lee Park JD", "Ann Ruiz, CPA®", and in directories "Doe, Jane" — read into first and last name. Headings,
 * departments and buttons that happen to be two capitalised words ("Our Team", "Scholarship Applications", "Board of
 * Directors") are not names: a word that names a role mailbox, an office or a page is never part of one.
 */

export interface PersonName {
  /** The name without honorifics or post-nominals, first name first ("Doe, Jane" → "Jane Doe"). */
  fullName: string;
  firstName: string;
  lastName: string;
}

/** Titles before a name, compared without dots and case ("Prof.", "Dr.-Ing.", "Dipl.-Kfm.", "OStR"). */
const HONORIFICS = new Set([
  "dr",
  "prof",
  "professor",
  "mr",
  "mrs",
  "ms",
  "mx",
  "miss",
  "sir",
  "dame",
  "rev",
  "revd",
  "reverend",
  "fr",
  "hon",
  "dipl",
  "dipl-ing",
  "dipl-kfm",
  "dipl-kff",
  "dipl-psych",
  "dipl-päd",
  "dr-ing",
  "med",
  "dent",
  "vet",
  "rer",
  "nat",
  "pol",
  "phil",
  "jur",
  "oec",
  "hc",
  "ing",
  "mag",
  "herr",
  "frau",
  "str",
  "ostr",
  "std",
  "ostd",
]);
/** Generational suffixes, degrees and credentials after a name ("… Jr.", "… JD", "… CPA®", "… M.A."). */
const POST_NOMINALS = new Set([
  "jr",
  "sr",
  "ii",
  "iii",
  "iv",
  "phd",
  "md",
  "mba",
  "esq",
  "cpa",
  "msc",
  "bsc",
  "ma",
  "ba",
  "bs",
  "ms",
  "jd",
  "llm",
  "mfa",
  "dds",
  "dmd",
  "rn",
  "bsn",
  "msn",
  "np",
  "aprn",
  "lcsw",
  "lpc",
  "lmft",
  "psyd",
  "edd",
  "med",
  "mat",
  "mph",
  "mpa",
  "dvm",
  "vmd",
  "dacvim",
  "dacvs",
  "dacvecc",
  "dabvp",
  "rvt",
  "lvt",
  "cvt",
  "do",
  "pa-c",
  "dpt",
  "fnp",
  "dnp",
  "lpn",
  "rdh",
  "facs",
  "facp",
  "frcs",
  "cfa",
  "cfp",
  "pe",
  "aia",
  "mdiv",
  "dmin",
  "obe",
  "mbe",
  "cbe",
  "ret",
]);
/** Lower-case name particles that may sit inside a name ("Ana de la Cruz"). */
const PARTICLES = new Set([
  "van",
  "von",
  "de",
  "der",
  "den",
  "da",
  "di",
  "del",
  "della",
  "la",
  "le",
  "du",
  "dos",
  "das",
  "bin",
  "ibn",
  "al",
  "ter",
  "ten",
  "zu",
  "el",
]);
/** Role-mailbox and job-title words that are also people's names. */
const NAMES_AMONG_ROLE_WORDS = new Set([
  "dev",
  "alexa",
  "gardner",
  "sydney",
  "paris",
  "india",
  "english",
  "head",
  "lead",
  "dean",
  "brand",
  "fleet",
  "nurse",
  "trainer",
  "ai",
  "marshall",
  "page",
  "grant",
]);
/** Words of headings, buttons, places, organisation units and kinds of business; with the role-mailbox words, never part of a name. */
const NOT_NAME_WORDS = new Set([
  ..."branch branches showroom showrooms store stores entries entry registration regatta shop studio depot plant site sites downtown uptown north south east west northern southern eastern western central upper lower new old annual spring fall winter january february march july september october november december monday tuesday wednesday thursday friday saturday sunday our the team about contact us meet get in touch join news careers career jobs services products product read more learn why how what who we are company leadership people management board boards press blog home privacy policy terms legal imprint impressum started demo book request sign log pricing features solutions customers partners support help office offices and for with of open positions apply now view all see follow share linkedin twitter email phone address headquarters founded mission values story history investors advisors applications fund funds directors staff faculty department departments committee council members volunteers events scholarship scholarships program programs ministry ministries school church club society association foundation center centre institute group division unit admissions athletics library counseling youth worship parish questions general information room hall campus location locations hours opening visit visitors guest guests student students parents alumni services page section menu search contact kontakt ansprechpartner ansprechpartnerin vorstand verwaltung sekretariat geschäftsstelle abteilung öffnungszeiten anfahrt team unser unsere ihr ihre director manager officer president treasurer secretary chairman chairwoman chairperson coordinator administrator assistant engineer developer designer consultant specialist representative hospital clinic practice surgery pet pets animal veterinary dental medical health pharmacy hotel restaurant cafe bakery brewery winery gallery museum theatre theater cinema academy college university kindergarten preschool nursery fitness salon motors insurance llp llc inc ltd gmbh corp corporation praxis kanzlei klinik apotheke".split(
    " ",
  ),
]);
/** A capitalised word that ends in a letter or an initial's dot: "O'Neill", "Anne-Marie", "Q.", not "Kids’". */
const NAME_TOKEN = /^\p{Lu}(?:[\p{L}'’-]*\p{L}|\.)?$/u;
const MAX_NAME_LENGTH = 70;

const bare = (token: string) => token.toLowerCase().replace(/[.’'®™©*]/g, "");
const isHonorific = (token: string) => HONORIFICS.has(bare(token));
/** "PhD", "M.A.", "CPA®". */
const isKnownPostNominal = (token: string) => POST_NOMINALS.has(bare(token)) || /^(?:[A-Z]\.){2,4}$/.test(token);
/** …or, after a name, any short all-capitals credential ("LCSW-C"). */
const isPostNominal = (token: string) => isKnownPostNominal(token) || /^[A-Z]{2,5}(?:-[A-Z]{1,3})?[®™]?$/.test(token);
const isNotNameWord = (token: string) => {
  const word = bare(token);
  const singular = word.endsWith("s") ? word.slice(0, -1) : word;
  return (
    !NAMES_AMONG_ROLE_WORDS.has(word) &&
    (NOT_NAME_WORDS.has(word) ||
      NOT_NAME_WORDS.has(singular) ||
      isRoleWord(word) ||
      isRoleWord(singular) ||
      isJobTitle(word))
  );
};

/**
 * The name tokens of one comma-free part: honorifics before it and credentials after it dropped. A whole name keeps
 * two tokens ("Jane DOE" is a name in capitals); the given names of "Quist, Harriet CPA®" keep one.
 */
function nameTokens(part: string, keep = 2): string[] {
  let tokens = part
    .trim()
    .split(" ")
    .filter((token) => token !== "");
  // "The Revd Jane Doe", "The Hon. John Smith": the article belongs to the style, not the name.
  if (tokens.length > 1 && bare(tokens[0]!) === "the" && isHonorific(tokens[1]!)) tokens = tokens.slice(1);
  while (tokens.length > 0 && isHonorific(tokens[0]!)) tokens = tokens.slice(1);
  const last = () => tokens[tokens.length - 1]!;
  while (tokens.length > 1 && (isKnownPostNominal(last()) || (tokens.length > keep && isPostNominal(last()))))
    tokens = tokens.slice(0, -1);
  return tokens;
}

/** "de", "van der", "El": a particle inside a name, whatever its case (not as the first name). */
const isParticle = (token: string) => PARTICLES.has(token.toLowerCase());
/** A credential in capitals ("DVM") is never a name, even where directories print names in capitals. */
const isCapitalCredential = (token: string) => token === token.toUpperCase() && isKnownPostNominal(token);

function isNameLike(tokens: readonly string[]): boolean {
  return (
    tokens.length > 0 &&
    !tokens.some(isCapitalCredential) &&
    NAME_TOKEN.test(tokens[0]!) &&
    NAME_TOKEN.test(tokens[tokens.length - 1]!) &&
    tokens.every((token) => NAME_TOKEN.test(token) || PARTICLES.has(token)) &&
    !tokens.some((token) => !PARTICLES.has(token) && isNotNameWord(token))
  );
}

/** Comma-separated parts after the name that are all credentials ("Jane Doe, CPA®, MBA"). */
export const isCredentials = (part: string) => part.trim().split(" ").every(isKnownPostNominal);

/**
 * A person's name read from text that is only a name (with titles, credentials, or "Last, First"), or null when it
 * is not one. A name needs two to five tokens, and the first and last must be capitalised name words.
 */
export function splitName(text: string | null | undefined): PersonName | null {
  const cleaned = cleanText(text);
  if (cleaned === null || cleaned.length > MAX_NAME_LENGTH) return null;
  if (/[\d@|/:;!?()[\]{}<>"“”„]/.test(cleaned)) return null;
  const parts = cleaned.split(",");
  while (parts.length > 1 && isCredentials(parts[parts.length - 1]!)) parts.pop();

  let tokens = nameTokens(parts[0]!);
  // "Doe, Jane Q." (directories): one surname (with its particles) before the comma, the given names after it.
  const given = parts.length >= 2 ? nameTokens(parts[1]!, 1) : [];
  const surnameFirst =
    tokens.filter((token) => !PARTICLES.has(token)).length === 1 &&
    given.length >= 1 &&
    given.length <= 3 &&
    isNameLike(given) &&
    isNameLike(tokens);
  if (surnameFirst) tokens = [...given, ...tokens];
  // Otherwise what follows a comma is a title or credentials ("Hannah Schmidt, Head of Marketing").
  if (tokens.length < 2 || tokens.length > 5 || !isNameLike(tokens) || isJobTitle(tokens.join(" "))) return null;
  if (!tokens.some((token) => token.replace(/[.’'-]/g, "").length >= 2)) return null;
  // The surname keeps the particles printed before it ("Daan de Wit" → "de Wit", "Femke van der Linden").
  let surnameStart = tokens.length - 1;
  while (surnameStart > 1 && isParticle(tokens[surnameStart - 1]!)) surnameStart--;
  const last = surnameFirst ? tokens.slice(given.length).join(" ") : tokens.slice(surnameStart).join(" ");
  return { fullName: tokens.join(" "), firstName: tokens[0]!.replace(/\.$/, ""), lastName: last };
}
