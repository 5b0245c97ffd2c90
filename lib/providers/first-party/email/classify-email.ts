import roleLocalParts from "role-based-email-addresses";

/*
 * "generic" addresses reach a role or a team (info@, sales@), "personal" ones a person. The role list is the
 * community-maintained role-based-email-addresses; it already knows some German words (kontakt, presse, zentrale),
 * and we add the German role words it lacks that German company sites (with their mandatory imprint) publish most,
 * and the function mailboxes of clubs, churches, schools and small firms.
 */

const GERMAN_ROLE_WORDS = [
  "vertrieb", // sales
  "karriere", // careers
  "bewerbung", // applications
  "bewerbungen",
  "buero", // office
  "empfang", // reception
  "rechnung", // invoices
  "rechnungen",
  "buchhaltung", // accounting
  "einkauf", // purchasing
  "verwaltung", // administration
  "datenschutz", // data protection
  "impressum", // legal notice
  "anfrage", // enquiries
  "anfragen",
  "hallo",
];
/** GDPR mailboxes are functions, not people. */
const PRIVACY_ROLE_WORDS = ["dpo", "gdpr", "dsgvo"];
/** Department and function mailboxes of small firms, clubs, churches and schools that the list lacks. */
const FUNCTION_WORDS = [
  "dealers",
  "dealer",
  "charity",
  "safety",
  "refunds",
  "refund",
  "returns",
  "warranty",
  "programming",
  "photo",
  "showroom",
  "rentals",
  "estimates",
  "claims",
  "tours",
  "visits",
  "scholarships",
  "fund",
  "boards",
  "board",
  "chair",
  "office",
  "youth",
  "prayer",
  "missions",
  "athletics",
  "attendance",
  "counseling",
  "nurse",
  "kassenwart",
  "kassierer",
  "schriftfuehrer",
  "jugendwart",
  "sportwart",
  "vorsitzender",
  "vorsitz",
  "geschaeftsstelle",
  "schulleitung",
  "pfarrbuero",
  "pfarramt",
  "gemeindebuero",
  "redaktion",
  "mitglieder",
  "mitgliedschaft",
  "termine",
  "handball",
  "fussball",
  "volleyball",
  "basketball",
  "tennis",
  "turnen",
  "jugend",
  "schwimmen",
  "leichtathletik",
  "medicalrecords",
  "records",
];

const ROLE_WORDS = new Set(
  [...roleLocalParts, ...GERMAN_ROLE_WORDS, ...PRIVACY_ROLE_WORDS, ...FUNCTION_WORDS].map((word) => word.toLowerCase()),
);
/** Whether the word (lower-case) names a role or function mailbox: "info", "events", "kassenwart". */
export function isRoleWord(word: string): boolean {
  return ROLE_WORDS.has(word);
}

/** Suffixes that qualify a role mailbox without making it personal: sales-de@, support.uk@, info2@. */
const QUALIFIER = /^(?:[a-z]{2}|\d{1,3})$/;

export type EmailType = "generic" | "personal";

/**
 * The type a role list gives an address, for callers that have only the address: `generic` when its local part is a
 * role word (or role words with a qualifier), else `personal`. Addresses read from a website are typed on evidence
 * instead (website/address-owners.ts), with this as the test for a role mailbox.
 */
export function emailType(address: string): EmailType {
  const local = address.trim().toLowerCase().split("@")[0] ?? "";
  // Plus-addressing ("info+web@") routes to the same mailbox as the part before the plus.
  const mailbox = local.split("+")[0] ?? "";
  if (ROLE_WORDS.has(mailbox) || ROLE_WORDS.has(mailbox.replace(/\d+$/, ""))) return "generic";
  const tokens = mailbox.split(/[._-]+/).filter((token) => token !== "");
  const isRole =
    tokens.some((token) => ROLE_WORDS.has(token)) &&
    tokens.every((token) => ROLE_WORDS.has(token) || QUALIFIER.test(token));
  return isRole ? "generic" : "personal";
}
