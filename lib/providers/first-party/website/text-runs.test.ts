import { describe, expect, it } from "vitest";
import { parseHtml, visibleText } from "@/lib/providers/first-party/website/html";
import { textRuns } from "@/lib/providers/first-party/website/text-runs";

function runsOf(html: string) {
  return textRuns(parseHtml(html));
}

describe("textRuns", () => {
  it("starts a new run at a link, so the word before it does not join the address inside it", () => {
    const runs = runsOf(
      '<p>e-mail to<a href="mailto:list-request@lists.acme.example">list-request@lists.acme.example</a></p>',
    );
    expect(runs.map((run) => run.text)).toEqual(["e-mail to", "list-request@lists.acme.example"]);
    // Same paragraph, so prose that spans the link (a shared domain) can still be read as one block.
    expect(new Set(runs.map((run) => run.block)).size).toBe(1);
  });

  it("breaks at table cells, list items, definition terms, <br> and buttons", () => {
    const html = `
      <table><tr><td>Jane Doe</td><td>Director</td><td>jane@acme.example</td></tr></table>
      <ul><li>Sales</li><li>Support</li></ul>
      <dl><dt>Press</dt><dd>press@acme.example</dd></dl>
      <p>Tel. 555-0100<br>Fax 555-0101<button>Copy</button>info@acme.example</p>`;
    expect(runsOf(html).map((run) => run.text)).toEqual([
      "Jane Doe",
      "Director",
      "jane@acme.example",
      "Sales",
      "Support",
      "Press",
      "press@acme.example",
      "Tel. 555-0100",
      "Fax 555-0101",
      "Copy",
      "info@acme.example",
    ]);
  });

  it("joins text across inline wrappers and records where each wrapper opens and closes", () => {
    expect(runsOf("<p><span>jane</span>@<span>acme</span>.example</p>")).toEqual([
      { text: "jane@acme.example", seams: [4, 5, 9], block: expect.any(Number) },
    ]);
    expect(runsOf("<p>Write to <b>jane@acme.example</b> today</p>")[0]).toMatchObject({
      text: "Write to jane@acme.example today",
      seams: [9, 26],
    });
  });

  it("collapses whitespace, decodes entities and drops zero-width characters", () => {
    expect(
      runsOf("<p>  jane&#8203;&#64;acme&#46;example\n\t&nbsp; or   <i> sales&shy;@acme.example </i></p>"),
    ).toMatchObject([{ text: "jane@acme.example or sales@acme.example" }]);
  });

  it("skips what no visitor sees: scripts, styles, hidden and display:none elements", () => {
    const html = `<head><title>Acme</title></head><body>
      <script>var a = "x@acme.example";</script><style>@media print { a { color: red } }</style>
      <p>jane<span style="display: none">nospam</span>@acme.example</p>
      <p>bob<span STYLE="color:red;DISPLAY:NONE">.trap</span>@acme.example</p>
      <div hidden>hidden@acme.example</div><p>visible</p></body>`;
    expect(runsOf(html).map((run) => run.text)).toEqual(["jane@acme.example", "bob@acme.example", "visible"]);
  });

  it("keeps text whose style merely mentions display", () => {
    expect(runsOf('<p><span style="display:inline-block">shown</span></p>').map((run) => run.text)).toEqual(["shown"]);
  });
});

describe("visibleText", () => {
  it("puts every run on its own line and leaves the tree as it was", () => {
    const root = parseHtml(
      "<div>Acme GmbH<br>Main Street 1<script>x()</script></div><p>Call <a href='tel:5550100'>555-0100</a></p>",
    );
    expect(visibleText(root)).toBe("Acme GmbH\nMain Street 1\nCall\n555-0100");
    expect(root.querySelectorAll("script")).toHaveLength(1);
  });
});
