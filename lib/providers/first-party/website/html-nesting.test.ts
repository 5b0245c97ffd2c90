import { describe, expect, it } from "vitest";
import { withinNestingLimit } from "./html-nesting";

describe("withinNestingLimit", () => {
  it("leaves ordinary pages whole, however many elements close or close themselves", () => {
    const page = `<!doctype html><html><head><title>Team <b></title><script>if (a < b) document.write("<div><div>")</script>
      </head><body>${"<div><span>x</span><br><img src=a.png><p>para<li>item</div>".repeat(2000)}
      <!-- <div><div><div> --><table>${"<tr><td>cell".repeat(500)}</table></body></html>`;
    expect(withinNestingLimit(page, 10)).toBe(page);
  });

  it("cuts a page before the tag that would open one element too many", () => {
    const page = `<body><p>Contact: <a href="mailto:info@acme.example">info@acme.example</a>${"<font><a href=/x>x".repeat(50)}`;
    const cut = withinNestingLimit(page, 21);
    expect(cut).toContain("info@acme.example</a>");
    expect(cut.match(/<font>/g)).toHaveLength(11);
    expect(cut.match(/<a href=\/x>/g)).toHaveLength(10);
  });

  it("counts tags inside an unclosed comment or raw-text element as text", () => {
    expect(withinNestingLimit(`<div><!-- ${"<div>".repeat(50)}`, 5)).toContain("<div>".repeat(50));
    expect(withinNestingLimit(`<div><script>${"<div>".repeat(50)}`, 5)).toContain("<div>".repeat(50));
  });
});
