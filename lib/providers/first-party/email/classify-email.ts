import roleLocalParts from "role-based-email-addresses";

/*
 * "generic" addresses reach a role or a team (info@, sales@), "personal" ones a person. The role list is the
 * community-maintained role-based-email-addresses; it already knows some German words (kontakt, presse, zentrale),
 * and we add the German role words it lacks that German company sites (with their mandatory imprint) publish most.
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

const ROLE_WORDS = new Set(
  [...roleLocalParts, ...GERMAN_ROLE_WORDS, ...PRIVACY_ROLE_WORDS].map((word) => word.toLowerCase()),
);
/** Suffixes that qualify a role mailbox without making it personal: sales-de@, support.uk@, info2@. */
const QUALIFIER = /^(?:[a-z]{2}|\d{1,3})$/;

export type EmailType = "generic" | "personal";

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
