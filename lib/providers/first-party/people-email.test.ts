import { describe, expect, it } from "vitest";
import type { PersonEmailFinding } from "@/lib/providers/fields/people";
import { context, DAY, fixtureSnapshotsForFile, values } from "@/test/fixture-site-snapshots";
import { websitePersonEmailProvider } from "./people-email";

// On snapshots of the fixture sites, crawled over loopback (test/fixture-site-snapshots.ts).

const options = fixtureSnapshotsForFile();

describe("websitePersonEmailProvider", () => {
  const find = (firstName: string, lastName: string, domain: string) =>
    websitePersonEmailProvider(options()).enrich(
      { firstName, lastName, fullName: `${firstName} ${lastName}`, domain },
      context,
    );

  it("answers the address the site publishes for the person, with its evidence and the person's facts", async () => {
    const fields = await find("Jordan", "Ellis", "acme.example");
    expect(values(fields)).toEqual({
      domain: "acme.example",
      pattern: "{first}.{last}",
      email: {
        email: "jordan.ellis@acme.example",
        confidence: 95,
        reason: "found_on_site",
        verification: { date: DAY, status: "unknown" },
        sources: [{ uri: "http://acme.example/team/", extractedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }],
      },
      candidates: [{ email: "jordan.ellis@acme.example", confidence: 95, reason: "found_on_site" }],
      firstName: "Jordan",
      lastName: "Ellis",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
    });
    expect(fields.email?.confidence).toBe(0.95);
  });

  it("matches names without case, accents or apostrophes, and spells them as the site does", async () => {
    const tomas = values(await find("tomas", "REYES", "acme.example"));
    expect(tomas).toMatchObject({
      firstName: "Tomás",
      lastName: "Reyes",
      email: { email: "tomas.reyes@acme.example", reason: "found_on_site" },
    });
    const sam = values(await find("Sam", "O'Neill", "acme.example"));
    // The site names Sam without an address: the company's format gives one, as sure as domain-emails says (0.88 × 75).
    expect(sam).toMatchObject({ firstName: "Sam", lastName: "O’Neill", position: "Office Manager" });
    expect(sam.email).toEqual({
      email: "sam.oneill@acme.example",
      confidence: 66,
      reason: "pattern",
      verification: { date: DAY, status: "unknown" },
      sources: [{ uri: "http://acme.example/team/", extractedOn: expect.any(String) }],
    });
    expect(sam.candidates).toEqual([{ email: "sam.oneill@acme.example", confidence: 66, reason: "pattern" }]);
  });

  it("applies the company's format to a name the site does not list, less sure, with no source and no position", async () => {
    const fields = values(await find("Alex", "Morgan", "acme.example"));
    expect(fields).toEqual({
      domain: "acme.example",
      pattern: "{first}.{last}",
      email: {
        email: "alex.morgan@acme.example",
        confidence: 53,
        reason: "pattern",
        verification: { date: DAY, status: "unknown" },
        sources: [],
      },
      candidates: [{ email: "alex.morgan@acme.example", confidence: 53, reason: "pattern" }],
    });
  });

  it("uses each company's own format", async () => {
    expect(values(await find("Mara", "Lindqvist", "rival.example"))).toMatchObject({
      pattern: "{f}{last}",
      email: { email: "mlindqvist@rival.example", reason: "found_on_site" },
      position: "Founder & CEO",
    });
    expect(values(await find("Nora", "Quinn", "rival.example"))).toMatchObject({
      email: { email: "nquinn@rival.example", reason: "pattern" },
    });
  });

  it("answers the domain alone for a site without any address format", async () => {
    expect(values(await find("Jordan", "Ellis", "other.example"))).toEqual({ domain: "other.example" });
  });

  it("never scores a guess above an address it saw", async () => {
    const fields = values(await find("Priya", "Natarajan", "acme.example"));
    const email = fields.email as PersonEmailFinding;
    expect(email.reason).toBe("found_on_site");
    expect(email.confidence).toBeGreaterThan(70);
  });
});
