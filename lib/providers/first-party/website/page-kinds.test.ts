import { describe, expect, it } from "vitest";
import { looksLikeHtmlPage, pageKindOf } from "@/lib/providers/first-party/website/page-kinds";
import { robotsSitemaps, sitemapLocations } from "@/lib/providers/first-party/website/sitemap";

describe("pageKindOf", () => {
  it.each([
    ["/", "", "home"],
    ["/contact/", "", "contact"],
    ["/kontakt", "", "contact"],
    ["/about-us/", "", "about"],
    ["/ueber-uns/", "", "about"],
    ["/%C3%BCber-uns/", "", "about"],
    ["/company/", "", "about"],
    ["/about/team/", "", "team"],
    ["/leadership", "", "team"],
    ["/impressum/", "", "imprint"],
    ["/legal-notice", "", "imprint"],
    ["/careers/", "", "careers"],
    ["/jobs", "", "careers"],
    ["/newsroom/", "", "press"],
    ["/legal/privacy/", "", "legal"],
    ["/datenschutz.html", "", "legal"],
    ["/private/board/", "Board & leadership portal", "team"],
    ["/ueber-uns/vorstand/", "", "team"],
    ["/faculty-directory/", "", "team"],
    ["/ansprechpartner.html", "", "team"],
    ["/unternehmen/standorte/", "", "locations"],
    ["/showroom-hamburg/", "", "locations"],
    ["/x/", "Our offices", "locations"],
    ["/abteilungen/einkauf/", "", "department"],
    ["/departments/", "", "department"],
    ["/veranstaltungen/", "", "events"],
    ["/security/", "", "security"],
    ["/product-recalls/", "Product Safety & Recalls", "security"],
    ["/wholesale/", "", "department"],
    ["/plan-your-visit/", "", "locations"],
    ["/responsible-disclosure/", "", "security"],
    ["/datenschutzerklaerung/", "", "legal"],
    ["/contactez-nous/", "", "contact"],
    ["/chi-siamo/", "", "about"],
    ["/p/123", "Get in touch", "contact"],
    ["/contactless-payments/", "", "other"],
    ["/teamwork-features", "", "other"],
    ["/pricing/", "Pricing", "other"],
  ])("%s (%s) is %s", (path, text, expected) => {
    expect(pageKindOf(new URL(path, "http://acme.example"), text)).toBe(expected);
  });

  it("knows files from pages", () => {
    expect(looksLikeHtmlPage(new URL("http://acme.example/press/kit.pdf"))).toBe(false);
    expect(looksLikeHtmlPage(new URL("http://acme.example/team/index.html"))).toBe(true);
    expect(looksLikeHtmlPage(new URL("http://acme.example/team/"))).toBe(true);
    expect(looksLikeHtmlPage(new URL("http://acme.example/team/jane.vcf"))).toBe(false);
  });
});

describe("sitemaps", () => {
  it("reads url sets, indexes, namespaces, CDATA and entities", () => {
    expect(
      sitemapLocations(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://acme.example/a?x=1&amp;y=2 </loc></url><url><loc><![CDATA[https://acme.example/b]]></loc></url></urlset>`,
      ),
    ).toEqual({
      kind: "urlset",
      locations: ["https://acme.example/a?x=1&y=2", "https://acme.example/b"],
    });
    expect(
      sitemapLocations(
        `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://acme.example/page-sitemap.xml</sm:loc></sm:sitemap></sm:sitemapindex>`,
      ),
    ).toEqual({
      kind: "index",
      locations: ["https://acme.example/page-sitemap.xml"],
    });
    expect(sitemapLocations("not xml")).toEqual({ kind: "urlset", locations: [] });
  });

  it("reads Sitemap lines from anywhere in robots.txt", () => {
    expect(
      robotsSitemaps(
        "User-agent: *\nDisallow: /private/\nSITEMAP: https://acme.example/sitemap.xml # main\r\n\nsitemap:https://acme.example/news.xml\nAllow: /",
      ),
    ).toEqual(["https://acme.example/sitemap.xml", "https://acme.example/news.xml"]);
  });
});
