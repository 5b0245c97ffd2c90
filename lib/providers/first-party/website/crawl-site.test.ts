import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import type { OutboundClient, OutboundRequest } from "@/lib/outbound/types";
import { crawlCompanySite } from "@/lib/providers/first-party/website/crawl-site";
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
function recordingClient() {
  const client = createOutboundClient({
    allowLoopback: true,
    portOverrides: { http: sites.port, https: closedPort },
    resolver: async () => ["127.0.0.1"],
  });
  const asked: { url: string; init: OutboundRequest | undefined }[] = [];
  const http: OutboundClient = {
    userAgent: client.userAgent,
    request: (url, init) => {
      asked.push({ url: String(url), init });
      return client.request(url, init);
    },
  };
  return { http, asked };
}

describe("crawlCompanySite", () => {
  it("crawls acme.example's home page and its contact, about, team, imprint, careers, press and legal pages", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("acme.example", { http });

    expect(crawl.domain).toBe("acme.example");
    expect(crawl.homeUrl).toBe("http://acme.example/");
    expect(crawl.pages.map((page) => [page.kind, page.url])).toEqual([
      ["home", "http://acme.example/"],
      ["contact", "http://acme.example/contact/"],
      // Linked as /about-us/, which redirects there; the sitemap's /about/ is not fetched a second time.
      ["about", "http://acme.example/about/"],
      ["team", "http://acme.example/team/"],
      ["imprint", "http://acme.example/impressum/"],
      // /careers/ redirects to a subdomain of the company's own domain.
      ["careers", "http://careers.acme.example/"],
      // Only the sitemap lists /press/; the /newsroom/ link redirects to a metadata address and is dropped.
      ["press", "http://acme.example/press/"],
      ["legal", "http://acme.example/legal/privacy/"],
    ]);
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
    expect(paths.filter((path) => path === "acme.example/status" || path.includes("latest/meta-data"))).toEqual([]);
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

  it("reads a small site that has no sitemap", async () => {
    const { http } = recordingClient();
    const crawl = await crawlCompanySite("Other.example", { http });
    expect(crawl.domain).toBe("other.example");
    expect(crawl.pages.map((page) => [page.kind, page.url])).toEqual([
      ["home", "http://other.example/"],
      ["about", "http://other.example/about.html"],
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
    expect(crawl.pages.map((page) => page.kind)).toEqual(["home", "contact", "about"]);
    expect(sites.requests.filter(({ path }) => path === "/team/")).toEqual([]);
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
