import { describe, expect, it } from "vitest";
import { addressContexts } from "@/lib/providers/first-party/website/address-context";

const page = "http://club.example/contact/";

/** What the page prints beside each address: "First Last | position | heading" per place it is printed. */
function beside(html: string, ...addresses: string[]): Record<string, string[]> {
  return Object.fromEntries(
    [...addressContexts(html, addresses, page)].map(([address, contexts]) => [
      address,
      contexts.map(
        ({ name, position, heading }) =>
          `${name === null ? "-" : `${name.firstName} ${name.lastName}`} | ${position ?? "-"} | ${heading ?? "-"}`,
      ),
    ]),
  );
}

describe("addressContexts", () => {
  it("reads the title and name before an address on its line, with credentials dropped", () => {
    const html = `<h2>Leadership</h2>
      <p>Executive Director, Jane Q. Doe : jane@club.example</p>
      <p>Director of Nursing, Ana Ruiz, RN, BSN : ana@club.example</p>`;
    expect(beside(html, "jane@club.example", "ana@club.example")).toEqual({
      "jane@club.example": ["Jane Doe | Executive Director | Leadership"],
      "ana@club.example": ["Ana Ruiz | Director of Nursing | Leadership"],
    });
  });

  it("reads dashes, disguised addresses and German offices", () => {
    const html = `<p>Jana Vogt – Kassenwartin – jana.vogt(at)club(dot)example<br>
      Schriftführer: Uwe Brandt, uwe.brandt [at] club.example</p>`;
    expect(beside(html, "jana.vogt@club.example", "uwe.brandt@club.example")).toEqual({
      "jana.vogt@club.example": ["Jana Vogt | Kassenwartin | -"],
      "uwe.brandt@club.example": ["Uwe Brandt | Schriftführer | -"],
    });
  });

  it("reads a table row by its header row, including 'Last, First' cells and a header of plain cells", () => {
    const html = `<table>
      <tr><td><strong>Funktion</strong></td><td><strong>Name</strong></td><td><strong>E-Mail</strong></td></tr>
      <tr><td>2. Vorsitzende</td><td>Dr. Eva Lorenz</td><td>e.lorenz (at) club.example</td></tr>
      <tr><td>Bootswart</td><td>Lenz, Peter</td><td><a href="mailto:p.lenz@club.example">p.lenz@club.example</a></td></tr>
      </table>`;
    expect(beside(html, "e.lorenz@club.example", "p.lenz@club.example")).toEqual({
      "e.lorenz@club.example": ["Eva Lorenz | 2. Vorsitzende | -"],
      "p.lenz@club.example": ["Peter Lenz | Bootswart | -"],
    });
  });

  it("reads a definition list, a mailto link's text and an hCard", () => {
    const html = `<dl><dt>Treasurer</dt><dd>John Smith, treasurer@club.example</dd></dl>
      <p>Questions? <a href="mailto:jd@club.example">Jane Doe</a></p>
      <div class="vcard"><span class="fn">Rev. Daniel Osei</span><span class="title">Senior Pastor</span>
        <a class="email" href="mailto:daniel@club.example">Email Daniel</a></div>`;
    expect(beside(html, "treasurer@club.example", "jd@club.example", "daniel@club.example")).toEqual({
      "treasurer@club.example": ["John Smith | Treasurer | -"],
      "jd@club.example": ["Jane Doe | - | -"],
      "daniel@club.example": ["Daniel Osei | Senior Pastor | -"],
    });
  });

  it("reads the headings of a profile page, past a paragraph of prose", () => {
    const html = `<main><h1>Joel Nakamura, PA-C</h1><h3>Physician Assistant</h3>
      <p>Joel sees patients for acute illness and annual physicals at our Seventh Street clinic.</p>
      <p>To reach Joel, email <a href="mailto:jnakamura@club.example">jnakamura@club.example</a>.</p></main>`;
    expect(beside(html, "jnakamura@club.example")).toEqual({
      "jnakamura@club.example": ["Joel Nakamura | Physician Assistant | -"],
    });
  });

  it("reads the lines above the address in its block", () => {
    const html = `<section><p><strong>Quist, Harriet CPA&reg;</strong><br>Practice Administrator<br>
      <a href="mailto:hquist@club.example">hquist@club.example</a></p>
      <p><strong>Callum Reid MRICS</strong><br>Associate, Residential Valuation<br>
      E-mail: <a href="mailto:creid@club.example">creid@club.example</a></p></section>`;
    expect(beside(html, "hquist@club.example", "creid@club.example")).toEqual({
      "hquist@club.example": ["Harriet Quist | Practice Administrator | -"],
      "creid@club.example": ["Callum Reid | Associate, Residential Valuation | -"],
    });
  });

  it("takes an office heading as the position of the person below it, and never a heading as a person", () => {
    const html = `<div><h2>Branch Manager</h2><p>Karen Voss</p><p><a href="mailto:kvoss@club.example">kvoss@club.example</a></p></div>
      <div><h2>Scholarship Applications</h2><p>Send your form to applications@club.example.</p></div>
      <div><h2>Board of Directors</h2><p>The board: <a href="mailto:boards@club.example">boards@club.example</a></p></div>`;
    expect(beside(html, "kvoss@club.example", "applications@club.example", "boards@club.example")).toEqual({
      "kvoss@club.example": ["Karen Voss | Branch Manager | Branch Manager"],
      "applications@club.example": ["- | - | Scholarship Applications"],
      "boards@club.example": ["- | - | Board of Directors"],
    });
  });

  it("does not give one person's heading to an address printed after another's", () => {
    const html = `<h3>Mara Lind</h3><p>mara@club.example</p><p>General questions: info@club.example</p>`;
    expect(beside(html, "mara@club.example", "info@club.example")).toEqual({
      "mara@club.example": ["Mara Lind | - | -"],
      "info@club.example": ["- | - | -"],
    });
  });
});
