import { describe, expect, it } from "vitest";
import { collectPageEvidence, mergeEvidence } from "./page-evidence";

const url = "https://www.acme.example/shop/";

describe("collectPageEvidence", () => {
  const html = `<!doctype html><html><head>
    <meta name="generator" content="Example CMS 2.1">
    <link rel="modulepreload" href="/_app/entry.3f2a.js">
    <link rel="preload" as="script" href="https://cdn.example.net/lib.js">
    <link rel="preload" as="font" href="/fonts/inter.woff2">
    <link rel="stylesheet" href="/css/site.css">
    <style>.hero { color: red }</style>
    <script src="/js/app.js?ver=2"></script>
    <script>var s = document.createElement('script'); s.src = 'https://stats.example.net/tracker.js'; var x = 'a.css';</script>
    <!-- built with Example Editor -->
  </head><body><h1>Acme &amp; Sons</h1><script>var hidden = 1;</script><noscript>Enable scripts</noscript>
  <p>Widgets</p></body></html>`;
  const evidence = collectPageEvidence({ url, html, headers: new Headers([["set-cookie", "sid=1; Path=/"]]) }, 400_000);

  it("feeds scripts, scripts the page preloads and scripts a loader adds; not fonts or stylesheets", () => {
    expect([...evidence.scriptSrcAsWritten]).toEqual([
      ["https://www.acme.example/js/app.js?ver=2", "/js/app.js?ver=2"],
      ["https://stats.example.net/tracker.js", "https://stats.example.net/tracker.js"],
      ["https://www.acme.example/_app/entry.3f2a.js", "/_app/entry.3f2a.js"],
      ["https://cdn.example.net/lib.js", "https://cdn.example.net/lib.js"],
    ]);
  });

  it("keeps comments in the HTML, and visible text without scripts, styles or noscript", () => {
    expect(evidence.items.html).toContain("<!-- built with Example Editor -->");
    expect(evidence.items.text).toBe("Acme & Sons Widgets");
    expect(evidence.items.css).toBe(".hero { color: red }");
    expect(evidence.items.meta).toEqual({ generator: ["Example CMS 2.1"] });
    expect(evidence.items.cookies).toEqual({ sid: ["1"] });
  });

  it("reads the head and tail of a page longer than its share, and only headers when it has none", () => {
    const long = `<html><head><meta name="generator" content="Head CMS"></head><body>${"<p>filler</p>".repeat(10_000)}<footer>Tail</footer></body></html>`;
    const capped = collectPageEvidence({ url, html: long, headers: new Headers() }, 1_000);
    expect(capped.items.html).toHaveLength(1_000);
    expect(capped.items.meta).toEqual({ generator: ["Head CMS"] });
    expect(capped.items.text).toContain("Tail");

    const headersOnly = collectPageEvidence({ url, html: long, headers: new Headers([["server", "nginx"]]) }, 0);
    expect(headersOnly).toEqual({
      items: { url, headers: { server: ["nginx"] }, cookies: {} },
      roots: [],
      scriptSrcAsWritten: new Map(),
    });
  });
});

describe("mergeEvidence", () => {
  it("joins texts a page per line, home page first, and pools keyed clues without repeats", () => {
    const page = (path: string, body: string, server: string) =>
      collectPageEvidence(
        {
          url: `https://www.acme.example${path}`,
          html: `<html><body>${body}</body></html>`,
          headers: new Headers([["server", server]]),
        },
        400_000,
      );
    const merged = mergeEvidence([page("/", "Home", "nginx"), page("/about/", "About", "nginx")]);
    expect(merged.items.url).toBe("https://www.acme.example/\nhttps://www.acme.example/about/");
    expect(merged.items.text).toBe("Home\nAbout");
    expect(merged.items.headers).toEqual({ server: ["nginx"] });
    expect(merged.roots).toHaveLength(2);
  });
});
