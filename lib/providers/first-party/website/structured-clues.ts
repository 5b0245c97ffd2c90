import { type HTMLElement } from "node-html-parser";
import { cleanText } from "@/lib/providers/first-party/website/html";
import { type Clue, NO_CLUE, asPosition } from "@/lib/providers/first-party/website/beside-text";
import { splitName } from "@/lib/providers/first-party/website/person-names";

/*
 * Owners of an address that markup states: an hCard/vCard or schema.org Person microdata around it, the other cells
 * of its table row (the header row says which column is the name, the first or last name, or the role), and the
 * term of its definition-list entry (<dt>Treasurer</dt><dd>John Smith, treasurer@…</dd>).
 */

const PERSON_CARD = ".vcard, .h-card, [itemtype*='schema.org/Person' i]";
const FULL_NAME = ".fn, .p-name, [itemprop=name]";
const GIVEN_NAME = ".given-name, .p-given-name, [itemprop=givenName]";
const FAMILY_NAME = ".family-name, .p-family-name, [itemprop=familyName]";
const CARD_TITLE = ".title, .role, .p-job-title, .p-role, [itemprop=jobTitle]";
const MAX_CELL_LENGTH = 80;
const MAX_HEADER_LENGTH = 30;

const textOf = (element: HTMLElement | null | undefined) => cleanText(element?.text);

/** An hCard (microformats 1 or 2) or Person microdata around the address. */
export function personCardClue(at: HTMLElement): Clue {
  const card = at.closest(PERSON_CARD);
  if (card === null) return NO_CLUE;
  const given = textOf(card.querySelector(GIVEN_NAME));
  const family = textOf(card.querySelector(FAMILY_NAME));
  const full = textOf(card.querySelector(FULL_NAME));
  const name = splitName(full) ?? (given !== null && family !== null ? splitName(`${given} ${family}`) : null);
  const named =
    name !== null && given !== null && family !== null ? { ...name, firstName: given, lastName: family } : name;
  return { name: named, position: asPosition(textOf(card.querySelector(CARD_TITLE)), true) };
}

type Column = "name" | "first" | "last" | "position" | "email" | "other";

function columnOf(header: string): Column {
  const text = header.toLowerCase();
  if (/first|given|vorname/.test(text)) return "first";
  if (/last|surname|family|nachname|zuname/.test(text)) return "last";
  if (/mail/.test(text)) return "email";
  if (/name|person|staff|member|mitglied|contact|ansprechpartner|teacher|lehrkraft/.test(text)) return "name";
  if (/title|position|role|function|funktion|amt|job|office|aufgabe|subject|fach|responsib|zuständig/.test(text))
    return "position";
  return "other";
}

const cellsOf = (row: HTMLElement) => row.childNodes.filter((node): node is HTMLElement => node.nodeType === 1);

/** The table's header row: its <thead> row, else a first row of <th> cells or of column names ("Funktion | Name"). */
function headerRow(table: HTMLElement, row: HTMLElement): HTMLElement | null {
  const head = table.querySelector("thead tr");
  if (head !== null) return head === row ? null : head;
  const first = table.querySelector("tr");
  if (first === null || first === row) return null;
  const cells = cellsOf(first);
  const named = cells.filter(
    (cell) => (textOf(cell)?.length ?? 0) <= MAX_HEADER_LENGTH && columnOf(cell.text) !== "other",
  );
  return cells.length > 0 && (cells.every((cell) => cell.tagName === "TH") || named.length >= 2) ? first : null;
}

/** The other cells of the address's table row, read by the header's column names, else by what each cell reads as. */
export function tableRowClue(at: HTMLElement): Clue {
  const cell = at.closest("td, th");
  const row = cell?.parentNode;
  const table = at.closest("table");
  if (cell === null || cell === undefined || row === null || row === undefined || table === null) return NO_CLUE;
  const cells = cellsOf(row);
  const header = headerRow(table, row);
  if (header !== null) {
    const columns = cellsOf(header).map((th) => columnOf(th.text));
    const read = (column: Column) => {
      const index = columns.indexOf(column);
      return index < 0 || cells[index] === cell ? null : textOf(cells[index]);
    };
    const first = read("first");
    const last = read("last");
    const name = splitName(read("name")) ?? (first !== null && last !== null ? splitName(`${first} ${last}`) : null);
    const named =
      name !== null && first !== null && last !== null ? { ...name, firstName: first, lastName: last } : name;
    const position = cleanText(read("position"));
    if (named !== null || position !== null) return { name: named, position };
  }
  const others = cells
    .filter((other) => other !== cell)
    .map(textOf)
    .filter((text): text is string => text !== null && text.length <= MAX_CELL_LENGTH);
  const name = others.map(splitName).find((found) => found !== null) ?? null;
  const position = others.map((text) => asPosition(text, false)).find((found) => found !== null) ?? null;
  return { name, position };
}

/** The term of the address's definition: a person's name, or the office the description's person holds. */
export function definitionTermClue(at: HTMLElement): Clue {
  const description = at.closest("dd");
  if (description === null) return NO_CLUE;
  let term = description.previousElementSibling ?? null;
  while (term !== null && term.tagName !== "DT") term = term.previousElementSibling ?? null;
  const text = textOf(term);
  const name = splitName(text);
  return name !== null ? { name, position: null } : { name: null, position: asPosition(text, true) };
}
