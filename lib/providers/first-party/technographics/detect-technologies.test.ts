import { describe, expect, it } from "vitest";
import { type DetectedTechnology, detectTechnologies } from "./detect-technologies";

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
});
