import { seamAwareMatcher } from "@/lib/providers/first-party/website/seam-matches";
import type { TextRun } from "@/lib/providers/first-party/website/text-runs";

/*
 * Addresses spelled out to keep them from scrapers, as sites write them: "jane [at] acme [dot] example",
 * "jane(at)acme(dot)example", "jane {at} acme.example", "jane (ät) verein (punkt) example", "jane.doe at acme dot
 * example", "jane dot doe [at] acme [dot] example". Runs are whitespace-collapsed, so a space is exactly " ", and a
 * run never spans a line break, so the parts of one address sit in one run. Candidates are returned unvalidated.
 */

const bracketed = (word: string) => ` ?[\\[({<] ?${word} ?[\\])}>] ?`;
/** "@" itself only inside brackets ("jane (@) acme.example"); "ät" is how German sites bracket it. */
const AT = `(${bracketed("(?:at|ät|@)")}| at )`;
const SPELLED_DOT = `(?:${bracketed("(?:dot|punkt)")}| (?:dot|punkt) )`;
const LOCAL_WORD = "[a-z0-9][a-z0-9._%+-]{0,63}";
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
/** Bounded repetitions only, so a long page costs linear time. */
const SPELLED_OUT = new RegExp(
  `(?<![a-z0-9._%+@-])((?:${LOCAL_WORD}${SPELLED_DOT}){0,3}${LOCAL_WORD})${AT}((?:${LABEL}(?:${SPELLED_DOT}|\\.)){1,8}[a-z]{2,24})(?![a-z0-9-])`,
  "gi",
);
const ANY_SPELLED_DOT = new RegExp(SPELLED_DOT, "gi");
const HAS_SPELLED_DOT = new RegExp(SPELLED_DOT, "i");
/** "jane.doe", "j_doe": a word joined by "." or "_" to another is a mailbox name, not a word of prose. */
const JOINED_NAME = /[a-z][._][a-z]/i;
/** Words that stand before " at " in ordinary prose ("reach us at …"); never read as a local part. */
const PROSE_WORDS = new Set([
  "us",
  "me",
  "we",
  "you",
  "him",
  "her",
  "them",
  "it",
  "look",
  "find",
  "reach",
  "call",
  "visit",
  "email",
  "mail",
  "write",
  "meet",
  "contact",
  "available",
  "based",
  "located",
]);

const spelledOutMatches = seamAwareMatcher(SPELLED_OUT);

/** "sales [at] acme [dot] example" → "sales@acme.example", for every believable spelled-out address in the run. */
export function spelledOutEmails(run: TextRun): string[] {
  return spelledOutMatches(run).flatMap(([, local, at, domain]) => {
    if (at!.toLowerCase() === " at " && !believablePlainAt(local!, domain!)) return [];
    return [`${local!.replace(ANY_SPELLED_DOT, ".")}@${domain!.replace(ANY_SPELLED_DOT, ".")}`];
  });
}

/**
 * A bare " at " is mostly prose ("find us at acme.example", "Jane at Acme"), so it is read as "@" only when the rest
 * is plainly disguised too: the domain spells out a dot ("acme dot example"), or the local part is a joined name
 * ("jane.doe at acme.example") and no prose word.
 */
function believablePlainAt(local: string, domain: string): boolean {
  if (PROSE_WORDS.has(local.toLowerCase())) return false;
  return HAS_SPELLED_DOT.test(domain) || JOINED_NAME.test(local);
}
