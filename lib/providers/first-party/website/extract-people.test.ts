import { describe, expect, it } from "vitest";
import { extractPeople } from "@/lib/providers/first-party/website/extract-people";
import { readCompanySiteFile } from "@/test/fakes/company-sites";

describe("extractPeople on the fixture sites", () => {
  it("reads acme.example's five team cards and merges the JSON-LD person into its card", async () => {
    const page = "http://acme.example/team/";
    const people = extractPeople(await readCompanySiteFile("acme.example", "team.html"), page);
    expect(people).toEqual([
      {
        fullName: "Jordan Ellis",
        firstName: "Jordan",
        lastName: "Ellis",
        jobTitle: "Chief Executive Officer",
        email: "jordan.ellis@acme.example",
        linkedin: "https://www.linkedin.com/in/jordan-ellis-acme-test",
        twitter: "jordan_acme",
        phone: null,
        evidence: "json-ld",
        pageUrl: page,
      },
      {
        fullName: "Priya Natarajan",
        firstName: "Priya",
        lastName: "Natarajan",
        jobTitle: "VP Sales",
        email: "priya.natarajan@acme.example",
        linkedin: null,
        twitter: "priya_ships",
        phone: "2175550144",
        evidence: "team-card",
        pageUrl: page,
      },
      {
        fullName: "Tomás Reyes",
        firstName: "Tomás",
        lastName: "Reyes",
        jobTitle: "Senior Software Engineer",
        email: "tomas.reyes@acme.example",
        linkedin: null,
        twitter: null,
        phone: null,
        evidence: "team-card",
        pageUrl: page,
      },
      {
        fullName: "Hannah Schmidt",
        firstName: "Hannah",
        lastName: "Schmidt",
        jobTitle: "Head of Marketing",
        email: null,
        linkedin: "https://www.linkedin.com/in/hannah-schmidt-acme-test",
        twitter: null,
        phone: null,
        evidence: "team-card",
        pageUrl: page,
      },
      {
        fullName: "Sam O’Neill",
        firstName: "Sam",
        lastName: "O’Neill",
        jobTitle: "Office Manager",
        email: null,
        linkedin: null,
        twitter: null,
        phone: null,
        evidence: "team-card",
        pageUrl: page,
      },
    ]);
  });

  it("reads the founder nested in the home page's Organization", async () => {
    const people = extractPeople(await readCompanySiteFile("acme.example", "index.html"), "http://acme.example/");
    expect(people.map(({ fullName, jobTitle, evidence }) => ({ fullName, jobTitle, evidence }))).toEqual([
      { fullName: "Jordan Ellis", jobTitle: "Chief Executive Officer", evidence: "json-ld" },
    ]);
  });

  it("reads rival.example's simple cards, whose titles are unmarked paragraphs after the name", async () => {
    const people = extractPeople(await readCompanySiteFile("rival.example", "team.html"), "http://rival.example/team/");
    expect(people.map(({ fullName, jobTitle, email }) => [fullName, jobTitle, email])).toEqual([
      ["Mara Lindqvist", "Founder & CEO", "mlindqvist@rival.example"],
      ["Dev Okafor", "Head of Data Science", "dokafor@rival.example"],
      ["Carla Ruiz", "Customer Success Manager", "cruiz@rival.example"],
    ]);
  });

  it("finds nobody on pages without people", async () => {
    expect(
      extractPeople(await readCompanySiteFile("acme.example", "contact.html"), "http://acme.example/contact/"),
    ).toEqual([]);
    expect(extractPeople(await readCompanySiteFile("other.example", "index.html"), "http://other.example/")).toEqual(
      [],
    );
  });
});

describe("extractPeople structures", () => {
  const page = "http://acme.example/about/";

  it("reads Persons from a @graph, an employee list and givenName/familyName", () => {
    const html = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
      {"@type":"Organization","name":"Acme","employee":[
        {"@type":"Person","givenName":"Ana","familyName":"de la Cruz","jobTitle":"CFO","email":"ana.delacruz@acme.example"},
        {"@type":"schema:Person","name":"Ben Okoro","sameAs":"https://de.linkedin.com/in/ben-okoro"}]},
      {"@type":["Person"],"name":"Prof. Dr. Li Wei Zhang, PhD","url":"https://x.com/lwzhang"}]}</script>`;
    expect(
      extractPeople(html, page).map(({ fullName, firstName, lastName, jobTitle, email, linkedin, twitter }) => ({
        fullName,
        firstName,
        lastName,
        jobTitle,
        email,
        linkedin,
        twitter,
      })),
    ).toEqual([
      {
        fullName: "Ana de la Cruz",
        firstName: "Ana",
        lastName: "de la Cruz",
        jobTitle: "CFO",
        email: "ana.delacruz@acme.example",
        linkedin: null,
        twitter: null,
      },
      {
        fullName: "Ben Okoro",
        firstName: "Ben",
        lastName: "Okoro",
        jobTitle: null,
        email: null,
        linkedin: "https://www.linkedin.com/in/ben-okoro",
        twitter: null,
      },
      {
        fullName: "Li Wei Zhang",
        firstName: "Li",
        lastName: "Zhang",
        jobTitle: null,
        email: null,
        linkedin: null,
        twitter: "lwzhang",
      },
    ]);
  });

  it("needs at least two repeated cards, each with one name and a title", () => {
    const single = `<div class="cards"><div class="card"><h3>Ann Lee</h3><p class="title">CTO</p></div><div class="other"><h3>Bo Park</h3><p class="title">CFO</p></div></div>`;
    const noTitles = `<ul><li><h3>Ann Lee</h3><p>Loves hiking</p></li><li><h3>Bo Park</h3><p>Plays cello</p></li></ul>`;
    const twoNames = `<div><section class="c"><h3>Ann Lee</h3><h3>Bo Park</h3><p class="role">CTO</p></section><section class="c"><h3>Cy Diaz</h3><h3>Di Eng</h3><p class="role">CFO</p></section></div>`;
    expect(extractPeople(single, page)).toEqual([]);
    expect(extractPeople(noTitles, page)).toEqual([]);
    expect(extractPeople(twoNames, page)).toEqual([]);
  });

  it("takes a title's first line, never the address printed under it", () => {
    const card = (name: string, title: string, email: string) =>
      `<div class="member"><h3>${name}</h3><p>${title}<br><a href="mailto:${email}">${email}</a></p></div>`;
    const html = `<section>${card("Ada Quill", "Head of Sales", "ada@acme.example")}${card("Ben Marsh", "Registered Dental Hygienist", "ben@acme.example")}</section>`;
    expect(extractPeople(html, page).map((person) => [person.fullName, person.jobTitle, person.email])).toEqual([
      ["Ada Quill", "Head of Sales", "ada@acme.example"],
      ["Ben Marsh", "Registered Dental Hygienist", "ben@acme.example"],
    ]);
  });

  it("does not take headings and features for people", () => {
    const html = `<div class="features"><div class="f"><h3>Our Team</h3><p class="title">Head of everything</p></div><div class="f"><h3>Get Started</h3><p class="title">Lead magnet</p></div></div>`;
    expect(extractPeople(html, page)).toEqual([]);
  });
});

describe("extractPeople phone numbers", () => {
  it("keeps the number a card's tel: link or a Person's telephone gives, as written", () => {
    const card = (name: string, title: string, extra: string) =>
      `<div class="member"><h3>${name}</h3><p class="role">${title}</p>${extra}</div>`;
    const html = `<html><body><section class="team">
      ${card("Ada Quill", "Head of Sales", '<a href="tel:+1%20555%200142">Call</a>')}
      ${card("Ben Marsh", "Engineer", '<a href="tel:">Call</a>')}
      </section>
      <script type="application/ld+json">{"@type":"Person","name":"Cleo Park","jobTitle":"CFO","telephone":"+49 30 5550 0100"}</script>
      </body></html>`;
    const phones = Object.fromEntries(
      extractPeople(html, "http://acme.example/team/").map((person) => [person.fullName, person.phone]),
    );
    expect(phones).toEqual({ "Ada Quill": "+1 555 0142", "Ben Marsh": null, "Cleo Park": "+49 30 5550 0100" });
  });
});
