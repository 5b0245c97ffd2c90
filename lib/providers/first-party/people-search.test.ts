import { describe, expect, it } from "vitest";
import { context, fixtureSnapshotsForFile, values } from "@/test/fixture-site-snapshots";
import { websitePeopleSearchProvider } from "./people-search";

// On snapshots of the fixture sites, crawled over loopback (test/fixture-site-snapshots.ts).

const options = fixtureSnapshotsForFile();

describe("websitePeopleSearchProvider", () => {
  it("lists everyone the site names, with the address it shows (or its format gives) them", async () => {
    const fields = values(
      await websitePeopleSearchProvider(options()).enrich({ domain: "acme.example", wanted: 100 }, context),
    );
    expect(fields.domain).toBe("acme.example");
    expect(
      (fields.people as { fullName: string; email: string | null; confidence: number; seniority: string | null }[]).map(
        (person) => [person.fullName, person.email, person.confidence, person.seniority],
      ),
    ).toEqual([
      ["Jordan Ellis", "jordan.ellis@acme.example", 95, "executive"],
      ["Priya Natarajan", "priya.natarajan@acme.example", 90, "executive"],
      ["Tomás Reyes", "tomas.reyes@acme.example", 90, "senior"],
      ["Hannah Schmidt", "hannah.schmidt@acme.example", 90, "senior"],
      ["Sam O’Neill", "sam.oneill@acme.example", 90, "senior"],
    ]);
  });

  it("answers the domain alone for a site that names nobody", async () => {
    expect(
      values(await websitePeopleSearchProvider(options()).enrich({ domain: "other.example", wanted: 100 }, context)),
    ).toEqual({ domain: "other.example" });
  });
});
