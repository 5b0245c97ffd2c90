import { givenNameForms } from "@/lib/providers/first-party/email/nicknames";
import { isValidEmailSyntax } from "@/lib/providers/first-party/email/verification";

/*
 * A company's address format ("{first}.{last}") inferred from addresses whose owners we know by name, and addresses
 * built from that format for people we know by name only.
 *
 * Names become ASCII the way mail administrators usually make them: lower-cased, accents dropped (José → jose,
 * Müller → muller), letters without a decomposition spelled out (ß → ss, æ → ae, ø → o, ł → l), apostrophes, dots
 * and spaces removed (O'Neill → oneill, van Dijk → vandijk). Some spellings are also *recognised* but never *built*:
 * German umlauts as ae/oe/ue (mueller), double-barrelled names without their hyphen (smithjones), a surname with
 * particles by its last word (van der Linden → linden) and the short forms
 * of a given name (Christopher → chris.coyle). Built addresses keep the hyphen and drop the accent, the most common
 * choice. A name printed as an initial ("J. Oakes") cannot tell {first} from {f}: it counts as {f}.
 */

export const EMAIL_PATTERNS = [
  "{first}.{last}",
  "{first}{last}",
  "{f}{last}",
  "{f}.{last}",
  "{first}",
  "{last}",
  "{first}_{last}",
  "{first}-{last}",
  "{last}.{first}",
  "{last}{first}",
  "{last}{f}",
  "{first}{l}",
  "{f}{l}",
  "{last}_{first}",
] as const;

export type EmailPattern = (typeof EMAIL_PATTERNS)[number];

export interface EmailPatternSample {
  email: string;
  firstName: string;
  lastName: string;
}

export interface InferredEmailPattern {
  pattern: EmailPattern;
  /** 0–1: grows with samples that agree, falls with samples that do not. */
  confidence: number;
  /** Samples the pattern reproduces. */
  matches: number;
  /** Samples at the domain with both names. */
  samples: number;
}

/** More than this is never claimed from addresses alone: a company may have exceptions we have not seen. */
const MAX_CONFIDENCE = 0.97;

const SPELLED_OUT: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  þ: "th",
  ł: "l",
  ı: "i",
};
const GERMAN_UMLAUTS: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue" };

function isEmailPattern(pattern: string): pattern is EmailPattern {
  return (EMAIL_PATTERNS as readonly string[]).includes(pattern);
}

/** The ASCII spellings of one name, the one we build addresses with first. Empty when nothing is left. */
export function nameSpellings(name: string): string[] {
  const lower = name.normalize("NFC").trim().toLowerCase();
  // A surname with particles ("van der Linden") is also recognised by its last word alone (linden@).
  const lastWord = lower.includes(" ") ? [lower.slice(lower.lastIndexOf(" ") + 1)] : [];
  const written = [lower, ...lastWord];
  const spellings = [
    ...written,
    ...written.map((spelling) => spelling.replace(/[äöü]/g, (letter) => GERMAN_UMLAUTS[letter]!)),
  ].map((spelling) =>
    spelling
      .replace(/[ßæœøđðþłı]/g, (letter) => SPELLED_OUT[letter]!)
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .replace(/[^a-z0-9-]/g, "")
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, ""),
  );
  const withoutHyphens = spellings.map((spelling) => spelling.replace(/-/g, ""));
  return [...new Set([...spellings, ...withoutHyphens])].filter((spelling) => spelling !== "");
}

function localPart(pattern: EmailPattern, first: string, last: string): string {
  return pattern
    .replace("{first}", first)
    .replace("{last}", last)
    .replace("{f}", first.slice(0, 1))
    .replace("{l}", last.slice(0, 1));
}

/** The spellings of a given name and of its short or long forms ("Bob" → bob, robert). */
export function givenNameSpellings(name: string): string[] {
  const spellings = nameSpellings(name);
  return [...new Set([...spellings, ...spellings.flatMap(givenNameForms)])];
}

/** The patterns under which `local` is what a mail administrator would make of these names. */
function patternsProducing(local: string, firstName: string, lastName: string): EmailPattern[] {
  const firsts = givenNameSpellings(firstName);
  const lasts = nameSpellings(lastName);
  const initialOnly = (spellings: string[]) => spellings.every((spelling) => spelling.length === 1);
  return EMAIL_PATTERNS.filter(
    (pattern) =>
      !(initialOnly(firsts) && pattern.includes("{first}")) &&
      !(initialOnly(lasts) && pattern.includes("{last}")) &&
      firsts.some((first) => lasts.some((last) => localPart(pattern, first, last) === local)),
  );
}

/** The format of `domain`'s personal addresses, or null when no sample at the domain fits any known format. */
export function inferEmailPattern(samples: readonly EmailPatternSample[], domain: string): InferredEmailPattern | null {
  const host = domain.trim().toLowerCase();
  const byAddress = new Map<string, EmailPatternSample>();
  for (const sample of samples) {
    const email = sample.email.trim().toLowerCase();
    if (
      email.endsWith(`@${host}`) &&
      nameSpellings(sample.firstName).length > 0 &&
      nameSpellings(sample.lastName).length > 0
    ) {
      byAddress.set(email, sample);
    }
  }
  const counts = new Map<EmailPattern, number>();
  for (const [email, sample] of byAddress) {
    const local = email.slice(0, email.indexOf("@"));
    for (const pattern of patternsProducing(local, sample.firstName, sample.lastName))
      counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  let best: EmailPattern | null = null;
  // EMAIL_PATTERNS is ordered by how common each format is, so ties go to the more common one.
  for (const pattern of EMAIL_PATTERNS) {
    if ((counts.get(pattern) ?? 0) > (best === null ? 0 : (counts.get(best) ?? 0))) best = pattern;
  }
  if (best === null) return null;
  const matches = counts.get(best) ?? 0;
  const total = byAddress.size;
  // One sample gives 0.5, each further agreeing one halves the doubt; the share that agrees scales it down.
  const confidence = Math.min(MAX_CONFIDENCE, (1 - 0.5 ** matches) * (matches / total));
  return { pattern: best, confidence: Math.round(confidence * 100) / 100, matches, samples: total };
}

/** The address `pattern` gives this person at `domain`, or null for an unknown pattern or a name it cannot spell. */
export function emailFromPattern(pattern: string, firstName: string, lastName: string, domain: string): string | null {
  if (!isEmailPattern(pattern)) return null;
  const first = nameSpellings(firstName)[0];
  const last = nameSpellings(lastName)[0];
  const needsFirst = pattern.includes("{first}") || pattern.includes("{f}");
  const needsLast = pattern.includes("{last}") || pattern.includes("{l}");
  if ((needsFirst && first === undefined) || (needsLast && last === undefined)) return null;
  const address = `${localPart(pattern, first ?? "", last ?? "")}@${domain.trim().toLowerCase()}`;
  return isValidEmailSyntax(address) ? address : null;
}

/** The patterns that make `address` from these names; empty when none does. Lets callers match addresses to people. */
export function patternsForAddress(address: string, firstName: string, lastName: string): EmailPattern[] {
  const email = address.trim().toLowerCase();
  const at = email.indexOf("@");
  return at > 0 ? patternsProducing(email.slice(0, at), firstName, lastName) : [];
}
