import { describe, expect, it } from "vitest";
import {
  acceptEmail,
  decodeCloudflareEmail,
  extractEmails,
  mailtoAddresses,
} from "@/lib/providers/first-party/website/extract-emails";
import { readCompanySiteFile } from "@/test/fakes/company-sites";

const PAGE = "http://acme.example/contact/";

function found(html: string) {
  return extractEmails(html, PAGE).map(({ address, evidence }) => [address, evidence]);
}

describe("extractEmails on the fixture sites", () => {
  it("finds every spelling on acme.example's contact page, off-site ones included", async () => {
    const html = await readCompanySiteFile("acme.example", "contact.html");
    const emails = extractEmails(html, PAGE);
    expect(emails.map(({ address, evidence }) => [address, evidence]).sort()).toEqual([
      ["acme.analytics.usergroup@gmail.com", "text"],
      ["info@acme.example", "mailto"],
      ["sales@acme.example", "obfuscated"],
      ["support@acme.example", "cfemail"],
    ]);
    expect(new Set(emails.map((email) => email.pageUrl))).toEqual(new Set([PAGE]));
  });

  it("reads the press page's entity-encoded address as obfuscated, and the imprint's plain one as text", async () => {
    expect(found(await readCompanySiteFile("acme.example", "press.html"))).toEqual([
      ["press@acme.example", "obfuscated"],
    ]);
    expect(found(await readCompanySiteFile("acme.example", "impressum.html"))).toEqual([["info@acme.example", "text"]]);
  });

  it("prefers the mailto link when the team page also states an address in JSON-LD and as link text", async () => {
    expect(found(await readCompanySiteFile("acme.example", "team.html")).sort()).toEqual([
      ["jordan.ellis@acme.example", "mailto"],
      ["priya.natarajan@acme.example", "mailto"],
      ["tomas.reyes@acme.example", "mailto"],
    ]);
  });

  it("ignores the retina image name in the home page's srcset and the form placeholder", async () => {
    expect(found(await readCompanySiteFile("acme.example", "index.html"))).toEqual([["info@acme.example", "mailto"]]);
  });

  it("finds nothing on the bakery's pages", async () => {
    expect(found(await readCompanySiteFile("other.example", "index.html"))).toEqual([]);
    expect(found(await readCompanySiteFile("other.example", "about.html"))).toEqual([]);
  });
});

describe("extractEmails spellings", () => {
  it.each([
    ["<p>Write to Sales@Acme.example.</p>", [["sales@acme.example", "text"]]],
    ["<p>sales [at] acme [dot] example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>sales(at)acme(dot)example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>sales (AT) acme (DOT) co (DOT) uk</p>", [["sales@acme.co.uk", "obfuscated"]]],
    ["<p>sales {at} acme.example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>sales &lt;at&gt; acme &lt;dot&gt; example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>Write to sales at acme dot example today</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>Contact us at info at acme dot example</p>", [["info@acme.example", "obfuscated"]]],
    ["<p>sales&#64;acme.example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>sales&#x40;acme&#46;example</p>", [["sales@acme.example", "obfuscated"]]],
    ["<p>sales<span>@</span>acme.example</p>", [["sales@acme.example", "obfuscated"]]],
    [
      '<a href="mailto:Info%40acme.example?subject=Hi%20there&amp;cc=boss@acme.example">Mail</a>',
      [["info@acme.example", "mailto"]],
    ],
    [
      '<a href="MAILTO:a@acme.example,b@acme.example;c@acme.example">Mail</a>',
      [
        ["a@acme.example", "mailto"],
        ["b@acme.example", "mailto"],
        ["c@acme.example", "mailto"],
      ],
    ],
    [
      '<span class="__cf_email__" data-cfemail="5a292f2a2a35282e1a3b39373f743f223b372a363f">[email&#160;protected]</span>',
      [["support@acme.example", "cfemail"]],
    ],
    [
      '<a href="/cdn-cgi/l/email-protection#5a292f2a2a35282e1a3b39373f743f223b372a363f">Support</a>',
      [["support@acme.example", "cfemail"]],
    ],
    [
      '<script type="application/ld+json">{"@type":"Organization","email":"mailto:Hello@acme.example","contactPoint":{"@type":"ContactPoint","email":"billing@acme.example"}}</script>',
      [
        ["hello@acme.example", "json-ld"],
        ["billing@acme.example", "json-ld"],
      ],
    ],
  ])("%s", (html, expected) => {
    expect(found(html)).toEqual(expected);
  });

  it.each([
    ['<img src="/img/logo@2x.png" alt="logo@2x.png"><p>logo@2x.png icon@3x.webp</p>'],
    ["<p>Look at acme.example for details, we are based at acme dot example</p>"],
    ["<p>Reach us at acme dot example</p>"],
    ["<p>user@localhost and user@acme.123 and @acme.example and a..b@acme.example</p>"],
    ["<p>you@example.com, name@domain.com</p>"],
    ["<p>0123456789abcdef0123456789abcdef@o12345.ingest.errors.test</p>"],
    [`<p>${"x".repeat(70)}@acme.example</p>`],
    ['<script>var support = "hidden@acme.example";</script><style>/* css@acme.example */</style>'],
    ['<a href="mailto:">Mail</a><a href="mailto:not-an-address">Mail</a>'],
  ])("rejects look-alikes: %s", (html) => {
    expect(found(html)).toEqual([]);
  });

  it("keeps one entry per address, with its best evidence", () => {
    const html =
      '<p>press&#64;acme.example or press@acme.example</p><a href="mailto:press@acme.example">Press</a><p>press [at] acme [dot] example</p>';
    expect(found(html)).toEqual([["press@acme.example", "mailto"]]);
  });
});

describe("helpers", () => {
  it("decodes Cloudflare's protection and refuses malformed input", () => {
    expect(decodeCloudflareEmail("5a292f2a2a35282e1a3b39373f743f223b372a363f")).toBe("support@acme.example");
    expect(decodeCloudflareEmail("zz")).toBeNull();
    expect(decodeCloudflareEmail("5a29")).toBeNull();
  });

  it("splits and decodes mailto URLs", () => {
    expect(mailtoAddresses("mailto:jordan.ellis%40acme.example?subject=x")).toEqual(["jordan.ellis@acme.example"]);
    // A stray "%" does not throw; the undecoded text is then judged as it stands.
    expect(mailtoAddresses("mailto:info@acme.example%")).toEqual([]);
    expect(mailtoAddresses("mailto:%zz@acme.example")).toEqual(["%zz@acme.example"]);
  });

  it("normalises accepted addresses", () => {
    expect(acceptEmail(" Jordan.Ellis@ACME.example. ")).toBe("jordan.ellis@acme.example");
    expect(acceptEmail("banner@2x.jpg")).toBeNull();
  });
});
