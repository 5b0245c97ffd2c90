/*
 * Countries as company addresses write them: a two-letter code ("US"), an English name ("United States"), the name in
 * the site's own language ("Deutschland") or a common short form ("USA"). A country filter matches every spelling
 * of the same country, so the filter and the stored text are both reduced to one normal form and compared against
 * every spelling of the country the filter names. Names come from the runtime's ICU data (Intl.DisplayNames).
 */

/** Languages whose country names company sites commonly state in their addresses. */
const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pt", "sv", "da", "pl"] as const;
/** ICU region codes that are not countries. */
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ"]);
/** Short forms ICU does not list. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: "US",
  "united states of america": "US",
  america: "US",
  uk: "GB",
  "great britain": "GB",
  britain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  "northern ireland": "GB",
  holland: "NL",
  "the netherlands": "NL",
  uae: "AE",
  "south korea": "KR",
  "korea, republic of": "KR",
  "czech republic": "CZ",
  russia: "RU",
};

/**
 * The comparable form of a country as written: lower-case, dots dropped, "&" read as "and", spaces collapsed.
 * `NORMALIZED_COUNTRY_SQL` in the company store computes the same in SQL; the two must stay the same.
 */
export function normalizeCountryText(text: string): string {
  return text.toLowerCase().replaceAll(".", "").replaceAll("&", "and").replace(/\s+/g, " ").trim();
}

let spellingsByCode: Map<string, Set<string>> | undefined;
let codeBySpelling: Map<string, string> | undefined;

function tables() {
  if (spellingsByCode && codeBySpelling) return { spellingsByCode, codeBySpelling };
  const byCode = new Map<string, Set<string>>();
  const bySpelling = new Map<string, string>();
  const namers = LANGUAGES.map((language) => new Intl.DisplayNames([language], { type: "region", fallback: "none" }));
  for (let first = 65; first <= 90; first += 1) {
    for (let second = 65; second <= 90; second += 1) {
      const code = String.fromCharCode(first, second);
      // Retired codes (DD, AN, YU…) are aliases ICU maps to their successor: only the current code is a country here.
      if (NOT_COUNTRIES.has(code) || Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      const names = namers.flatMap((namer) => {
        try {
          return namer.of(code) ?? [];
        } catch {
          return [];
        }
      });
      if (names.length === 0) continue;
      const spellings = new Set([code.toLowerCase(), ...names.map(normalizeCountryText)]);
      byCode.set(code, spellings);
      for (const spelling of spellings) if (!bySpelling.has(spelling)) bySpelling.set(spelling, code);
    }
  }
  for (const [alias, code] of Object.entries(ALIASES)) {
    byCode.get(code)?.add(alias);
    bySpelling.set(alias, code);
  }
  spellingsByCode = byCode;
  codeBySpelling = bySpelling;
  return { spellingsByCode: byCode, codeBySpelling: bySpelling };
}

/** The ISO 3166-1 alpha-2 code a country text names ("Germany", "de", "Deutschland" → "DE"), or null when unknown. */
export function countryCode(text: string): string | null {
  const normalized = normalizeCountryText(text);
  return tables().codeBySpelling.get(normalized) ?? null;
}

/**
 * Every normalized spelling of the country `text` names, to compare with normalized stored addresses. A text that
 * names no known country is its own only spelling, so it still matches an address that writes it the same way.
 */
export function countrySpellings(text: string): string[] {
  const code = countryCode(text);
  if (code === null) return [normalizeCountryText(text)];
  return [...(tables().spellingsByCode.get(code) ?? [])].sort();
}
