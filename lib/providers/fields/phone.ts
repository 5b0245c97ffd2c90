/*
 * Phone numbers as published on websites, in E.164 ("+12175550142"), without guessing. A number written in
 * international form ("+49 (0)30 1234 5678", "0049 30 …", "+1 217-555-0142") keeps its country code. A number
 * written in national form is converted only when the country is known (the organization's stated address) and is
 * one whose national format we check here: the NANP countries (US, CA), Germany and the United Kingdom. Anything else
 * is dropped: a wrong country code makes a number that reaches a stranger, worse than no number.
 *
 * This is deliberately small. A full numbering-plan library (libphonenumber) would validate every country's ranges;
 * these checks only keep out what cannot be a dialable number of the countries named.
 */

/** The countries whose national format we convert, by the names and codes sites write in their addresses. */
const COUNTRY_NAMES: Record<string, "US" | "CA" | "DE" | "GB"> = {
  us: "US",
  usa: "US",
  "u.s.": "US",
  "u.s.a.": "US",
  "united states": "US",
  "united states of america": "US",
  ca: "CA",
  can: "CA",
  canada: "CA",
  de: "DE",
  deu: "DE",
  germany: "DE",
  deutschland: "DE",
  gb: "GB",
  gbr: "GB",
  uk: "GB",
  "u.k.": "GB",
  "united kingdom": "GB",
  "great britain": "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
};

export type PhoneCountry = (typeof COUNTRY_NAMES)[string];

/** The country an address's `country` names, when it is one whose national numbers we can convert. */
export function phoneCountry(country: string | null | undefined): PhoneCountry | null {
  if (!country) return null;
  return COUNTRY_NAMES[country.trim().toLowerCase().replace(/\s+/g, " ")] ?? null;
}

/** Characters people put between digits; anything else (letters, "ext") ends or spoils the number. */
const SEPARATORS = /[\s().\-/\u00a0\u2010-\u2015]/g;
/** "ext. 12", "x12", "#12", ";ext=12" after the number. */
const EXTENSION = /\s*(?:;\s*ext=|,|\b(?:ext|extension|durchwahl|dw)\.?|\bx|#)\s*\d{1,6}\s*$/i;

/** NANP: area code and exchange both start with 2–9 (so a leading 0/1 is not a number). */
function nanp(national: string): string | null {
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(national) ? `+1${national}` : null;
}

/** The E.164 form of a number with its country code, when it has a plausible length for that code. */
function international(digits: string): string | null {
  if (digits.startsWith("1")) return nanp(digits.slice(1));
  // Germany: area code and subscriber number, 6–13 digits after the country code, never starting with 0.
  if (digits.startsWith("49")) return /^49[1-9]\d{5,12}$/.test(digits) ? `+${digits}` : null;
  // UK: 10 digits after the country code (a few areas have 9), never starting with 0.
  if (digits.startsWith("44")) return /^44[1-9]\d{8,9}$/.test(digits) ? `+${digits}` : null;
  // Elsewhere: E.164 allows at most 15 digits; no country code starts with 0, and no full number is shorter than 8.
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
}

/**
 * `raw` (a number as printed) in E.164, or null when it is not a number we can write so without guessing.
 * `country` is the country of the organization's address, used only for numbers written without a country code.
 */
export function toE164(raw: string, country: PhoneCountry | null): string | null {
  let text = raw.trim().replace(/^tel:/i, "").replace(EXTENSION, "");
  // "+49 (0)30 …": the national trunk prefix in brackets is not dialled from abroad.
  text = text.replace(/^(\+\d{1,3})\s*\(0\)/, "$1");
  const compact = text.replace(SEPARATORS, "");
  if (!/^\+?\d+$/.test(compact)) return null;

  if (compact.startsWith("+")) return international(compact.slice(1));
  if (compact.startsWith("00")) return international(compact.slice(2));
  // From inside NANP, 011 dials abroad.
  if ((country === "US" || country === "CA") && compact.startsWith("011")) return international(compact.slice(3));

  switch (country) {
    case "US":
    case "CA":
      if (compact.length === 11 && compact.startsWith("1")) return nanp(compact.slice(1));
      return compact.length === 10 ? nanp(compact) : null;
    case "DE":
      // National form starts with the trunk prefix 0; without it the area code is missing.
      return /^0[1-9]\d{5,12}$/.test(compact) ? `+49${compact.slice(1)}` : null;
    case "GB":
      return /^0[1-9]\d{8,9}$/.test(compact) ? `+44${compact.slice(1)}` : null;
    default:
      return null;
  }
}
