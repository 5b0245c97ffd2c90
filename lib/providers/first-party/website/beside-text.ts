import { isJobTitle } from "@/lib/providers/first-party/email/job-title";
import { cleanText } from "@/lib/providers/first-party/website/html";
import { isCredentials, type PersonName, splitName } from "@/lib/providers/first-party/website/person-names";

/*
 * A name and a position read from a short run of text printed beside an address: "Executive Director, Jane Q. Doe :",
 * "Jane Doe – Kassenwart –", "(Jane Doe, Treasurer)", "Contact Jane Doe at". The run is cut into parts at the
 * punctuation people put between a name, an office and an address; a part that is a name (or holds one, in prose)
 * is the person, a part that reads as a job title is their position.
 */

export interface Clue {
  name: PersonName | null;
  position: string | null;
}

export const NO_CLUE: Clue = { name: null, position: null };

const DASH = /\s[-–—]\s/;
const SEPARATORS = /\s[-–—]\s|[,;:|•·–—()[\]/\\]|\t|\s{3,}/;
/** Labels that introduce an address or a contact, never part of a name or an office. */
const LABEL =
  /^(?:e-?mail(?:\s+address)?|mail|contact(?:\s+person)?|kontakt|ansprechpartner(?:in)?|tel(?:efon|ephone)?|phone|fax|write\s+to|schreiben\s+sie\s+an|by|to|at|an|von|from)\b\.?\s*/i;
const MAX_POSITION_WORDS = 8;
const MAX_POSITION_LENGTH = 100;
/** Lower-case words a title may hold ("Head of Sales", "Leiterin für Presse und Öffentlichkeit"). */
const TITLE_SMALL_WORDS = new Set([
  "of",
  "and",
  "for",
  "the",
  "to",
  "in",
  "at",
  "&",
  "und",
  "für",
  "der",
  "die",
  "das",
  "des",
  "im",
  "de",
  "du",
  "la",
  "le",
  "y",
  "e",
]);
const isTitleWord = (word: string) => /^[\p{Lu}\d]/u.test(word) || TITLE_SMALL_WORDS.has(word);

function parts(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map((part) => cleanText(part.replace(LABEL, "")) ?? "")
    .filter((part) => part !== "");
}

/** Words of sentences that no title holds ("please write to our …", "bitte wenden Sie sich an …"). */
const PROSE_WORDS = new Set(
  "our your to please write contact talk call email e-mail mail reach about is are can will us we you or by with who bitte an sie uns ihr ihre unser unsere schreiben wenden kontaktieren oder zu ist sind".split(
    " ",
  ),
);
/** Prose, not a heading or a title ("contact Jane Doe at", "Or talk to our Events Manager"). */
const isProse = (part: string) => part.split(" ").some((word) => PROSE_WORDS.has(word.toLowerCase()));

/** A name in prose: the run of two to four words nearest the address that reads as a name. */
function nameWithin(part: string, nearEnd: boolean): PersonName | null {
  if (!isProse(part)) return null;
  const tokens = part.split(" ");
  const windows: { start: number; end: number }[] = [];
  for (let length = 4; length >= 2; length--)
    for (let start = 0; start + length <= tokens.length; start++) windows.push({ start, end: start + length });
  windows.sort((a, b) => (nearEnd ? b.end - a.end || a.start - b.start : a.start - b.start || b.end - a.end));
  for (const { start, end } of windows) {
    const name = splitName(tokens.slice(start, end).join(" "));
    if (name !== null) return name;
  }
  return null;
}

/**
 * An office or job title: a title-case phrase that reads as one ("2. Vorsitzende", "Head of Engineering"), or, beside
 * a name, any short title-case label ("Community Outreach"). From prose, its title-case tail ("… talk to our Events
 * Manager" → "Events Manager").
 */
export function asPosition(text: string | null | undefined, besideName: boolean): string | null {
  // "Our head brewer": the possessive is the site speaking, not part of the title.
  let cleaned = cleanText(
    text?.replace(/^[\s.,;:–—-]+|[\s:,;–—-]+$/g, "").replace(/^(?:our|unser(?:e|er)?|notre|nos|onze)\s+/i, ""),
  );
  if (cleaned === null || cleaned.length > MAX_POSITION_LENGTH) return null;
  // An ordinal starts German offices ("1. Vorsitzender"); other digits are phone numbers and dates.
  if (/[@:\d]/.test(cleaned.replace(/^\d{1,2}\.\s/, "")) || cleaned.includes("[email")) return null;
  if (isProse(cleaned)) {
    const words = cleaned.split(" ");
    let start = words.length;
    while (start > 0 && isTitleWord(words[start - 1]!)) start--;
    cleaned = words.slice(start).join(" ");
    if (cleaned === "" || !isJobTitle(cleaned)) return null;
  }
  if (cleaned.split(" ").length > MAX_POSITION_WORDS || splitName(cleaned) !== null) return null;
  // "Karim Benali – Responsable du pôle juridique" is a name and a title; a comma joins parts of one title
  // ("Associate, Residential Valuation"), so only a dash is read as setting a name apart.
  if (DASH.test(cleaned) && cleaned.split(DASH).some((part) => splitName(part) !== null)) return null;
  return isJobTitle(cleaned) || (besideName && /^\p{Lu}/u.test(cleaned)) ? cleaned : null;
}

/**
 * What a run of text beside an address says about its owner. `nearEnd`: the run stands before the address, so the
 * name nearest its end is the one meant; after the address, the nearest is at its start.
 */
export function readBeside(text: string, nearEnd: boolean): Clue {
  const pieces = parts(text);
  let name: PersonName | null = null;
  let nameParts: number[] = [];
  const order = nearEnd ? [...pieces.keys()].reverse() : [...pieces.keys()];
  for (const index of order) {
    const piece = pieces[index]!;
    name = splitName(piece) ?? (piece.split(" ").length > 2 ? nameWithin(piece, nearEnd) : null);
    nameParts = [index];
    // "Doe, Jane" was cut at its comma: the directory form is read from the two pieces together.
    const next = pieces[index + 1];
    if (name === null && !piece.includes(" ") && next !== undefined) {
      name = splitName(`${piece}, ${next}`);
      nameParts = [index, index + 1];
    }
    if (name !== null) break;
  }
  if (name === null) nameParts = [];
  const others = pieces.filter((piece, index) => !nameParts.includes(index) && !isCredentials(piece));
  const position =
    officesInARow(others.map((piece) => asPosition(piece, false))) ??
    (name !== null && others.length === 1 ? asPosition(others[0], true) : null);
  return { name, position };
}

/** The first run of pieces that read as offices, as printed ("Expert-comptable, associé gérant"). */
function officesInARow(positions: readonly (string | null)[]): string | null {
  const start = positions.findIndex((position) => position !== null);
  if (start === -1) return null;
  let end = start;
  while (end < positions.length && positions[end] !== null) end++;
  return positions.slice(start, end).join(", ");
}
