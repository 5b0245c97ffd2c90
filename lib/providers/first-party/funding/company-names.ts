/*
 * Deciding whether a filing's issuer is the company we were asked about. Full-text search finds every filing that
 * mentions the phrase (funds that invested in it, a "… Holdings Trust" of the same stem), so only an issuer whose
 * name is the company's name, up to case, punctuation, accents and legal-form suffixes, counts.
 */

/** Legal-form words dropped from the end of a name: "Acme Robotics, Inc." and "ACME ROBOTICS LLC" are one company. */
const LEGAL_SUFFIXES = new Set([
  "inc",
  "incorporated",
  "llc",
  "lc",
  "ltd",
  "limited",
  "corp",
  "corporation",
  "co",
  "company",
  "plc",
  "lp",
  "llp",
  "lllp",
  "pbc",
  "pc",
  "gmbh",
  "ag",
  "kg",
  "ug",
  "se",
  "sa",
  "sas",
  "sarl",
  "srl",
  "spa",
  "bv",
  "nv",
  "oy",
  "ab",
  "as",
  "aps",
  "pty",
  "pte",
]);

const LEGAL_SUFFIX_PATTERN = [...LEGAL_SUFFIXES].join("|");
/** A trailing legal form as people write it: ", Inc.", " L.L.C.", " GmbH". */
const TRAILING_SUFFIX = new RegExp(`[\\s,]+(?:${LEGAL_SUFFIX_PATTERN.replace(/(\w)(?=\w)/g, "$1\\.?")})\\.?\\s*$`, "i");

/**
 * A comparable form of a company name: lower-case, accents and punctuation gone, "&" as "and", runs of single letters
 * joined ("L.L.C." → "llc"), a leading "the" and trailing legal forms dropped.
 */
export function normaliseCompanyName(name: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()
    .split(" ")
    .filter(Boolean);

  // Single letters in a row are one word ("l l c" → "llc", "a b c foods" → "abc foods").
  const joined: string[] = [];
  let previousWasLetters = false;
  for (const word of words) {
    const isLetter = word.length === 1 && /\p{L}/u.test(word);
    if (isLetter && previousWasLetters) joined[joined.length - 1] += word;
    else joined.push(word);
    previousWasLetters = isLetter;
  }
  if (joined[0] === "the" && joined.length > 1) joined.shift();
  while (joined.length > 1 && LEGAL_SUFFIXES.has(joined.at(-1) ?? "")) joined.pop();
  return joined.join(" ");
}

export function sameCompany(a: string, b: string): boolean {
  const left = normaliseCompanyName(a);
  return left !== "" && left === normaliseCompanyName(b);
}

/** The phrase to search for: the name as written, without quotes and trailing legal forms ("Acme, Inc." → "Acme"). */
export function searchPhrase(name: string): string {
  let phrase = name.replace(/["“”]/g, " ").replace(/\s+/g, " ").trim();
  for (let previous = ""; previous !== phrase;) {
    previous = phrase;
    const stripped = phrase.replace(TRAILING_SUFFIX, "").replace(/[\s,&]+$/, "");
    if (stripped !== "") phrase = stripped;
  }
  return phrase;
}

/** "Acme Robotics, Inc.  (ACME)  (CIK 0001234567)" → "Acme Robotics, Inc.": search hits decorate names this way. */
export function displayNameEntity(displayName: string): string {
  return displayName.replace(/(?:\s*\((?:CIK\s+\d+|[A-Z0-9.,\s-]{1,30})\))+\s*$/, "").trim();
}
