import { describe, expect, it } from "vitest";
import { context, fixtureSnapshotsForFile, values } from "@/test/fixture-site-snapshots";
import { websitePersonPhoneProvider } from "./people-mobile";

// On snapshots of the fixture sites, crawled over loopback (test/fixture-site-snapshots.ts).

const options = fixtureSnapshotsForFile();

describe("websitePersonPhoneProvider", () => {
  const phones = (email: string) => websitePersonPhoneProvider(options()).enrich({ email }, context);

  it("answers the number printed in the person's own card as a work number, in E.164 by the company's country", async () => {
    expect(values(await phones("priya.natarajan@acme.example"))).toEqual({
      phoneNumbers: [{ number: "+12175550144", type: "work", confidence: 0.9, source: "http://acme.example/team/" }],
    });
  });

  it("never answers the company's switchboard for a person", async () => {
    expect(await phones("jordan.ellis@acme.example")).toEqual({});
    expect(await phones("mlindqvist@rival.example")).toEqual({});
  });
});
