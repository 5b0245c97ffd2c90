import { describe, expect, it } from "vitest";
import { frameSources, isFrameShell, readPageLinks } from "@/lib/providers/first-party/website/page-links";

const onSite = (url: URL) => url.hostname.endsWith("acme.example");
const hrefs = (urls: readonly URL[]) => urls.map((url) => url.href);

describe("readPageLinks", () => {
  it("tells the site's map (nav, header, footer, menus) from the body, and counts addresses and names", () => {
    const html = `<header><a href="/about">About</a></header>
      <div class="main-menu"><ul><li><a href="/team">Team</a></li></ul></div>
      <main><a href="/staff/jane-doe">Jane Doe</a> <a href="/p/2">Doe, John</a> <a href="/p/3">Ann Lee</a>
        <a href="mailto:jane@acme.example">jane@acme.example</a> <a href="https://elsewhere.example/x">x</a>
        <map><area href="/offices" alt="Offices"></map></main>
      <div role="contentinfo"><a href="/impressum">Impressum</a></div>
      <iframe src="/widgets/map.html"></iframe>`;
    const found = readPageLinks(html, "http://acme.example/", onSite);
    expect(found.links.map(({ url, text, place }) => [url.pathname, text, place])).toEqual([
      ["/about", "About", "map"],
      ["/team", "Team", "map"],
      ["/staff/jane-doe", "Jane Doe", "body"],
      ["/p/2", "Doe, John", "body"],
      ["/p/3", "Ann Lee", "body"],
      ["/offices", "Offices", "body"],
      ["/impressum", "Impressum", "map"],
      ["/widgets/map.html", "", "frame"],
    ]);
    expect(found.mailtos).toBe(1);
    expect(found.personNameLinks).toBe(3);
  });

  it("resolves links against the page's <base href>", () => {
    const found = readPageLinks(`<base href="/site/"><a href="contact.html">C</a>`, "http://acme.example/", onSite);
    expect(hrefs(found.links.map((link) => link.url))).toEqual(["http://acme.example/site/contact.html"]);
  });
});

describe("frames", () => {
  const frameset = `<html><head><title>x</title></head><FRAMESET cols="20%,*"><FRAME SRC="menu.html">
    <!-- <frame src="old.html"> --><frame name=main src=main.html?a=1&amp;b=2><frame src="https://elsewhere.example/ad">
    </FRAMESET><noframes><body>Your browser cannot show frames. Lots of words here to read about us and more.</body></noframes></html>`;

  it("reads frame and iframe sources on the site, in order, not those in comments or on other sites", () => {
    expect(hrefs(frameSources(frameset, "http://acme.example/", onSite))).toEqual([
      "http://acme.example/menu.html",
      "http://acme.example/main.html?a=1&b=2",
    ]);
  });

  it("knows a frameset or an iframe shell from a page with an iframe in it", () => {
    expect(isFrameShell(frameset)).toBe(true);
    expect(isFrameShell(`<body><iframe src="/site/"></iframe><p>Loading</p></body>`)).toBe(true);
    const page = `<body><h1>Our offices</h1><p>${"We are a regional firm with offices in three towns. ".repeat(6)}</p>
      <iframe src="/map.html"></iframe></body>`;
    expect(isFrameShell(page)).toBe(false);
    expect(isFrameShell(`<body><p>Short page</p></body>`)).toBe(false);
  });
});
