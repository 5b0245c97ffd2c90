import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import type { SiteTruth } from "./truth";

/*
 * How the product's answer for one corpus site compares with the site's labelled truth, and the corpus totals
 * (micro-averaged: counts are summed over sites before dividing). Pure functions; the runner feeds them.
 */

/** What the product returned for one site, in the terms the scoring needs. */
export interface SiteAnswer {
  emails: Pick<EmailRecord, "value" | "type" | "firstName" | "lastName" | "position">[];
  pattern: string | null;
  technologies: string[];
}

/** `hits` of `of`; the share is null when there was nothing to count. */
export interface Tally {
  hits: number;
  of: number;
}

/** A field the product attached differently from the truth. */
export interface Mismatch {
  address: string;
  expected: string;
  returned: string | null;
}

export interface SiteScore {
  host: string;
  /** Truth addresses returned, of the truth addresses. */
  recall: Tally;
  /** Returned addresses that are in the truth, of those returned (whatever their confidence). */
  precision: Tally;
  /** Truth `generic` addresses returned typed `personal`. */
  roleTypedPersonal: string[];
  /** Returned truth personal addresses with a printed first and last name: both returned equal. */
  names: Tally;
  /** Returned truth personal addresses with a printed position: returned equal. */
  positions: Tally;
  pattern: { expected: string | null; returned: string | null };
  technologyRecall: Tally;
  /** Detected technologies that are in the truth or acceptable, of those detected. */
  technologyPrecision: Tally;
  missed: string[];
  extra: string[];
  nameMismatches: Mismatch[];
  positionMismatches: Mismatch[];
  missedTechnologies: string[];
  extraTechnologies: string[];
}

export interface TotalScore {
  sites: number;
  recall: Tally;
  precision: Tally;
  roleTypedPersonal: number;
  names: Tally;
  positions: Tally;
  /** Over sites whose truth names a pattern: the returned pattern is that one. */
  pattern: Tally;
  /** Sites whose truth names no pattern but the product returned one. */
  unexpectedPatterns: number;
  technologyRecall: Tally;
  technologyPrecision: Tally;
}

export function share(tally: Tally): number | null {
  return tally.of === 0 ? null : tally.hits / tally.of;
}

/** Names compared as a reader would: case, accents and spacing aside ("José" = "jose"). */
function foldText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").replace(/\s+/g, " ").trim().toLowerCase();
}

function sameText(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && foldText(a) === foldText(b);
}

function countWhere<T>(items: readonly T[], test: (item: T) => boolean): Tally {
  return { hits: items.filter(test).length, of: items.length };
}

export function scoreSite(truth: SiteTruth, answer: SiteAnswer): SiteScore {
  const returned = new Map(answer.emails.map((email) => [email.value.toLowerCase(), email]));
  const truthAddresses = new Set(truth.emails.map((email) => email.address));
  const found = truth.emails.flatMap((email) => {
    const record = returned.get(email.address);
    return record === undefined ? [] : [{ truth: email, record }];
  });
  const personal = found.filter(({ truth: email }) => email.type === "personal");
  const named = personal.filter(({ truth: email }) => email.firstName !== null && email.lastName !== null);
  const positioned = personal.filter(({ truth: email }) => email.position !== null);
  const namesMatch = ({ truth: email, record }: (typeof found)[number]) =>
    sameText(email.firstName, record.firstName) && sameText(email.lastName, record.lastName);
  const positionMatches = ({ truth: email, record }: (typeof found)[number]) =>
    sameText(email.position, record.position);

  const expectedOrAcceptable = new Set([...truth.technologies, ...truth.acceptableTechnologies]);
  const detected = [...new Set(answer.technologies)];

  return {
    host: truth.host,
    recall: { hits: found.length, of: truth.emails.length },
    precision: {
      hits: [...returned.keys()].filter((address) => truthAddresses.has(address)).length,
      of: returned.size,
    },
    roleTypedPersonal: found
      .filter(({ truth: email, record }) => email.type === "generic" && record.type === "personal")
      .map(({ truth: email }) => email.address),
    names: countWhere(named, namesMatch),
    positions: countWhere(positioned, positionMatches),
    pattern: { expected: truth.pattern, returned: answer.pattern },
    technologyRecall: countWhere(truth.technologies, (name) => detected.includes(name)),
    technologyPrecision: countWhere(detected, (name) => expectedOrAcceptable.has(name)),
    missed: truth.emails.filter((email) => !returned.has(email.address)).map((email) => email.address),
    extra: [...returned.keys()].filter((address) => !truthAddresses.has(address)),
    nameMismatches: named
      .filter((pair) => !namesMatch(pair))
      .map(({ truth: email, record }) => ({
        address: email.address,
        expected: `${email.firstName} ${email.lastName}`,
        returned: [record.firstName, record.lastName].filter((part) => part !== null).join(" ") || null,
      })),
    positionMismatches: positioned
      .filter((pair) => !positionMatches(pair))
      .map(({ truth: email, record }) => ({
        address: email.address,
        expected: email.position ?? "",
        returned: record.position,
      })),
    missedTechnologies: truth.technologies.filter((name) => !detected.includes(name)),
    extraTechnologies: detected.filter((name) => !expectedOrAcceptable.has(name)),
  };
}

function sum(tallies: readonly Tally[]): Tally {
  return tallies.reduce((total, tally) => ({ hits: total.hits + tally.hits, of: total.of + tally.of }), {
    hits: 0,
    of: 0,
  });
}

export function totalScore(scores: readonly SiteScore[]): TotalScore {
  const withPattern = scores.filter((score) => score.pattern.expected !== null);
  return {
    sites: scores.length,
    recall: sum(scores.map((score) => score.recall)),
    precision: sum(scores.map((score) => score.precision)),
    roleTypedPersonal: scores.reduce((total, score) => total + score.roleTypedPersonal.length, 0),
    names: sum(scores.map((score) => score.names)),
    positions: sum(scores.map((score) => score.positions)),
    pattern: countWhere(withPattern, (score) => score.pattern.returned === score.pattern.expected),
    unexpectedPatterns: scores.filter((score) => score.pattern.expected === null && score.pattern.returned !== null)
      .length,
    technologyRecall: sum(scores.map((score) => score.technologyRecall)),
    technologyPrecision: sum(scores.map((score) => score.technologyPrecision)),
  };
}
