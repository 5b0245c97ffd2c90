import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, type FixtureSnapshots, startFixtureSnapshots, values } from "@/test/fixture-site-snapshots";
import type { FirstPartyOptions } from "./options";
import { websitePersonPhoneProvider } from "./people-mobile";

// On snapshots of the fixture sites, crawled over loopback (test/fixture-site-snapshots.ts).

let fixture: FixtureSnapshots;
let options: FirstPartyOptions;

beforeAll(async () => {
  fixture = await startFixtureSnapshots();
  options = fixture.options;
});

afterAll(async () => {
  await fixture.close();
});

describe("websitePersonPhoneProvider", () => {
  const phones = (email: string) => websitePersonPhoneProvider(options).enrich({ email }, context);

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
