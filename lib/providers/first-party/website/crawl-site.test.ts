import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import type { OutboundClient, OutboundRequest } from "@/lib/outbound/types";
import { crawlCompanySite, type SiteCrawl } from "@/lib/providers/first-party/website/crawl-site";
import { type CompanySites, startCompanySites } from "@/test/fakes/company-sites";

let sites: CompanySites;
let closedPort: number;

/** A port nothing listens on: https:// URLs connect there and are refused, as on a site without TLS. */
async function findClosedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeEach(async () => {
  sites = await startCompanySites();
  closedPort = await findClosedPort();
});

afterEach(async () => {
  await sites.close();
});

/** The real outbound client, with every name resolved to the fixture server; records what the crawler asked of it. */
function recordingClient(delayMs: (url: string) => number = () => 0) {
  const client = createOutboundClient({
    allowLoopback: true,
    portOverrides: { http: sites.port, https: closedPort },
    resolver: async () => ["127.0.0.1"],
  });
  const asked: { url: string; init: OutboundRequest | undefined }[] = [];
  const http: OutboundClient = {
    userAgent: client.userAgent,
    request: async (url, init) => {
      asked.push({ url: String(url), init });
      const response = await client.request(url, init);
      await new Promise((resolve) => setTimeout(resolve, delayMs(String(url))));
      return response;
    },
  };
  return { http, asked };
}

describe("crawlCompanySite", () => {
  it("crawls acme.example's home page and then its pages best first: contact, team, imprint, about, careers, legal, press", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("acme.example", { http });

    expect(crawl.domain).toBe("acme.example");
    expect(crawl.homeUrl).toBe("http://acme.example/");
    // Read best first, not in a fixed list of kinds: the privacy page the home page links outranks the press page
    // only the sitemap lists.
    expect(crawl.pages.map((page) => [page.kind, page.url])).toEqual([
      ["home", "http://acme.example/"],
      ["contact", "http://acme.example/contact/"],
      ["team", "http://acme.example/team/"],
      ["imprint", "http://acme.example/impressum/"],
      // Linked as /about-us/, which redirects there; the sitemap's /about/ is not fetched a second time.
      ["about", "http://acme.example/about/"],
      // /careers/ redirects to a subdomain of the company's own domain.
      ["careers", "http://careers.acme.example/"],
      ["legal", "http://acme.example/legal/privacy/"],
      // Only the sitemap lists /press/; the /newsroom/ link redirects to a metadata address and is dropped.
      ["press", "http://acme.example/press/"],
    ]);
    // With budget left, the unnamed pages were tried too (they are missing on this site); the PDF never.
    const paths = sites.requests.map(({ host, path }) => `${host}${path}`);
    expect(paths).toEqual(expect.arrayContaining(["acme.example/product/", "acme.example/pricing/"]));
    expect(paths.filter((path) => path.endsWith(".pdf"))).toEqual([]);
    const home = crawl.pages[0]!;
    expect(home.status).toBe(200);
    expect(home.html).toContain('<meta name="generator" content="WordPress 6.4.2">');
    expect(home.headers.get("x-powered-by")).toBe("PHP/8.2.12");
    expect(home.headers.get("server")).toBe("nginx");
    expect(Number.isNaN(Date.parse(home.fetchedAt))).toBe(false);
    expect(crawl.pages.every((page) => page.status === 200 && page.html.startsWith("<!DOCTYPE html>"))).toBe(true);
  });

  it("honours robots.txt, stays on the company's domain and never follows a redirect off it", async () => {
    const { http, asked } = recordingClient();
    await crawlCompanySite("acme.example", { http });

    // Every page and sitemap request asks the client to honour robots.txt; robots.txt itself is the only exception.
    expect(asked.filter(({ init }) => init?.robots !== true).map(({ url }) => url)).toEqual([
      "http://acme.example/robots.txt",
    ]);
    // Redirects are ours to follow, hop by hop.
    expect(asked.every(({ init }) => init?.maxRedirects === 0)).toBe(true);
    const hosts = new Set(asked.map(({ url }) => new URL(url).hostname));
    expect([...hosts].sort()).toEqual(["acme.example", "careers.acme.example"]);
    expect(asked.map(({ url }) => url)).toContain("http://acme.example/private/board/");

    const paths = sites.requests.map(({ host, path }) => `${host}${path}`);
    expect(paths).toContain("acme.example/newsroom/");
    expect(paths.filter((path) => path.includes("/private/"))).toEqual([]);
    expect(sites.requests.filter(({ host }) => !["acme.example", "careers.acme.example"].includes(host))).toEqual([]);
    // /status is a page of the site and may be asked for; its redirect to the metadata address is never followed.
    expect(asked.map(({ url }) => url).filter((url) => url.includes("169.254.169.254"))).toEqual([]);
    expect(paths.filter((path) => path.includes("latest/meta-data"))).toEqual([]);
  });

  it("follows a sitemap index when robots.txt names no sitemap, and skips pages that are missing", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("rival.example", { http });
    expect(crawl.pages.map((page) => [page.kind, page.url])).toEqual([
      ["home", "http://rival.example/"],
      ["contact", "http://rival.example/contact/"],
      ["team", "http://rival.example/team/"],
      ["imprint", "http://rival.example/imprint/"],
    ]);
    const paths = sites.requests.filter(({ host }) => host === "rival.example").map(({ path }) => path);
    expect(paths).toEqual(expect.arrayContaining(["/sitemap.xml", "/page-sitemap.xml", "/privacy/"]));
    expect(crawl.pages[0]!.headers.get("server")).toBe("Apache/2.4.58 (Ubuntu)");
  });

  it("reads a small site that has no sitemap, every page it links", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("Other.example", { http });
    expect(crawl.domain).toBe("other.example");
    // /visit.html ("Visit us", a locations page) is missing; the menu, unnamed, comes last but is read.
    expect(crawl.pages.map((page) => [page.kind, page.url])).toEqual([
      ["home", "http://other.example/"],
      ["about", "http://other.example/about.html"],
      ["other", "http://other.example/menu.html"],
    ]);
  });

  it("reads nothing from a site whose robots.txt disallows everything", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("blocked.example", { http });
    expect(crawl).toEqual({ domain: "blocked.example", homeUrl: null, pages: [] });
    expect(sites.requests.filter(({ host }) => host === "blocked.example").map(({ path }) => path)).toEqual([
      "/robots.txt",
    ]);
  });

  it("answers an empty crawl for a site that does not exist", async () => {
    const { http } = recordingClient();
    expect(await crawlCompanySite("nowhere.test", { http })).toEqual({
      domain: "nowhere.test",
      homeUrl: null,
      pages: [],
    });
  });

  it("keeps to maxPages", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("acme.example", { http, maxPages: 3 });
    expect(crawl.pages.map((page) => page.kind)).toEqual(["home", "contact", "team"]);
    expect(sites.requests.filter(({ path }) => path === "/impressum/" || path === "/about-us/")).toEqual([]);
  });

  it("keeps to maxBytes over the whole crawl", async () => {
    const { http } = recordingClient();
    const maxBytes = 16 * 1024;
    const crawl = await crawlCompanySite("acme.example", { http, maxBytes });
    const pageBytes = crawl.pages.reduce((sum, page) => sum + Buffer.byteLength(page.html), 0);
    expect(crawl.pages[0]!.kind).toBe("home");
    expect(crawl.pages.length).toBeGreaterThan(1);
    expect(crawl.pages.length).toBeLessThan(8);
    expect(pageBytes).toBeLessThanOrEqual(maxBytes);
  });

  it("stops when its caller gives up", async () => {
    const { http } = recordingClient();
    const controller = new AbortController();
    controller.abort();
    await expect(crawlCompanySite("acme.example", { http, signal: controller.signal })).rejects.toThrow();
  });
});

/** Pages as [kind, url]. */
const listed = (crawl: SiteCrawl) => crawl.pages.map((page) => [page.kind, page.url]);

/** The paths the fixture server was asked for on a host (robots.txt left out: the client reads it for itself too). */
const pathsAsked = (host: string) =>
  sites.requests.filter((request) => request.host === host && request.path !== "/robots.txt").map(({ path }) => path);

describe("crawlCompanySite, reading what a person would read", () => {
  it("reads a frameset home page's frames as the home page, before anything else", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-frameset.example", { http });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-frameset.example/"],
      ["home", "http://crawl-frameset.example/menu.html"],
      ["home", "http://crawl-frameset.example/start.html"],
      // Found only in the menu frame.
      ["contact", "http://crawl-frameset.example/kontakt.html"],
      ["imprint", "http://crawl-frameset.example/impressum.html"],
      ["other", "http://crawl-frameset.example/werkstatt.html"],
    ]);
    expect(pathsAsked("crawl-frameset.example").slice(0, 4)).toEqual([
      "/",
      "/menu.html",
      "/start.html",
      "/sitemap.xml",
    ]);
  });

  it("reads an iframe shell's framed page as the home page and follows its links", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-iframe.example", { http });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-iframe.example/"],
      ["home", "http://crawl-iframe.example/site/home.html"],
      ["contact", "http://crawl-iframe.example/site/contact.html"],
      ["other", "http://crawl-iframe.example/site/tours.html"],
    ]);
  });

  it("finds a locations page linked only from the footer among twenty blog posts, and reads it first", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-footer.example", { http, maxPages: 3 });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-footer.example/"],
      ["locations", "http://crawl-footer.example/where-to-find-us/"],
      ["security", "http://crawl-footer.example/security/"],
    ]);
    expect(pathsAsked("crawl-footer.example").filter((path) => path.startsWith("/blog/"))).toEqual([]);
  });

  it("spends the rest of the budget on lesser pages, but never on search, feeds, pagination or other sites", async () => {
    const { http, asked } = recordingClient();
    const crawl = await crawlCompanySite("crawl-footer.example", { http });
    expect(crawl.pages).toHaveLength(12);
    expect(listed(crawl).slice(0, 4)).toEqual([
      ["home", "http://crawl-footer.example/"],
      ["locations", "http://crawl-footer.example/where-to-find-us/"],
      ["security", "http://crawl-footer.example/security/"],
      ["other", "http://crawl-footer.example/blog/"],
    ]);
    expect(crawl.pages.slice(4).every((page) => /\/blog\/2024\/\d\d\/field-notes-\d+\/$/.test(page.url))).toBe(true);
    const paths = pathsAsked("crawl-footer.example");
    expect(paths.filter((path) => /[?]s=|\/feed\/|\/page\/2\//.test(path))).toEqual([]);
    // /press-kit/ redirects to another site: asked for, the redirect not followed, the page not kept.
    expect(paths).toContain("/press-kit/");
    expect(asked.filter(({ url }) => new URL(url).hostname.endsWith("elsewhere.example"))).toEqual([]);
    expect(crawl.pages.filter((page) => page.url.includes("press"))).toEqual([]);
  });

  it("reaches the people pages a staff list links, two links from the home page", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-deep.example", { http });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-deep.example/"],
      ["contact", "http://crawl-deep.example/contact/"],
      ["team", "http://crawl-deep.example/staff/"],
      // By path under /staff/, by a name as link text ("Brandt, Lucas", "Ruth Adeyemi, MFA"), or both.
      ["team", "http://crawl-deep.example/staff/amara-okafor/"],
      ["team", "http://crawl-deep.example/staff/lucas-brandt/"],
      ["team", "http://crawl-deep.example/staff/mei-lin-chen/"],
      ["team", "http://crawl-deep.example/teachers/ruth-adeyemi.html"],
      // Past the cap on people pages, still ahead of an unnamed page.
      ["team", "http://crawl-deep.example/staff/tomas-herrera/"],
      ["other", "http://crawl-deep.example/admissions/"],
    ]);
    // The dated news post is tried last (it is missing).
    expect(pathsAsked("crawl-deep.example").at(-1)).toBe("/news/2024/05/science-fair-winners/");
  });

  it("uses the whole budget when there are enough useful pages", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-deep.example", { http, maxPages: 6 });
    expect(crawl.pages.map((page) => page.kind)).toEqual(["home", "contact", "team", "team", "team", "team"]);
    expect(pathsAsked("crawl-deep.example")).toHaveLength(6 + 1); // and the sitemap
  });

  it("reads pages only the sitemap lists, and still obeys robots.txt and skips carts", async () => {
    const { http, asked } = recordingClient();
    const crawl = await crawlCompanySite("crawl-sitemap.example", { http });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-sitemap.example/"],
      ["contact", "http://crawl-sitemap.example/kontakt/"],
      ["imprint", "http://crawl-sitemap.example/impressum/"],
      ["other", "http://crawl-sitemap.example/leistungen/"],
      ["other", "http://crawl-sitemap.example/2023/04/neue-werkhalle/"],
    ]);
    // Linked from the home page and listed in the sitemap as a contacts page, but robots.txt forbids /intern/.
    expect(asked.map(({ url }) => url)).toContain("http://crawl-sitemap.example/intern/ansprechpartner/");
    const paths = pathsAsked("crawl-sitemap.example");
    expect(paths.filter((path) => path.startsWith("/intern/") || path.startsWith("/warenkorb"))).toEqual([]);
  });

  it("treats the apex and www. as one site and one page as one page, however a link spells it", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("crawl-www.example", { http });
    expect(listed(crawl)).toEqual([
      ["home", "http://crawl-www.example/"],
      ["contact", "http://crawl-www.example/contact/"],
      ["team", "http://www.crawl-www.example/team/"],
    ]);
    const asked = sites.requests
      .filter(({ host, path }) => host.endsWith("crawl-www.example") && path !== "/robots.txt")
      .map(({ host, path }) => `${host}${path}`);
    expect(asked).toEqual([
      "crawl-www.example/",
      "crawl-www.example/sitemap.xml",
      "crawl-www.example/contact/",
      "www.crawl-www.example/team/",
    ]);
  });

  it.each([
    "crawl-frameset.example",
    "crawl-iframe.example",
    "crawl-footer.example",
    "crawl-deep.example",
    "acme.example",
  ])("asks for no page of %s twice", async (domain) => {
    const { http } = recordingClient();
    await crawlCompanySite(domain, { http });
    const pages = sites.requests
      .filter(({ path }) => path !== "/robots.txt")
      .map(({ host, path }) => `${host.replace(/^www\./, "")}${path.replace(/\/$/, "")}`);
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.filter((page, index) => pages.indexOf(page) !== index)).toEqual([]);
  });

  it.each(["crawl-deep.example", "crawl-footer.example", "crawl-frameset.example", "acme.example"])(
    "reads the same pages of %s in the same order however the responses race",
    async (domain) => {
      const crawls: string[][] = [];
      // Two schedules that reverse which of two requests in flight answers first.
      for (const delay of [(url: string) => (url.length % 3) * 15, (url: string) => ((url.length + 1) % 3) * 15]) {
        const { http } = recordingClient(delay);
        crawls.push((await crawlCompanySite(domain, { http })).pages.map((page) => page.url));
      }
      expect(crawls[0]!.length).toBeGreaterThan(2);
      expect(crawls[1]).toEqual(crawls[0]);
    },
  );
});
