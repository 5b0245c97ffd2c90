import { isDisposableEmailDomain } from "disposable-email-domains-js";
import webmailProviders from "email-providers/all.json";
import { getDomain } from "tldts";

/*
 * What we can say about an address without talking to its mail server. We never answer "valid": only an SMTP
 * conversation could say that, and a catch-all server ("accept_all") looks the same as an unknown one from here.
 */

export type EmailVerificationStatus = "invalid" | "webmail" | "disposable" | "unknown";

export interface EmailVerification {
  /** The day (YYYY-MM-DD) we checked something about the address; null when nothing was known to check. */
  date: string | null;
  status: EmailVerificationStatus;
}

/** RFC 5321 limits: 64 octets of local part, 254 of address (the 256-octet path minus its angle brackets). */
const MAX_LOCAL_LENGTH = 64;
const MAX_ADDRESS_LENGTH = 254;
const MAX_LABEL_LENGTH = 63;

// The dot-atom form people actually publish: no quoted local parts, no IP-literal domains, no comments.
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** A top-level domain is letters (or an IDNA "xn--" label), never digits only. */
const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;

/** Well-known mailbox services missing from the email-providers list. */
const EXTRA_WEBMAIL = [
  "posteo.de",
  "posteo.net",
  "fastmail.com",
  "fastmail.fm",
  "tutanota.com",
  "tutanota.de",
  "tuta.io",
  "mailbox.org",
  "pm.me",
];
const WEBMAIL = new Set<string>(
  [...(webmailProviders as string[]), ...EXTRA_WEBMAIL].map((domain) => domain.toLowerCase()),
);

/** Whether `address` is a plain `local@domain.tld` address a person could publish and receive mail on. */
export function isValidEmailSyntax(address: string): boolean {
  if (address.length > MAX_ADDRESS_LENGTH) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at !== address.indexOf("@")) return false;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local.length > MAX_LOCAL_LENGTH || !LOCAL_PART.test(local)) return false;
  const labels = domain.split(".");
  if (labels.length < 2) return false;
  if (!labels.every((label) => label.length <= MAX_LABEL_LENGTH && DOMAIN_LABEL.test(label))) return false;
  return TOP_LEVEL_LABEL.test(labels[labels.length - 1]!);
}

/** Whether `domain` (or the registrable domain it belongs to) is a public mailbox service such as gmail.com. */
export function isWebmailDomain(domain: string): boolean {
  return domainOrParentMatches(domain, (candidate) => WEBMAIL.has(candidate));
}

/** Whether `domain` (or its registrable domain) hands out throwaway mailboxes. */
export function isDisposableDomain(domain: string): boolean {
  return domainOrParentMatches(domain, isDisposableEmailDomain);
}

export function emailVerification(options: {
  address: string;
  domainHasMx: boolean | null;
  now: Date;
}): EmailVerification {
  const date = options.now.toISOString().slice(0, 10);
  const address = options.address.trim().toLowerCase();
  if (!isValidEmailSyntax(address)) return { date, status: "invalid" };
  // A domain without a mail exchanger cannot receive mail, whatever kind of domain it is.
  if (options.domainHasMx === false) return { date, status: "invalid" };
  const domain = address.slice(address.indexOf("@") + 1);
  // Throwaway services are also listed as mailbox providers, so they are recognised first.
  if (isDisposableDomain(domain)) return { date, status: "disposable" };
  if (isWebmailDomain(domain)) return { date, status: "webmail" };
  // With MX records known to exist we did check something, though not enough to say more than "unknown".
  return { date: options.domainHasMx === true ? date : null, status: "unknown" };
}

function domainOrParentMatches(domain: string, matches: (candidate: string) => boolean): boolean {
  const host = domain.trim().toLowerCase().replace(/\.$/, "");
  if (host === "") return false;
  if (matches(host)) return true;
  const registrable = getDomain(host);
  return registrable !== null && registrable !== host && matches(registrable);
}
