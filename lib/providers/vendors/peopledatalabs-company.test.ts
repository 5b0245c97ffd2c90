import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOutboundClient } from "@/lib/outbound/outbound-client";
import { VENDOR_COSTS_CENTS } from "@/lib/providers/vendors/vendor-costs";
import { startFakePdl, type FakePdl } from "@/test/fakes/peopledatalabs-server";
import { createCompanyDataProfileProvider } from "./peopledatalabs-company";

// Real HTTP on loopback against the local fake of the company-data vendor, through the real outbound client.
const http = createOutboundClient({ allowLoopback: true });
let fake: FakePdl;

beforeAll(async () => {
  fake = await startFakePdl();
});

afterEach(() => {
  fake.setMode("normal");
});

afterAll(async () => {
  await fake.close();
});

const provider = () => createCompanyDataProfileProvider({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, http });
const enrich = (domain: string) => provider().enrich({ domain }, { signal: AbortSignal.timeout(10_000) });

describe("company profiles from the company-data vendor", () => {
  it("is its own provider at the vendor's price, supplying what websites do not say", () => {
    expect(provider()).toMatchObject({
      id: "peopledatalabs-company",
      operation: "companies_enrich",
      costCents: VENDOR_COSTS_CENTS.peopledatalabs,
    });
    expect(provider().supplies).toEqual(expect.arrayContaining(["industry", "sizeRange", "employeeCount"]));
  });

  it("maps every fact of a match at its capped confidence, and nothing more", async () => {
    const fields = await enrich("acme-robotics.example");
    const at = <T>(value: T) => ({ value, confidence: 0.75 });
    expect(fields).toEqual({
      name: at("Acme Robotics"),
      description: at("acme robotics builds autonomous picking arms for mid-size warehouses."),
      industry: at("machinery"),
      sizeRange: at("51-200"),
      employeeCount: at(142),
      founded: at(2016),
      location: at({
        street: null,
        locality: "springfield",
        region: "oregon",
        postalCode: null,
        country: "united states",
      }),
      keywords: at(["warehouse", "automation", "computer", "vision"]),
      socialProfiles: at([
        { network: "linkedin", url: "https://linkedin.example/company/acme-robotics" },
        { network: "twitter", url: "https://twitter.example/acmerobotics" },
      ]),
    });
    expect(fake.requests.at(-1)?.query).toMatchObject({ website: "acme-robotics.example" });
  });

  it("takes a less sure match at the vendor's own confidence and leaves out what it does not state", async () => {
    const fields = await enrich("quiet-holdings.example");
    expect(fields).toEqual({
      name: { value: "Quiet Holdings", confidence: 0.4 },
      sizeRange: { value: "1-10", confidence: 0.4 },
      employeeCount: { value: 4, confidence: 0.4 },
    });
  });

  it("answers nothing for an unknown company, and nothing for a record of another website", async () => {
    expect(await enrich("unknown-company.example")).toEqual({});
    // The fake matches "www.globex-logistics.example" for the bare domain: that is the same website.
    expect((await enrich("globex-logistics.example")).name).toEqual({ value: "Globex Logistics", confidence: 0.6 });
  });

  it("fails (so the waterfall moves on) when the vendor fails", async () => {
    fake.setMode("server_error");
    await expect(enrich("acme-robotics.example")).rejects.toThrow();
  });
});
