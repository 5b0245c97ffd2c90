import type { DnsResolver, MxRecord } from "@/lib/outbound/dns-resolver";

/*
 * What a domain's public DNS says about its email: the MX hosts (and from them, who hosts the mailboxes), the SPF
 * record with the services allowed to send for it, the DMARC policy, and the apex TXT records (verification tokens
 * there name more of the services a company uses). Everything comes from three lookups; nothing is fetched over HTTP.
 */

export interface MailDns {
  /** Most preferred first. */
  mx: MxRecord[];
  /** The mailbox provider the MX hosts belong to, when we know it. */
  mailProvider: string | null;
  spf: { record: string | null; includes: string[] };
  dmarc: { record: string | null; policy: "none" | "quarantine" | "reject" | null };
  /** The apex TXT records, each record's strings joined. */
  txt: string[];
}

interface MailProvider {
  name: string;
  /** Matches a lowercase MX host name without the trailing dot. */
  mx: RegExp;
}

/** The host itself or any name under it. */
const under = (...domains: string[]) =>
  new RegExp(`(^|\\.)(${domains.map((domain) => domain.replaceAll(".", "\\.")).join("|")})$`);

// Each provider's documented MX host names (what its setup guide tells customers to publish). Order matters only
// where names could overlap, and none do. Security gateways (Mimecast, Proofpoint, Barracuda) are listed because
// their MX hides the mailbox provider behind them: "the mail goes through X" is still the true answer.
const MAIL_PROVIDERS: readonly MailProvider[] = [
  // aspmx.l.google.com and altN.aspmx.l.google.com (classic), smtp.google.com (since 2023), *.googlemail.com (old).
  { name: "Google Workspace", mx: /(^|\.)aspmx\.l\.google\.com$|^smtp\.google\.com$|(^|\.)googlemail\.com$/ },
  // <tenant>.mail.protection.outlook.com, and <tenant>.<region>.mx.microsoft for DNSSEC-enabled tenants (2024).
  { name: "Microsoft 365", mx: /\.mail\.protection\.outlook\.com$|\.mx\.microsoft$/ },
  {
    name: "Zoho Mail",
    mx: under("zoho.com", "zoho.eu", "zoho.in", "zoho.com.au", "zoho.jp", "zohomail.com", "zoho.com.cn"),
  },
  { name: "Proton Mail", mx: under("protonmail.ch") },
  { name: "Fastmail", mx: under("messagingengine.com") },
  // WorkMail and SES receiving share inbound-smtp.<region>.amazonaws.com; the MX cannot tell them apart.
  { name: "Amazon WorkMail / SES", mx: /^inbound-smtp\.[a-z0-9-]+\.amazonaws\.com$/ },
  { name: "Yandex 360", mx: under("yandex.net", "yandex.ru") },
  { name: "iCloud Mail", mx: under("mail.icloud.com") },
  // GoDaddy's hosted email (Workspace Email and its Microsoft 365 resale both start at secureserver.net).
  { name: "GoDaddy", mx: under("secureserver.net") },
  { name: "OVHcloud", mx: under("ovh.net") },
  {
    name: "IONOS",
    mx: under("ionos.com", "ionos.de", "ionos.co.uk", "ionos.fr", "ionos.es", "1and1.com", "kundenserver.de"),
  },
  { name: "Mimecast", mx: under("mimecast.com", "mimecast.co.za", "mimecast-offshore.com") },
  { name: "Proofpoint", mx: under("pphosted.com", "ppe-hosted.com") },
  { name: "Barracuda", mx: under("barracudanetworks.com") },
];

const DMARC_POLICIES = new Set(["none", "quarantine", "reject"]);

export async function lookupMailDns(
  domain: string,
  dns: Pick<DnsResolver, "resolveMx" | "resolveTxt">,
  signal?: AbortSignal,
): Promise<MailDns> {
  const name = domain.trim().toLowerCase().replace(/\.$/, "");
  const [mxRecords, txt, dmarcTxt] = await Promise.all([
    dns.resolveMx(name, signal),
    dns.resolveTxt(name, signal),
    dns.resolveTxt(`_dmarc.${name}`, signal),
  ]);

  const mx = mxRecords
    .map((record) => ({ exchange: record.exchange.toLowerCase().replace(/\.$/, ""), priority: record.priority }))
    .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
  return { mx, mailProvider: mailProviderOf(mx), spf: spfOf(txt), dmarc: dmarcOf(dmarcTxt), txt };
}

/** Mail goes to the most preferred MX, so the first recognised host in preference order names the provider. */
function mailProviderOf(mx: MxRecord[]): string | null {
  for (const record of mx) {
    const provider = MAIL_PROVIDERS.find((candidate) => candidate.mx.test(record.exchange));
    if (provider !== undefined) return provider.name;
  }
  return null;
}

function spfOf(txt: string[]): MailDns["spf"] {
  // RFC 7208 §4.5: the record starts with exactly "v=spf1" followed by a space or nothing. Two records are a
  // permanent error for receivers; we still report the first, as the includes are what we are after.
  const record = txt.find((candidate) => /^v=spf1(\s|$)/i.test(candidate.trim())) ?? null;
  if (record === null) return { record: null, includes: [] };
  const includes = record
    .trim()
    .split(/\s+/)
    .map((term) => /^[+\-~?]?include:(.+)$/i.exec(term)?.[1]?.toLowerCase())
    .filter((include): include is string => include !== undefined);
  return { record: record.trim(), includes: [...new Set(includes)] };
}

function dmarcOf(txt: string[]): MailDns["dmarc"] {
  const record = txt.find((candidate) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(candidate.trim()))?.trim() ?? null;
  if (record === null) return { record: null, policy: null };
  const policy = record
    .split(";")
    .map((tag) => tag.trim().split("="))
    .find(([key]) => key?.trim().toLowerCase() === "p")?.[1]
    ?.trim()
    .toLowerCase();
  return {
    record,
    policy: policy !== undefined && DMARC_POLICIES.has(policy) ? (policy as MailDns["dmarc"]["policy"]) : null,
  };
}
