import { emailType } from "@/lib/providers/first-party/email/classify-email";
import { givenNameSpellings, nameSpellings, patternsForAddress } from "@/lib/providers/first-party/email/email-pattern";
import { isJobTitle } from "@/lib/providers/first-party/email/job-title";
import { personKey } from "@/lib/providers/first-party/website/extract-people";
import type { PersonName } from "@/lib/providers/first-party/website/person-names";

/*
 * Whose an address on a website is, on evidence. It is `personal` only when its local part spells the name of a
 * person printed beside it (jane.doe@ beside "Jane Doe", bob@ beside "Robert Miller", mueller@ beside "Jörg Müller",
 * pastor.mike@ beside "Mike Lee"), or of exactly one person the site names elsewhere, under a known format — and is
 * no role or function word. Everything else is `generic`: role and function mailboxes, and addresses with no person
 * in sight. A mailbox printed beside a person whose name it does not spell (<dt>Treasurer</dt><dd>John Smith,
 * treasurer@…</dd>, "Box office: Rosa Jimenez, boxoffice@…") is that person's office: `generic`, with the holder's
 * name and position attached, as a reader would note them. The mailbox outlives the holder, so the holder is never
 * made its owner (no pattern sample, no person record with it).
 */

export interface NamedCandidate {
  name: PersonName;
  position: string | null;
}

/** How sure the typing is, strongest first. */
export type OwnerEvidence =
  | "name-beside" // the local part makes the name printed beside it
  | "name-on-site" // …or the name of exactly one person named elsewhere on the site
  | "role-holder" // a mailbox with its holder printed beside it
  | "none";

export interface AddressOwner {
  type: "personal" | "generic";
  holder: NamedCandidate | null;
  evidence: OwnerEvidence;
  /** The local part is the holder's name under a known format: a sample for the site's address format. */
  showsPattern: boolean;
}

const MIN_LOOSE_LENGTH = 4;

const localOf = (address: string) => address.slice(0, address.indexOf("@")).split("+")[0]!;

/** The spellings of a person's given and family names that a local part may hold. */
function spellingsOf(name: PersonName): string[] {
  return [...givenNameSpellings(name.firstName), ...nameSpellings(name.lastName)].filter(
    (spelling) => spelling.length >= 2,
  );
}

/** The tokens of a local part, trailing digits dropped: "pastor.mike2" → pastor, mike. */
const tokensOf = (local: string) => local.split(/[._-]+/).map((token) => token.replace(/\d+$/, ""));

/** A token of the local part is one of the names (pastor.mike@ beside "Mike Lee"). */
function hasNameToken(local: string, name: PersonName): boolean {
  const tokens = tokensOf(local);
  return spellingsOf(name).some((spelling) => tokens.includes(spelling));
}

/** A longer name is inside the local part (mikelee77@, jfroy@ beside "Jean-François Roy" is too short to tell). */
function containsName(local: string, name: PersonName): boolean {
  const squashed = tokensOf(local).join("");
  return spellingsOf(name).some((spelling) => spelling.length >= MIN_LOOSE_LENGTH && squashed.includes(spelling));
}

/** A role mailbox, or one named for the office printed beside it (kassenwart@ beside "Kassenwart"). */
function isFunctionMailbox(address: string, positions: readonly string[]): boolean {
  if (emailType(address) === "generic") return true;
  const words = localOf(address)
    .split(/[._\d-]+/)
    .filter((word) => word.length >= MIN_LOOSE_LENGTH);
  if (words.length > 0 && isJobTitle(words.join(" "))) return true;
  const positionWords = positions.flatMap((position) => position.toLowerCase().split(/[^\p{L}]+/u));
  return words.some((word) =>
    positionWords.some(
      (other) => other.length >= MIN_LOOSE_LENGTH && (other.startsWith(word) || word.startsWith(other)),
    ),
  );
}

/**
 * The owner of `address`: `beside` are the people printed beside it (on any page), `onSite` everyone the site names.
 */
export function ownerOf(
  address: string,
  beside: readonly NamedCandidate[],
  onSite: readonly NamedCandidate[],
): AddressOwner {
  const local = localOf(address);
  const printed = distinct(beside);
  const byFormat = printed.find(({ name }) => patternsForAddress(address, name.firstName, name.lastName).length > 0);
  if (byFormat !== undefined)
    return { type: "personal", holder: byFormat, evidence: "name-beside", showsPattern: true };
  const byToken = printed.find(({ name }) => hasNameToken(local, name));
  if (byToken !== undefined) return { type: "personal", holder: byToken, evidence: "name-beside", showsPattern: false };

  const positions = beside.flatMap(({ position }) => (position === null ? [] : [position]));
  if (!isFunctionMailbox(address, positions)) {
    // After the role test: "marketing@" beside "Mark Jones" holds his name, and is still a function mailbox.
    const within = printed.find(({ name }) => containsName(local, name));
    if (within !== undefined) return { type: "personal", holder: within, evidence: "name-beside", showsPattern: false };
    const fitting = distinct(onSite).filter(
      ({ name }) => patternsForAddress(address, name.firstName, name.lastName).length > 0,
    );
    if (fitting.length === 1)
      return { type: "personal", holder: fitting[0]!, evidence: "name-on-site", showsPattern: true };
  }
  // boxoffice@ beside "Rosa Jimenez": a mailbox that does not spell the name printed beside it is that person's
  // office, not theirs.
  const holder = printed.length === 1 ? printed[0]! : null;
  return { type: "generic", holder, evidence: holder === null ? "none" : "role-holder", showsPattern: false };
}

/** One candidate per person, the first with a position winning. */
function distinct(candidates: readonly NamedCandidate[]): NamedCandidate[] {
  const byKey = new Map<string, NamedCandidate>();
  for (const candidate of candidates) {
    const key = personKey(`${candidate.name.firstName} ${candidate.name.lastName}`);
    const known = byKey.get(key);
    if (known === undefined || (known.position === null && candidate.position !== null)) byKey.set(key, candidate);
  }
  return [...byKey.values()];
}
