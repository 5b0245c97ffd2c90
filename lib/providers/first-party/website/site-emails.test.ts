import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmailRecord } from "@/lib/providers/fields/domain-emails";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { crawlCompanySite, type CrawledPage, type SiteCrawl } from "@/lib/providers/first-party/website/crawl-site";
import { collectSiteEmails } from "@/lib/providers/first-party/website/site-emails";
import { type CompanySites, startCompanySites } from "@/test/fakes/company-sites";

const now = new Date("2025-06-03T10:20:30Z");
let sites: CompanySites;
let acme: SiteCrawl;
let rival: SiteCrawl;

async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  sites = await startCompanySites();
  const http = createOutboundClient({
    allowLoopback: true,
    portOverrides: { http: sites.port, https: await findClosedPort() },
    resolver: async () => ["127.0.0.1"],
  });
  acme = await crawlCompanySite("acme.example", { http });
  rival = await crawlCompanySite("rival.example", { http });
});

afterAll(async () => {
  await sites.close();
});

/** The day the crawl read `url`: sources carry the date each page was extracted on. */
function dayOf(crawl: SiteCrawl, url: string): string {
  const page = crawl.pages.find((candidate) => candidate.url === url);
  if (page === undefined) throw new Error(`${url} was not crawled`);
  return page.fetchedAt.slice(0, 10);
}

function sources(crawl: SiteCrawl, ...urls: string[]) {
  return urls.map((uri) => ({ uri, extractedOn: dayOf(crawl, uri) }));
}

const UNKNOWN = { date: "2025-06-03", status: "unknown" } as const;

function personal(
  value: string,
  confidence: number,
  person: Partial<EmailRecord>,
  from: EmailRecord["sources"],
): EmailRecord {
  return {
    value,
    type: "personal",
    confidence,
    firstName: null,
    lastName: null,
    position: null,
    seniority: null,
    department: null,
    linkedin: null,
    twitter: null,
    phoneNumber: null,
    sources: from,
    verification: UNKNOWN,
    ...person,
  };
}

function generic(
  value: string,
  confidence: number,
  department: string | null,
  from: EmailRecord["sources"],
): EmailRecord {
  return personal(value, confidence, { type: "generic", department }, from);
}

describe("collectSiteEmails on a crawl of acme.example", () => {
  it("returns exactly the addresses the site prints, tied to their people, and none built from the pattern", () => {
    const result = collectSiteEmails(acme, { domainHasMx: true, now });
    const team = "http://acme.example/team/";

    expect(result.organization).toMatchObject({ name: "Acme Analytics", legalName: "Acme Analytics, Inc." });
    expect(result.pattern).toEqual({ pattern: "{first}.{last}", confidence: 0.88 });
    expect(result.emails).toEqual([
      personal(
        "jordan.ellis@acme.example",
        95,
        {
          firstName: "Jordan",
          lastName: "Ellis",
          position: "Chief Executive Officer",
          seniority: "executive",
          department: "executive",
          linkedin: "https://www.linkedin.com/in/jordan-ellis-acme-test",
          twitter: "jordan_acme",
        },
        sources(acme, team),
      ),
      personal(
        "priya.natarajan@acme.example",
        95,
        {
          firstName: "Priya",
          lastName: "Natarajan",
          position: "VP Sales",
          seniority: "executive",
          department: "sales",
          twitter: "priya_ships",
        },
        sources(acme, team),
      ),
      personal(
        "tomas.reyes@acme.example",
        95,
        {
          firstName: "Tomás",
          lastName: "Reyes",
          position: "Senior Software Engineer",
          seniority: "senior",
          department: "it",
        },
        sources(acme, team),
      ),
      // A mailto on three pages: the home page footer, the contact page and (as text) the imprint.
      generic(
        "info@acme.example",
        92,
        null,
        sources(acme, "http://acme.example/", "http://acme.example/contact/", "http://acme.example/impressum/"),
      ),
      generic("support@acme.example", 80, "support", sources(acme, "http://acme.example/contact/")),
      generic("press@acme.example", 75, "communication", sources(acme, "http://acme.example/press/")),
      generic("sales@acme.example", 75, "sales", sources(acme, "http://acme.example/contact/")),
    ]);
  });

  it("leaves out addresses at other domains and pages robots.txt forbids", () => {
    const values = collectSiteEmails(acme, { domainHasMx: true, now }).emails.map((email) => email.value);
    expect(values).not.toContain("acme.analytics.usergroup@gmail.com");
    expect(
      values.filter((value) => value.startsWith("board@") || value.startsWith("quinn.") || value.startsWith("rosa.")),
    ).toEqual([]);
  });

  it("lists the people it found, once each", () => {
    const people = collectSiteEmails(acme, { domainHasMx: true, now }).people;
    expect(people.map((person) => [person.fullName, person.jobTitle, person.email])).toEqual([
      ["Jordan Ellis", "Chief Executive Officer", "jordan.ellis@acme.example"],
      ["Priya Natarajan", "VP Sales", "priya.natarajan@acme.example"],
      ["Tomás Reyes", "Senior Software Engineer", "tomas.reyes@acme.example"],
      ["Hannah Schmidt", "Head of Marketing", null],
      ["Sam O’Neill", "Office Manager", null],
    ]);
  });

  it("marks every address invalid when the domain has no mail exchanger, and dates nothing it did not check", () => {
    const withoutMx = collectSiteEmails(acme, { domainHasMx: false, now });
    expect(new Set(withoutMx.emails.map((email) => email.verification.status))).toEqual(new Set(["invalid"]));
    const unchecked = collectSiteEmails(acme, { domainHasMx: null, now });
    expect(new Set(unchecked.emails.map((email) => JSON.stringify(email.verification)))).toEqual(
      new Set([JSON.stringify({ date: null, status: "unknown" })]),
    );
  });
});

describe("collectSiteEmails on a crawl of rival.example", () => {
  it("infers {f}{last} and has nobody left to build an address for", () => {
    const result = collectSiteEmails(rival, { domainHasMx: true, now });
    expect(result.organization.name).toBe("Rival Freight Insights");
    expect(result.pattern).toEqual({ pattern: "{f}{last}", confidence: 0.88 });
    expect(result.emails.map((email) => [email.value, email.type, email.confidence, email.position])).toEqual([
      ["cruiz@rival.example", "personal", 95, "Customer Success Manager"],
      ["dokafor@rival.example", "personal", 95, "Head of Data Science"],
      ["mlindqvist@rival.example", "personal", 95, "Founder & CEO"],
      ["hello@rival.example", "generic", 90, null],
    ]);
  });
});

describe("collectSiteEmails on handmade crawls", () => {
  function page(url: string, kind: CrawledPage["kind"], html: string): CrawledPage {
    return {
      url,
      kind,
      status: 200,
      fetchedAt: "2025-05-30T08:00:00.000Z",
      html,
      headers: new Headers({ "content-type": "text/html" }),
    };
  }

  const cards = (people: [string, string, string | null][]) =>
    `<div class="team">${people
      .map(
        ([name, title, email]) =>
          `<div class="person"><h3>${name}</h3><p class="title">${title}</p>${email === null ? "" : `<a href="mailto:${email}">Email</a>`}</div>`,
      )
      .join("")}</div>`;

  it("keeps subdomain addresses, matches an address to a person by name, and builds nothing from a weak pattern", () => {
    const crawl: SiteCrawl = {
      domain: "www.beispiel.test",
      homeUrl: "https://www.beispiel.test/",
      pages: [
        page(
          "https://www.beispiel.test/",
          "home",
          "<title>Beispiel</title><p>Mail us: kontakt@beispiel.test, help@support.beispiel.test or beispiel@gmail.com</p>",
        ),
        page(
          "https://www.beispiel.test/team",
          "team",
          cards([
            ["Jana Müller", "Leiterin Vertrieb", null],
            ["Otto Brandt", "Geschäftsführer", "otto@beispiel.test"],
            ["Lena Vogel", "Werkstudentin Marketing", null],
          ]) + "<p>Write to Jana: jana.mueller@beispiel.test</p>",
        ),
      ],
    };
    const result = collectSiteEmails(crawl, { domainHasMx: null, now });
    // jana.mueller ({first}.{last}, German spelling) and otto ({first}) disagree; the tie goes to the more common
    // pattern, at 0.25, too weak to build Lena's address from.
    expect(result.pattern).toEqual({ pattern: "{first}.{last}", confidence: 0.25 });
    expect(
      result.emails.map((email) => [
        email.value,
        email.type,
        email.confidence,
        email.firstName,
        email.seniority,
        email.department,
      ]),
    ).toEqual([
      ["otto@beispiel.test", "personal", 95, "Otto", "executive", "executive"],
      // Jana is named on the page, but not beside the address ("Write to Jana:" is no full name): less sure.
      ["jana.mueller@beispiel.test", "personal", 88, "Jana", "senior", "sales"],
      ["help@support.beispiel.test", "generic", 85, null, null, "support"],
      ["kontakt@beispiel.test", "generic", 85, null, null, null],
    ]);
    expect(result.emails.find((email) => email.value === "otto@beispiel.test")?.sources).toEqual([
      { uri: "https://www.beispiel.test/team", extractedOn: "2025-05-30" },
    ]);
  });

  it("returns only printed addresses: a {last} pattern invents none for headings or people without one", () => {
    const crawl: SiteCrawl = {
      domain: "foundation.example",
      homeUrl: "http://foundation.example/",
      pages: [
        page(
          "http://foundation.example/staff/",
          "team",
          `<h1>Our Team</h1>
          <p>Executive Director, Ellen Marsh : <a href="mailto:marsh@foundation.example">marsh@foundation.example</a></p>
          <p>Program Officer, Omar Quist : <a href="mailto:quist@foundation.example">quist@foundation.example</a></p>
          <p>Grants Associate, Lena Park</p>`,
        ),
        page(
          "http://foundation.example/grants/",
          "other",
          `<h2>Applications</h2><p>Deadlines are posted each spring.</p>
          <h2>Scholarship Applications</h2><p>Forms open in March.</p>
          <h2>Boards</h2><h2>Board of Directors</h2><h2>Capital Fund</h2><h2>Fund</h2>
          <p>General questions: <a href="mailto:info@foundation.example">info@foundation.example</a></p>`,
        ),
      ],
    };
    const result = collectSiteEmails(crawl, { domainHasMx: null, now });
    expect(result.pattern).toEqual({ pattern: "{last}", confidence: 0.75 });
    expect(result.emails.map((email) => [email.value, email.type, email.firstName, email.position])).toEqual([
      ["marsh@foundation.example", "personal", "Ellen", "Executive Director"],
      ["quist@foundation.example", "personal", "Omar", "Program Officer"],
      ["info@foundation.example", "generic", null, null],
    ]);
    expect(result.people.map((person) => person.fullName)).toEqual(["Ellen Marsh", "Omar Quist"]);
  });

  it("answers nothing for an empty crawl", () => {
    expect(
      collectSiteEmails({ domain: "blocked.example", homeUrl: null, pages: [] }, { domainHasMx: null, now }),
    ).toMatchObject({ organization: { name: null }, emails: [], pattern: null, people: [] });
  });
});
