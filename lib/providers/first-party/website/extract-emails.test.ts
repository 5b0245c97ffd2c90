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
    ["<p>Meet us at the Berlin office dot com, or at booth 5 dot 2.</p>"],
    ["<p>Tel. (at) 555-0100, Fax (at) 555-0101</p>"],
    ["<p>Built with jquery@3.7.1 and lodash@4.17.21; npm i @scope/package@1.2.0</p>"],
    ["<p>@media screen and (max-width: 600px) { .logo { background: url(logo@2x.png) } }</p>"],
    ['<img src="hero.jpg" srcset="hero@2x.jpg 2x, hero@3x.jpg 3x"><p>hero@2x.jpg 2x, hero@3x.webp 3x</p>'],
    ["<p>Follow https://medium.com/@acme and https://medium.com/@acme.blog</p>"],
    ["<p>Find us on the fediverse: @jane@social.acme.example</p>"],
    ["<p>Meet Jane at acme.example, or read section 2.1 at acme.example</p>"],
  ])("rejects look-alikes: %s", (html) => {
    expect(found(html)).toEqual([]);
  });

  it("keeps one entry per address, with its best evidence", () => {
    const html =
      '<p>press&#64;acme.example or press@acme.example</p><a href="mailto:press@acme.example">Press</a><p>press [at] acme [dot] example</p>';
    expect(found(html)).toEqual([["press@acme.example", "mailto"]]);
  });
});

describe("extractEmails at element boundaries", () => {
  it.each([
    [
      '<p>For the digest, e-mail to<a href="mailto:list-request@lists.acme.example">list-request@lists.acme.example</a></p>',
      [["list-request@lists.acme.example", "mailto"]],
    ],
    [
      '<p>e-mail to<a href="/lists/">list-request@lists.acme.example</a></p>',
      [["list-request@lists.acme.example", "text"]],
    ],
    ["<p>Write to<b>jane@acme.example</b></p>", [["jane@acme.example", "text"]]],
    ["<p><strong>E-Mail</strong>jane@acme.example</p>", [["jane@acme.example", "text"]]],
    ["<p><span>jane@acme.example</span>Telefon 555-0123</p>", [["jane@acme.example", "text"]]],
    ["<p>Contact<span>sales [at] acme [dot] example</span></p>", [["sales@acme.example", "obfuscated"]]],
    [
      "<table><tr><td>Doe, Jane</td><td>Treasurer</td><td>jane@acme.example</td><td>555-0142</td></tr></table>",
      [["jane@acme.example", "text"]],
    ],
    [
      "<dl><dt>Press</dt><dd>press@acme.example</dd><dt>Sales</dt><dd>sales@acme.example</dd></dl>",
      [
        ["press@acme.example", "text"],
        ["sales@acme.example", "text"],
      ],
    ],
    ["<ul><li>Events</li><li>events@acme.example</li></ul>", [["events@acme.example", "text"]]],
    ["<p>Fax 555-0101<br>info@acme.example<br>www.acme.example</p>", [["info@acme.example", "text"]]],
    ["<div>Support</div><div>support@acme.example</div>", [["support@acme.example", "text"]]],
  ])("keeps neighbouring text out of the address: %s", (html, expected) => {
    expect(found(html)).toEqual(expected);
  });

  it.each([
    ["<p><span>jane</span>@<span>acme</span>.example</p>", "jane@acme.example"],
    ["<p>jane.doe<b>@acme.example</b></p>", "jane.doe@acme.example"],
    ["<p><font>jane</font><font>.doe@acme.example</font></p>", "jane.doe@acme.example"],
    ["<p>jane@mail.acme<em>.example</em></p>", "jane@mail.acme.example"],
    ['<p>jane<span style="display:none">nospam</span>@acme.example</p>', "jane@acme.example"],
    [
      '<p>jane<span style="color:#fff; display: none;">.decoy</span>@acme<b hidden>-trap</b>.example</p>',
      "jane@acme.example",
    ],
    ["<p>jane&#8203;@acme.example</p>", "jane@acme.example"],
  ])("reads an address split across inline wrappers as one: %s", (html, address) => {
    expect(found(html)).toEqual([[address, "obfuscated"]]);
  });

  it("does not read an address that is hidden from visitors", () => {
    expect(found('<div style="display:none">trap@acme.example</div><p hidden>bait@acme.example</p>')).toEqual([]);
  });
});

describe("extractEmails obfuscations seen in the wild", () => {
  it.each([
    ["<p>info (ät) verein (punkt) example</p>", "info@verein.example"],
    ["<p>info [at] verein [punkt] example</p>", "info@verein.example"],
    ["<p>info(at)verein(punkt)example</p>", "info@verein.example"],
    ["<p>Schreiben Sie an info at verein punkt example</p>", "info@verein.example"],
    ["<p>E-Mail: vorstand (at) verein.example</p>", "vorstand@verein.example"],
    ["<p>jane dot doe [at] acme [dot] example</p>", "jane.doe@acme.example"],
    ["<p>jane.doe at acme dot co dot uk</p>", "jane.doe@acme.co.uk"],
    ["<p>jane (@) acme.example</p>", "jane@acme.example"],
    ["<p>jane&commat;acme&period;example</p>", "jane@acme.example"],
    [
      "<p>&#106;&#97;&#110;&#101;&#64;&#97;&#99;&#109;&#101;&#46;&#101;&#120;&#97;&#109;&#112;&#108;&#101;</p>",
      "jane@acme.example",
    ],
    ["<p>sales&nbsp;[at]&nbsp;acme&nbsp;[dot]&nbsp;example</p>", "sales@acme.example"],
    ["<p>Schriftführer<br>andreas.maier at verein.example</p>", "andreas.maier@verein.example"],
    ["<p>sales\n  [at]\n  acme [dot] example</p>", "sales@acme.example"],
  ])("%s", (html, address) => {
    expect(found(html)).toEqual([[address, "obfuscated"]]);
  });

  it.each([
    [
      '<a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="3c575352485d57487c4a594e5955521259445d514c5059">[email&#160;protected]</a>',
      "kontakt@verein.example",
    ],
    [
      '<a href="https://acme.example/cdn-cgi/l/email-protection#7f0f0d1a0c0c3f1e1c121a511a071e120f131a">Press</a>',
      "press@acme.example",
    ],
  ])("decodes Cloudflare's protection: %s", (html, address) => {
    expect(found(html)).toEqual([[address, "cfemail"]]);
  });

  it("decodes Joomla 4's hidden-mail element, not its stand-in text", () => {
    const html = `<p>E-Mail: <joomla-hidden-mail is-link="1" is-email="1" first="a2Fzc2U=" last="dmVyZWluLmV4YW1wbGU="
      text="a2Fzc2VAdmVyZWluLmV4YW1wbGU=" base="">Diese E-Mail-Adresse ist vor Spambots geschützt!</joomla-hidden-mail></p>
      <joomla-hidden-mail is-link="1" is-email="0" first="S2FydGVu" last="dmVyZWluLmV4YW1wbGU=">x</joomla-hidden-mail>
      <joomla-hidden-mail is-email="1" first="not base64!" last="dmVyZWluLmV4YW1wbGU=">y</joomla-hidden-mail>`;
    expect(found(html)).toEqual([["kasse@verein.example", "obfuscated"]]);
  });

  it("decodes TYPO3's shifted mailto tokens, whatever shift the site set", () => {
    const html = `<p><a href="#" data-mailto-token="ocknvq,ugmtgvctkcvBxgtgkp0gzcorng" data-mailto-vector="2">Sekretariat</a>
      <a href="javascript:linkTo_UnCryptMailto('jxfiql7grdbkaXsbobfk+buxjmib');">Jugendwart</a>
      <a href="#" data-mailto-token="not a token at all">x</a></p>`;
    expect(found(html).sort()).toEqual([
      ["jugend@verein.example", "obfuscated"],
      ["sekretariat@verein.example", "obfuscated"],
    ]);
  });

  it("reads the mailto a script writes, and what the page shows without JavaScript", () => {
    const html = `<p>E-Mail: <script type="text/javascript">document.write('<a href="mai'+'lto:'+'info'+'&#64;'+'verein.example">'+'info'+'&#64;'+'verein.example</a>');</script>
      <noscript>jugend (at) verein.example</noscript>
      <script>var fallback = "noreply@verein.example"; track("kasse" + "@" + "verein.example");</script></p>`;
    expect(found(html).sort()).toEqual([
      ["info@verein.example", "obfuscated"],
      ["jugend@verein.example", "obfuscated"],
    ]);
  });

  it("decodes Joomla 3's cloaking script", () => {
    const html = `<p>E-Mail: <span id="cloak4f2a9c">Diese E-Mail-Adresse ist vor Spambots geschützt!</span>
      <script type="text/javascript">
        document.getElementById('cloak4f2a9c').innerHTML = '';
        var prefix = '&#109;a' + 'i&#108;' + '&#116;o';
        var path = 'hr' + 'ef' + '=';
        var addy4f2a9c = 'vorstand' + '&#64;';
        addy4f2a9c = addy4f2a9c + 'verein' + '&#46;' + 'example';
        var addy_text4f2a9c = 'Vorstand';
        document.getElementById('cloak4f2a9c').innerHTML += '<a ' + path + '\\'' + prefix + ':' + addy4f2a9c + '\\'>'+addy_text4f2a9c+'<\\/a>';
      </script></p>`;
    expect(found(html)).toEqual([["vorstand@verein.example", "obfuscated"]]);
  });

  it.each([
    ['<a href="mailto:%6A%61%6E%65%40acme.example?subject=Hello%20Acme">Jane</a>', "jane@acme.example"],
    [
      '<a href="&#109;&#97;&#105;&#108;&#116;&#111;&#58;jane&#64;acme&#46;example">jane&#64;acme&#46;example</a>',
      "jane@acme.example",
    ],
    ['<a href="mailto:Jane.Doe%40Acme.example?subject=Anfrage&amp;body=Hallo">Schreiben</a>', "jane.doe@acme.example"],
  ])("reads mailto links however they are encoded: %s", (html, address) => {
    expect(found(html)).toEqual([[address, "mailto"]]);
  });
});

describe("extractEmails on prose that shares one domain", () => {
  it.each([
    [
      "<p>All our addresses end in @verein.example; write to legal@ or press@.</p>",
      ["legal@verein.example", "press@verein.example"],
    ],
    ["<p>Kontakt: info@ / presse@ – jeweils @verein.example</p>", ["info@verein.example", "presse@verein.example"]],
    [
      '<p>Write to <b>board@</b> or <b>treasurer@</b><br>(all at @verein.example), or use <a href="/form">the form</a>.</p>',
      ["board@verein.example", "treasurer@verein.example"],
    ],
  ])("%s", (html, addresses) => {
    expect(found(html)).toEqual(addresses.map((address) => [address, "obfuscated"]));
  });

  it.each([
    ["<p>Addresses end in @verein.example.</p><p>Write to legal@ or press@.</p>"],
    ["<p>Write to legal@ or press@ (@verein.example or @club.example)</p>"],
    ["<p>Write to legal@ or press@ any time.</p>"],
    ["<p>Read https://medium.com/@acme.blog or ask info@ there.</p>"],
    ["<p>All our addresses end in @verein.example.</p>"],
  ])("gives nothing without one domain announced in the same block: %s", (html) => {
    expect(found(html)).toEqual([]);
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
