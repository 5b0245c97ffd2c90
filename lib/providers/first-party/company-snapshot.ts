import type { DbClient } from "@/lib/db/client";
import type { DnsResolver } from "@/lib/outbound/dns-resolver";
import type { OutboundClient } from "@/lib/outbound/types";
import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import { industryKeywords } from "./companies/keywords";
import { saveCompany } from "./companies/company-store";
import { lookupMailDns, type MailDns } from "./dns/mail-dns";
import { savePeople, type PersonRecord } from "./people/people-store";
import { detectSiteTechnologies, type DetectedTechnology } from "./technographics/detect-technologies";
import { recordTechnologyObservations } from "./technographics/technology-observations";
import { crawlCompanySite, type SiteCrawl } from "./website/crawl-site";
import type { OrganizationFacts } from "./website/extract-organization";
import { collectSiteEmails, type SiteEmails } from "./website/site-emails";

/** A technology seen on the company's site or DNS now, with when we first and last saw it there. */
export interface ObservedTechnology extends DetectedTechnology {
  firstDetected: Date;
  lastDetected: Date;
}

/** Everything the first-party collectors learned about one company in one visit. */
export interface CompanySnapshot {
  domain: string;
  collectedAt: Date;
  /** The site answered at least one page. */
  reachable: boolean;
  crawl: SiteCrawl;
  mailDns: MailDns | null;
  organization: OrganizationFacts;
  siteEmails: SiteEmails;
  technologies: ObservedTechnology[];
  keywords: string[];
}

export interface CompanySnapshotOptions {
  http: OutboundClient;
  dns: DnsResolver;
  db: () => DbClient;
  maxPages: number;
  now?: () => Date;
  /** How long a snapshot is reused; default 10 minutes. */
  ttlMs?: number;
  /** Snapshots kept at most; default 200. */
  maxEntries?: number;
}

export type CompanySnapshots = (domain: string) => Promise<CompanySnapshot>;

/**
 * One visit per company serves every operation: domain emails, technographics, competitors and funding all read
 * the same snapshot, so a burst of calls about a company crawls its site once. A visit in progress is shared; it runs
 * to its end even when the request that started it goes away, because its result (and what it adds to our company
 * store) is still useful to the next caller. Providers bound how long they wait for it.
 */
export function createCompanySnapshots(options: CompanySnapshotOptions): CompanySnapshots {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const maxEntries = options.maxEntries ?? 200;
  const now = options.now ?? (() => new Date());
  const entries = new Map<string, { at: number; snapshot: Promise<CompanySnapshot> }>();

  return (domain) => {
    const key = domain.toLowerCase();
    const hit = entries.get(key);
    if (hit && now().getTime() - hit.at < ttlMs) return hit.snapshot;

    const snapshot = collectSnapshot(key, options, now());
    entries.delete(key);
    entries.set(key, { at: now().getTime(), snapshot });
    // A failed visit is not remembered: the next call tries again.
    snapshot.catch(() => entries.get(key)?.snapshot === snapshot && entries.delete(key));
    // Map keeps insertion order, so the first key is the oldest visit.
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return snapshot;
  };
}

async function collectSnapshot(
  domain: string,
  options: CompanySnapshotOptions,
  collectedAt: Date,
): Promise<CompanySnapshot> {
  const [crawl, mailDns] = await Promise.all([
    crawlCompanySite(domain, { http: options.http, maxPages: options.maxPages }),
    // No answer about mail is not a reason to drop what the website says.
    lookupMailDns(domain, options.dns).catch(() => null),
  ]);
  const reachable = crawl.pages.length > 0;
  const siteEmails = collectSiteEmails(crawl, {
    domainHasMx: mailDns ? mailDns.mx.length > 0 : null,
    now: collectedAt,
  });
  const { organization } = siteEmails;
  // Every page the visit read: builders, fonts and plugins often show only on inner pages.
  const detected = detectSiteTechnologies(
    crawl.pages,
    mailDns ? { mx: mailDns.mx.map((record) => record.exchange), txt: mailDns.txt } : undefined,
  );
  const keywords = industryKeywords([organization.description ?? "", ...organization.keywords], {
    exclude: [organization.name ?? "", organization.legalName ?? ""],
  });

  let technologies: ObservedTechnology[] = [];
  if (reachable) {
    const client = options.db();
    const seen = await recordTechnologyObservations(client, domain, detected, collectedAt);
    technologies = detected.map((technology) => {
      const observed = seen.get(technology.name);
      return {
        ...technology,
        firstDetected: observed?.firstDetected ?? collectedAt,
        lastDetected: observed?.lastDetected ?? collectedAt,
      };
    });
    await savePeople(client, domain, peopleOnSite(siteEmails));
    await saveCompany(client, {
      domain,
      name: organization.name,
      description: organization.description,
      keywords,
      technologies: detected.map((technology) => technology.name),
      profile: {
        ...organization,
        mail: mailDns && {
          provider: mailDns.mailProvider,
          spfIncludes: mailDns.spf.includes,
          dmarcPolicy: mailDns.dmarc.policy,
        },
      },
    });
  }
  return { domain, collectedAt, reachable, crawl, mailDns, organization, siteEmails, technologies, keywords };
}

/**
 * The people the site names, each with the personal address the site shows for them (domain-emails lists only
 * printed addresses; a role mailbox printed beside its holder is not the holder's).
 */
function peopleOnSite(siteEmails: SiteEmails): PersonRecord[] {
  const sameName = (email: EmailRecord, first: string, last: string) =>
    email.firstName?.toLowerCase() === first.toLowerCase() && email.lastName?.toLowerCase() === last.toLowerCase();
  return siteEmails.people.map((person) => ({
    fullName: person.fullName,
    firstName: person.firstName,
    lastName: person.lastName,
    position: person.jobTitle,
    email:
      person.email ??
      siteEmails.emails.find((email) => email.type === "personal" && sameName(email, person.firstName, person.lastName))
        ?.value ??
      null,
    linkedin: person.linkedin,
    twitter: person.twitter,
    phone: person.phone,
    sourceUrl: person.pageUrl,
  }));
}
