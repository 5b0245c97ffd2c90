import { describe, expect, it } from "vitest";
import { countryCode, countrySpellings, normalizeCountryText } from "./countries";

describe("countries", () => {
  it.each([
    ["US", "US"],
    ["us", "US"],
    ["USA", "US"],
    ["U.S.A.", "US"],
    ["United States", "US"],
    ["united states of america", "US"],
    ["Germany", "DE"],
    ["Deutschland", "DE"],
    ["de", "DE"],
    ["UK", "GB"],
    ["United Kingdom", "GB"],
    ["Antigua & Barbuda", "AG"],
    ["Antigua and Barbuda", "AG"],
    ["Curaçao", "CW"],
  ])("reads %j as %s", (text, code) => {
    expect(countryCode(text)).toBe(code);
  });

  it.each(["Atlantis", "ZZ", "EU", "DD", "AN", ""])("knows no country %j", (text) => {
    expect(countryCode(text)).toBeNull();
  });

  it("spells a country every common way, normalized, and an unknown one as written", () => {
    const us = countrySpellings("United States");
    expect(us).toEqual(
      expect.arrayContaining([
        "us",
        "usa",
        "united states",
        "united states of america",
        "vereinigte staaten",
        "états-unis",
      ]),
    );
    expect(us).toEqual([...us].sort());
    expect(countrySpellings("de")).toEqual(expect.arrayContaining(["de", "germany", "deutschland", "allemagne"]));
    expect(countrySpellings("de")).not.toContain("us");
    expect(countrySpellings("  Atlantis ")).toEqual(["atlantis"]);
  });

  it("normalizes case, dots, ampersands and spaces", () => {
    expect(normalizeCountryText("  U.S.A. ")).toBe("usa");
    expect(normalizeCountryText("Trinidad  &   Tobago")).toBe("trinidad and tobago");
  });
});
