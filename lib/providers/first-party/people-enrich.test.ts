import { describe, expect, it } from "vitest";
import { context, fixtureSnapshotsForFile, values } from "@/test/fixture-site-snapshots";
import { websitePersonProfileProvider } from "./people-enrich";

// On snapshots of the fixture sites, crawled over loopback (test/fixture-site-snapshots.ts).

const options = fixtureSnapshotsForFile();

describe("websitePersonProfileProvider", () => {
  const enrich = (email: string) => websitePersonProfileProvider(options()).enrich({ email }, context);

  it("finds the person by the address the site shows, with the company, its location and the person's profiles", async () => {
    const fields = await enrich("priya.natarajan@acme.example");
    expect(values(fields)).toEqual({
      fullName: "Priya Natarajan",
      firstName: "Priya",
      lastName: "Natarajan",
      position: "VP Sales",
      seniority: "executive",
      department: "sales",
      email: "priya.natarajan@acme.example",
      company: { name: "Acme Analytics", domain: "acme.example" },
      location: { locality: "Springfield", region: "IL", country: "United States" },
      socialProfiles: [{ network: "twitter", url: "https://twitter.com/priya_ships" }],
    });
    expect(fields.fullName?.confidence).toBe(0.9);
  });

  it("finds a person the site lists without an address when the company's format makes theirs, less sure", async () => {
    const fields = await enrich("hannah.schmidt@acme.example");
    expect(values(fields)).toMatchObject({
      fullName: "Hannah Schmidt",
      position: "Head of Marketing",
      socialProfiles: [{ network: "linkedin", url: "https://www.linkedin.com/in/hannah-schmidt-acme-test" }],
    });
    expect(fields.fullName?.confidence).toBeCloseTo(0.7 * 0.88, 5);
  });

  it("finds nobody for a role address, an unknown address, or a mailbox service", async () => {
    expect(await enrich("sales@acme.example")).toEqual({});
    expect(await enrich("alex.morgan@acme.example")).toEqual({});
    expect(await enrich("acme.analytics.usergroup@gmail.com")).toEqual({});
  });
});
