import { describe, expect, it } from "vitest";
import {
  type DetectedTechnology,
  type DnsRecords,
  detectSiteTechnologies,
  type FetchedPage,
} from "./detect-technologies";

/** A visit that read only this page. */
const detectTechnologies = (page: FetchedPage, dns?: DnsRecords) => detectSiteTechnologies([page], dns);

// Handmade pages of a fictional company; the fingerprints are the real open dataset, so these tests also notice when
// an update of it changes how well-known stacks are recognised.
const WORDPRESS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta name="generator" content="WordPress 6.4.2">
  <meta property="og:site_name" content="Acme Widgets">
  <script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
  <script async src="https://www.googletagmanager.com/gtag/js?id=G-TEST000"></script>
  <script>window.dataLayer = window.dataLayer || [];</script>
</head>
<body><h1>Acme Widgets</h1><p>Industrial widgets since 1901.</p></body>
</html>`;

function byName(technologies: DetectedTechnology[], name: string): DetectedTechnology {
  const found = technologies.find((technology) => technology.name === name);
  if (!found)
    throw new Error(`${name} was not detected; got ${technologies.map((technology) => technology.name).join(", ")}`);
  return found;
}

describe("detectTechnologies", () => {
  const headers = new Headers([
    ["server", "nginx/1.25.3"],
    ["x-powered-by", "PHP/8.2.12"],
    ["set-cookie", "_ga=GA1.1.424242.1700000000; Path=/; Max-Age=63072000"],
    ["set-cookie", "session=opaque; HttpOnly"],
  ]);
  const technologies = detectTechnologies({ url: "https://acme.example/", html: WORDPRESS_PAGE, headers });

  it("recognises the CMS from its generator tag, with version, categories and evidence", () => {
    expect(byName(technologies, "WordPress")).toEqual({
      name: "WordPress",
      categories: ["CMS", "Blogs"],
      category: "CMS",
      confidence: 1,
      version: "6.4.2",
      evidence: ['meta generator "WordPress 6.4.2"', "script /wp-includes/js/jquery/jquery.min.js?ver=3.7.1"],
    });
  });

  it("reads versions and evidence from response headers", () => {
    expect(byName(technologies, "PHP")).toMatchObject({
      version: "8.2.12",
      evidence: ["header x-powered-by: PHP/8.2.12"],
    });
    expect(byName(technologies, "Nginx")).toMatchObject({
      category: "Web servers",
      version: "1.25.3",
      evidence: ["header server: nginx/1.25.3"],
    });
  });

  it("names a cookie as evidence without quoting its value", () => {
    const analytics = byName(technologies, "Google Analytics");
    expect(analytics.evidence).toContain("cookie _ga");
    expect(analytics.evidence.join(" ")).not.toContain("424242");
  });

  it("quotes script URLs as the page wrote them", () => {
    expect(byName(technologies, "Google Tag Manager").evidence).toEqual([
      "script https://www.googletagmanager.com/gtag/js?id=G-TEST000",
    ]);
    expect(byName(technologies, "jQuery").evidence).toEqual(["script /wp-includes/js/jquery/jquery.min.js?ver=3.7.1"]);
  });

  it("adds implied technologies with lower confidence and says what implied them", () => {
    const mysql = byName(technologies, "MySQL");
    expect(mysql.evidence).toEqual(["implied by WordPress"]);
    expect(mysql.confidence).toBeGreaterThan(0);
    expect(mysql.confidence).toBeLessThan(1);
  });

  it("sorts by confidence, then by name", () => {
    for (const [index, technology] of technologies.entries()) {
      const next = technologies[index + 1];
      if (!next) break;
      expect(technology.confidence >= next.confidence).toBe(true);
      if (technology.confidence === next.confidence)
        expect(technology.name.localeCompare(next.name, "en")).toBeLessThan(0);
    }
    expect(technologies.at(-1)?.name).toBe("MySQL");
  });

  it("recognises mail and email services from MX and TXT records", () => {
    const found = detectTechnologies(
      { url: "https://acme.example/", html: "<html><body>Hello</body></html>", headers: new Headers() },
      { mx: ["aspmx.l.google.com"], txt: ["v=spf1 include:amazonses.com ~all"] },
    );
    expect(byName(found, "Google Workspace")).toMatchObject({
      category: "Webmail",
      evidence: ["dns MX aspmx.l.google.com"],
    });
    expect(byName(found, "Amazon SES")).toMatchObject({ evidence: ["dns TXT v=spf1 include:amazonses.com ~all"] });
  });

  it("finds nothing on a plain page", () => {
    expect(
      detectTechnologies({
        url: "https://plain.example/",
        html: "<html><body><p>Just text.</p></body></html>",
        headers: new Headers(),
      }),
    ).toEqual([]);
  });

  it("does not treat the same clue seen twice as more certain", () => {
    // The dataset rates this script path as a 50% clue; two script tags matching it are still one clue.
    const page = `<html><head><script src="/portal/js/typof.js"></script><script src="/cdn/portal/js/typof.js?v=2"></script></head></html>`;
    const found = byName(
      detectTechnologies({ url: "https://acme.example/", html: page, headers: new Headers() }),
      "Typof",
    );
    expect(found.confidence).toBe(0.5);
    expect(found.evidence).toEqual(["script /portal/js/typof.js", "script /cdn/portal/js/typof.js?v=2"]);
  });

  it("detects nothing on a page that names the services without using them", () => {
    // Near misses of the clues below: a "fade" class, a local stylesheet, and the services named only in prose.
    const page = `<!doctype html><html><head><title>Plain Co</title><link rel="stylesheet" href="/css/site.css">
      <link rel="icon" href="/favicon.ico"></head>
      <body><div class="fade facade hero"><h1>Plain Co</h1>
      <p>We tried Wix, Google Fonts, Cloudflare and Elementor, and wrote this page by hand in Dreamweaver instead.</p>
      <p>Our cdn-cgi folder is empty. Call 555-0142.</p></div><script src="/js/site.js"></script></body></html>`;
    expect(detectTechnologies({ url: "https://plain.example/", html: page, headers: new Headers() })).toEqual([]);
  });
});

function detectOnPage(html: string, headers: Headers = new Headers()): DetectedTechnology[] {
  return detectTechnologies({ url: "https://www.acme.example/", html, headers });
}

describe("detectTechnologies: clues a static copy of a page carries", () => {
  it("recognises a site builder from its generator tag, without the generic builder sharing its wording", () => {
    const found = detectOnPage(`<html><head><meta charset="utf-8">
      <meta name="generator" content="Wix.com Website Builder">
      <link rel="preload" href="https://static.parastorage.com/services/wix-thunderbolt/dist/main.bundle.min.js" as="script">
      </head><body><div id="SITE_CONTAINER"><h1>Acme Tiles</h1></div></body></html>`);
    expect(byName(found, "Wix").evidence).toEqual([
      'meta generator "Wix.com Website Builder"',
      "script https://static.parastorage.com/services/wix-thunderbolt/dist/main.bundle.min.js",
    ]);
    expect(found.map((technology) => technology.name)).not.toContain("WebsiteBuilder");
  });

  it("recognises an icon kit from its kit script and its icon classes", () => {
    const found = detectOnPage(`<html><head>
      <script src="https://kit.fontawesome.com/3f9a1c2b7e.js" crossorigin="anonymous"></script></head>
      <body><p><i class="fa-solid fa-phone"></i> 555-0123</p></body></html>`);
    expect(byName(found, "Font Awesome").evidence).toEqual([
      "script https://kit.fontawesome.com/3f9a1c2b7e.js",
      `dom "[class*='fa']" class "fa-solid fa-phone"`,
    ]);
  });

  it("recognises Cloudflare from the paths its edge injects when no header names it", () => {
    const found = detectOnPage(`<html><body><p>Write to
      <a href="/cdn-cgi/l/email-protection#1c75727a735c7d7f717932796478716c707932" data-cfemail="1c75727a735c">[email&#160;protected]</a></p>
      <script data-cfasync="false" src="/cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js"></script>
      </body></html>`);
    expect(byName(found, "Cloudflare")).toMatchObject({
      category: "CDN",
      evidence: [
        "script /cdn-cgi/scripts/5c5dd728/cloudflare-static/email-decode.min.js",
        `dom "a[href*='/cdn-cgi/l/email-protection']"`,
        `dom "[data-cfemail]"`,
      ],
    });
  });

  it("recognises a font service from its stylesheet link", () => {
    const href = "https://fonts.googleapis.com/css2?family=Inter:wght@400;700&display=swap";
    const found = detectOnPage(`<html><head><link href="${href}" rel="stylesheet"></head><body>Hi</body></html>`);
    expect(byName(found, "Google Font API")).toMatchObject({
      category: "Font scripts",
      evidence: [`dom "link[href*='fonts.g']" href "${href}"`],
    });
  });

  it("recognises a page builder, which the dataset only looks for on WordPress, with its version", () => {
    const found = detectOnPage(`<html><head>
      <meta name="generator" content="Elementor 3.18.3; features: e_dom_optimization, additional_custom_breakpoints">
      <link rel='stylesheet' id='elementor-frontend-css' href='https://www.acme.example/wp-content/plugins/elementor/assets/css/frontend.min.css?ver=3.18.3' media='all' />
      </head><body class="home page-template-default elementor-default elementor-kit-6 elementor-page elementor-page-12">
      <div data-elementor-type="wp-page" data-elementor-id="12" class="elementor elementor-12">
      <section class="elementor-section elementor-top-section"><h2 class="elementor-heading-title">Welcome</h2></section>
      </div></body></html>`);
    expect(byName(found, "Elementor")).toMatchObject({ version: "3.18.3", category: "Page builders" });
    expect(byName(found, "Elementor").evidence).toContain(`dom "link[href*='/wp-content/plugins/elementor/']"`);
    expect(byName(found, "WordPress").confidence).toBe(1);
  });

  it("recognises an editor that signed the page in a comment", () => {
    const found =
      detectOnPage(`<html><!-- InstanceBegin template="/Templates/main.dwt" codeOutsideHTMLIsLocked="false" -->
      <head><!-- InstanceBeginEditable name="doctitle" --><title>Yardley &amp; Co</title><!-- InstanceEndEditable --></head>
      <body><p>Chartered surveyors.</p></body><!-- InstanceEnd --></html>`);
    expect(byName(found, "DreamWeaver")).toMatchObject({
      category: "Editors",
      evidence: ['html "<!-- InstanceBeginEditable"'],
    });
  });

  it("reads a dataset pattern written with escaped slashes", () => {
    const found = detectOnPage(`<html><head><script>
      !function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){};t=b.createElement(e);t.async=!0;t.src=v;
      s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script',
      'https://connect.facebook.net/en_US/fbevents.js');fbq('init','000000000000000');</script></head></html>`);
    expect(byName(found, "Facebook Pixel").evidence).toContain("script https://connect.facebook.net/en_US/fbevents.js");
  });

  it("counts the script a loader snippet adds as a script of the page", () => {
    const found = detectOnPage(`<html><head><script type="text/javascript">
      var _gaq = _gaq || []; _gaq.push(['_setAccount', 'UA-0000000-1']); _gaq.push(['_trackPageview']);
      (function() { var ga = document.createElement('script'); ga.async = true;
        ga.src = ('https:' == document.location.protocol ? 'https://ssl' : 'http://www') + '.google-analytics.com/ga.js';
        var s = document.getElementsByTagName('script')[0]; s.parentNode.insertBefore(ga, s); })();
      </script></head><body></body></html>`);
    expect(byName(found, "Google Analytics").evidence).toEqual(["script .google-analytics.com/ga.js"]);
  });

  it("matches markup a script holds as a template, as the page shows it once the script runs", () => {
    const found = detectOnPage(`<html><head><link rel="stylesheet" href="/wp-content/themes/club/style.css"></head>
      <body><script id="BorlabsCookieBoxWrap" type="text/template"><div id="BorlabsCookieBox" class="BorlabsCookie">
      <p>Wir nutzen Cookies.</p></div></script></body></html>`);
    expect(byName(found, "Borlabs Cookie").evidence).toEqual([`dom "#BorlabsCookieBox"`]);
  });

  it("lets a technology's excludes rule out another one", () => {
    const found = detectOnPage(
      `<html><body><header id="header" class="header" data-controller="HeaderOverlay">Menu</header></body></html>`,
      new Headers([["server", "Squarespace"]]),
    );
    const names = found.map((technology) => technology.name);
    expect(names).toContain("Squarespace");
    expect(names).not.toContain("Stimulus");
  });

  it("does not credit an add-on with its platform's own clue", () => {
    const names = detectOnPage("<html><body>Hi</body></html>", new Headers([["server", "Squarespace"]])).map(
      (technology) => technology.name,
    );
    expect(names).toEqual(["Squarespace"]);
  });
});

describe("detectSiteTechnologies", () => {
  const home = {
    url: "https://www.acme.example/",
    html: `<html><head><meta name="generator" content="WordPress 6.4.2"></head><body><h1>Acme</h1></body></html>`,
    headers: new Headers([["server", "nginx"]]),
  };
  const visit = {
    url: "https://www.acme.example/visit/",
    html: `<html><head><meta name="generator" content="WordPress 6.4.2"></head><body>
      <iframe src="https://www.youtube-nocookie.com/embed/abc123" title="Tour"></iframe>
      <script src="/wp-content/plugins/contact-form-7/includes/js/index.js?ver=5.8.4"></script></body></html>`,
    headers: new Headers([["set-cookie", "__cf_bm=opaque; path=/; HttpOnly"]]),
  };

  it("merges what every page shows: markup, scripts, headers and cookies", () => {
    const found = detectSiteTechnologies([home, visit]);
    expect(byName(found, "YouTube").evidence).toContain('html "<iframe src="https://www.youtube-nocookie.com/embed"');
    expect(byName(found, "Contact Form 7").version).toBe("5.8.4");
    expect(byName(found, "Cloudflare Bot Management").evidence).toEqual(["cookie __cf_bm"]);
    expect(byName(found, "Nginx").evidence).toEqual(["header server: nginx"]);
  });

  it("counts a clue repeated on every page once, for certainty and for evidence", () => {
    const wordpress = byName(
      detectSiteTechnologies([home, visit, { ...home, url: "https://www.acme.example/about/" }]),
      "WordPress",
    );
    expect(wordpress.evidence.filter((reason) => reason.startsWith("meta generator"))).toHaveLength(1);
    expect(wordpress.version).toBe("6.4.2");
  });

  it("finds nothing on no pages", () => {
    expect(detectSiteTechnologies([])).toEqual([]);
  });
});
