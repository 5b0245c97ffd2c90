/*
 * Industry keywords: the words a company uses most about itself (its description, meta keywords, JSON-LD), reduced to
 * what says what it does. They are stored per company and compared between companies to find competitors, so the
 * same word must always come out the same way: lower-case, singular, no filler.
 */

export interface IndustryKeywordOptions {
  /** Words not to return, typically the company's own name ("Acme Widgets GmbH" excludes "acme" and "widget"). */
  exclude?: string[];
}

const MAX_KEYWORDS = 30;
const MIN_LETTERS = 3;
/** Longer "words" are glued identifiers, hashes or URLs, not vocabulary. */
const MAX_LETTERS = 30;

const ENGLISH_STOPWORDS = `
  about above after again against all also among and another any are around because been before being below best
  between both but can cannot could did does doing down during each either even every few for from further get gets
  had has have having her here hers herself him himself his how however into its itself just least less like made
  make makes many may more most much must myself near need new next nor not now off once one only onto other others
  our ours ourselves out over own per same shall she should since some such than that the their theirs them
  themselves then there these they this those through thus too under until upon very via was were what when where
  whether which while who whom whose why will with within without would yet you your yours yourself yourselves
`;

const GERMAN_STOPWORDS = `
  aber alle allem allen aller alles als also auch auf aus bei beim bin bis bist das dass dem den der des die dies
  diese diesem diesen dieser dieses doch dort durch ein eine einem einen einer eines für hat hatte hier ich ihr ihre
  ihrem ihren ihrer ist jede jedem jeden jeder jedes kann kein keine können mehr mit nach nicht noch nur oder ohne
  sehr sein seine sich sie sind über und uns unser unsere unter vom von vor war waren was weil wenn werden wie wir
  wird wurde zum zur zwischen
`;

/** Words every website and legal name carries; they say nothing about an industry. */
const WEB_AND_LEGAL_WORDS = `
  home page pages website site web www http https com html welcome contact about click here read learn more login
  sign menu search privacy policy cookie cookies terms conditions copyright rights reserved imprint impressum
  datenschutz inc llc ltd gmbh corp corporation company limited plc kommanditgesellschaft
`;

const STOPWORDS = new Set(
  `${ENGLISH_STOPWORDS} ${GERMAN_STOPWORDS} ${WEB_AND_LEGAL_WORDS}`.split(/\s+/).filter(Boolean),
);

/** Endings that look plural but are not ("business", "status", "analysis", "analytics", "saas"). */
const NOT_PLURAL = ["ss", "us", "is", "ics", "as"];

/** Lower-case singular keywords, most frequent first (ties in order of first use), at most MAX_KEYWORDS. */
export function industryKeywords(texts: string[], options: IndustryKeywordOptions = {}): string[] {
  const excluded = new Set(options.exclude?.flatMap(words));
  const counts = new Map<string, number>();
  for (const word of texts.flatMap(words)) {
    if (excluded.has(word)) continue;
    // A Map iterates in insertion order, which keeps first use as the tie-breaker of the stable sort below.
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_KEYWORDS)
    .map(([word]) => word);
}

/** The content words of a text: letters only (any script), lower-case, singular, of a sensible length, no stopwords. */
function words(text: string): string[] {
  const found =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [];
  return found.flatMap((word) => {
    if (word.length < MIN_LETTERS || word.length > MAX_LETTERS || STOPWORDS.has(word)) return [];
    const folded = singular(word);
    // Checked again once folded: "others" is "other", a stopword.
    return STOPWORDS.has(folded) ? [] : [folded];
  });
}

/** English plural folding, deliberately simple: the same input always gives the same output, which is what matching needs. */
export function singular(word: string): string {
  if (word.length <= MIN_LETTERS || NOT_PLURAL.some((ending) => word.endsWith(ending))) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(?:sses|xes|zes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}
