import { describe, expect, it } from "vitest";
import {
  companyNameFromTitle,
  extractOrganization,
  mergeOrganizations,
  parseAddressLines,
} from "@/lib/providers/first-party/website/extract-organization";
import { readCompanySiteFile } from "@/test/fakes/company-sites";

const ACME_ADDRESS = {
  street: "400 Example Avenue, Suite 12",
  locality: "Springfield",
  region: "IL",
  postalCode: "62704",
  country: "US",
};

describe("extractOrganization on the fixture sites", () => {
  it("reads acme.example's home page: JSON-LD first, then meta keywords, profiles without share links", async () => {
    const facts = extractOrganization(await readCompanySiteFile("acme.example", "index.html"), "http://acme.example/");
    expect(facts).toEqual({
      name: "Acme Analytics",
      legalName: "Acme Analytics, Inc.",
      description:
        "Acme Analytics is a logistics analytics platform that gives mid-size shippers one view of shipments, carriers and freight spend.",
      logo: "https://acme.example/wp-content/uploads/2024/01/acme-logo.png",
      url: "https://acme.example/",
      socialProfiles: [
        { network: "linkedin", url: "https://www.linkedin.com/company/acme-analytics-test" },
        { network: "twitter", url: "https://twitter.com/acmeanalytics" },
        { network: "github", url: "https://github.com/acme-analytics" },
      ],
      address: ACME_ADDRESS,
      phone: "+1 217-555-0142",
      email: "info@acme.example",
      foundingDate: "2016",
      keywords: [
        "logistics analytics",
        "freight audit",
        "carrier scorecards",
        "supply chain visibility",
        "freight analytics",
        "SaaS",
      ],
    });
  });

  it("reads the imprint's address block, tel: link and legal entity line", async () => {
    const facts = extractOrganization(
      await readCompanySiteFile("acme.example", "impressum.html"),
      "http://acme.example/impressum/",
    );
    expect(facts).toMatchObject({
      name: "Acme Analytics",
      legalName: "Acme Analytics, Inc.",
      address: { ...ACME_ADDRESS, country: "United States" },
      phone: "+1 217-555-0142",
      email: null,
      foundingDate: null,
    });
  });

  it("falls back to Open Graph, meta description and icons without JSON-LD details", async () => {
    const facts = extractOrganization(
      await readCompanySiteFile("other.example", "index.html"),
      "http://other.example/",
    );
    expect(facts).toEqual({
      name: "Sunrise Bakery",
      legalName: null,
      description:
        "Neighbourhood bakery baking sourdough loaves, croissants and seasonal pies every morning since 2009.",
      logo: "https://other.example/images/storefront.jpg",
      url: "https://other.example/",
      socialProfiles: [{ network: "instagram", url: "https://instagram.com/sunrisebakery.test" }],
      address: null,
      phone: "+1 217-555-0188",
      email: null,
      foundingDate: null,
      keywords: [],
    });
  });

  it("merges pages: home for the brand, imprint for the legal entity, team pages' personal profiles left out", async () => {
    const page = async (host: string, file: string, kind: string, url: string) => ({
      kind,
      facts: extractOrganization(await readCompanySiteFile(host, file), url),
    });
    const merged = mergeOrganizations([
      await page("rival.example", "index.html", "home", "http://rival.example/"),
      await page("rival.example", "team.html", "team", "http://rival.example/team/"),
      await page("rival.example", "imprint.html", "imprint", "http://rival.example/imprint/"),
    ]);
    expect(merged).toEqual({
      name: "Rival Freight Insights",
      legalName: "Rival Freight Insights LLC",
      description: "Freight analytics, carrier benchmarking and supply chain visibility for growing shippers.",
      logo: "https://rival.example/wp-content/uploads/2023/09/rival-logo.svg",
      url: "https://rival.example/",
      socialProfiles: [
        { network: "linkedin", url: "https://www.linkedin.com/company/rival-freight-insights-test" },
        { network: "youtube", url: "https://youtube.com/@rivalfreight" },
      ],
      address: {
        street: "1200 Sample Street, Floor 3",
        locality: "Chicago",
        region: "IL",
        postalCode: "60607",
        country: "United States",
      },
      phone: "+1 312-555-0177",
      email: null,
      foundingDate: "2019-05-01",
      keywords: ["logistics analytics", "freight analytics", "carrier scorecards", "rate benchmarking"],
    });
  });

  it("lets another page supply what home and imprint lack", async () => {
    const merged = mergeOrganizations([
      {
        kind: "home",
        facts: extractOrganization(await readCompanySiteFile("other.example", "index.html"), "http://other.example/"),
      },
      {
        kind: "about",
        facts: extractOrganization(
          await readCompanySiteFile("other.example", "about.html"),
          "http://other.example/about.html",
        ),
      },
    ]);
    expect(merged.name).toBe("Sunrise Bakery");
    expect(merged.address).toEqual({
      street: "18 Harbor Lane",
      locality: "Riverton",
      region: "IL",
      postalCode: "62561",
      country: null,
    });
  });
});

describe("pieces", () => {
  it.each([
    ["Acme Analytics | Logistics analytics for shippers", "http://acme.example/", "Acme Analytics"],
    ["Team | Acme Analytics", "http://acme.example/team/", "Acme Analytics"],
    ["Home | Sunrise Bakery", "http://other.example/", "Sunrise Bakery"],
    ["Our story · Sunrise Bakery", "http://other.example/about.html", "Sunrise Bakery"],
    ["Sunrise Bakery · Sourdough and pastries in Riverton", "http://other.example/", "Sunrise Bakery"],
    ["Home", "http://other.example/", null],
  ])("title %s on %s names %s", (title, url, expected) => {
    expect(companyNameFromTitle(title, url)).toBe(expected);
  });

  it("reads European and US city lines", () => {
    expect(parseAddressLines(["Beispiel GmbH", "Musterstraße 5", "10115 Berlin", "Deutschland"])).toEqual({
      street: "Musterstraße 5",
      locality: "Berlin",
      region: null,
      postalCode: "10115",
      country: "Deutschland",
    });
    expect(parseAddressLines(["Springfield, IL 62704-1234"])).toEqual({
      street: null,
      locality: "Springfield",
      region: "IL",
      postalCode: "62704-1234",
      country: null,
    });
    expect(parseAddressLines(["Call us", "+1 217-555-0142"])).toBeNull();
  });

  it("reads microdata and a legal form line without JSON-LD", () => {
    const html = `<title>Impressum – Beispiel</title><div itemscope itemtype="https://schema.org/Organization"><p>Beispiel Logistik GmbH</p>
      <span itemprop="streetAddress">Musterweg 1</span> <span itemprop="postalCode">20095</span> <span itemprop="addressLocality">Hamburg</span>
      <span itemprop="telephone">+49 40 5550123</span></div>`;
    expect(extractOrganization(html, "http://beispiel.test/impressum")).toMatchObject({
      legalName: "Beispiel Logistik GmbH",
      address: { street: "Musterweg 1", locality: "Hamburg", region: null, postalCode: "20095", country: null },
      phone: "+49 40 5550123",
    });
  });

  it("ignores another site's organization", () => {
    const html = `<script type="application/ld+json">{"@type":"Organization","name":"Big Partner","url":"https://partner.test/"}</script><meta property="og:site_name" content="Acme">`;
    expect(extractOrganization(html, "http://acme.example/").name).toBe("Acme");
  });
});
