import { describe, expect, it } from "vitest";
import { industryKeywords, singular } from "./keywords";

describe("industryKeywords", () => {
  it("returns lower-case content words, most frequent first, ties in order of first use", () => {
    const texts = [
      "Acme Widgets builds industrial Widgets and Gearboxes for the mining industry.",
      "Our gearbox service keeps mining equipment running. Industrial widget repair, worldwide.",
    ];
    expect(industryKeywords(texts)).toEqual([
      "widget",
      "industrial",
      "gearbox",
      "mining",
      "acme",
      "build",
      "industry",
      "service",
      "keep",
      "equipment",
      "running",
      "repair",
      "worldwide",
    ]);
  });

  it("excludes the company's own name, tokenised the same way as the text", () => {
    const keywords = industryKeywords(["Acme Widgets GmbH supplies widgets for bakeries."], {
      exclude: ["Acme Widgets GmbH"],
    });
    expect(keywords).toEqual(["supply", "bakery"]);
  });

  it("drops English and German stopwords, web boilerplate, short words and numbers", () => {
    const keywords = industryKeywords([
      "Wir sind ein Hersteller von Maschinen für die Lebensmittelindustrie und mit über 100 Jahren Erfahrung.",
      "Home | Contact | Privacy Policy | Cookies — We are the best at it, since 1999.",
    ]);
    expect(keywords).toEqual(["hersteller", "maschinen", "lebensmittelindustrie", "jahren", "erfahrung"]);
  });

  it("caps the list at thirty", () => {
    const many = Array.from(
      { length: 40 },
      (_, index) => `term${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
    );
    const keywords = industryKeywords([many.join(" ")]);
    expect(keywords).toHaveLength(30);
    expect(keywords[0]).toBe("termaa");
  });

  it("keeps letters of any script and ignores words that are too long to be vocabulary", () => {
    expect(industryKeywords(["Künstliche Intelligenz für Ärzte", `token ${"x".repeat(40)}`])).toEqual([
      "künstliche",
      "intelligenz",
      "ärzte",
      "token",
    ]);
  });

  it("returns nothing for empty input", () => {
    expect(industryKeywords([])).toEqual([]);
    expect(industryKeywords(["", "   ", "the and of"])).toEqual([]);
  });
});

describe("singular", () => {
  it.each([
    ["widgets", "widget"],
    ["companies", "company"],
    ["gearboxes", "gearbox"],
    ["processes", "process"],
    ["batches", "batch"],
    ["services", "service"],
    ["business", "business"],
    ["status", "status"],
    ["analysis", "analysis"],
    ["analytics", "analytics"],
    ["saas", "saas"],
    ["gas", "gas"],
  ])("%s → %s", (plural, expected) => {
    expect(singular(plural)).toBe(expected);
  });
});
