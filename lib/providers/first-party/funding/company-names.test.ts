import { describe, expect, it } from "vitest";
import { displayNameEntity, normaliseCompanyName, sameCompany, searchPhrase } from "./company-names";

describe("normaliseCompanyName", () => {
  it.each([
    ["Lumenfold Robotics, Inc.", "lumenfold robotics"],
    ["LUMENFOLD ROBOTICS LLC", "lumenfold robotics"],
    ["Lumenfold Robotics L.L.C.", "lumenfold robotics"],
    ["The Acme Co., Ltd.", "acme"],
    ["Müller & Söhne GmbH", "muller and sohne"],
    ["A.B.C. Foods Corp", "abc foods"],
    ["Northgate Ventures Fund II, L.P.", "northgate ventures fund ii"],
    ["Inc.", "inc"],
  ])("%s → %s", (name, expected) => {
    expect(normaliseCompanyName(name)).toBe(expected);
  });
});

describe("sameCompany", () => {
  it("matches names that differ only in case, punctuation and legal form", () => {
    expect(sameCompany("Lumenfold Robotics", "LUMENFOLD ROBOTICS, INC.")).toBe(true);
    expect(sameCompany("Corvid and Loom", "Corvid & Loom, Inc.")).toBe(true);
  });

  it("does not match a longer name of the same stem, or an empty one", () => {
    expect(sameCompany("Lumenfold Robotics", "Lumenfold Robotics Holdings Trust")).toBe(false);
    expect(sameCompany("Lumenfold", "Lumenfold Robotics, Inc.")).toBe(false);
    expect(sameCompany("", "")).toBe(false);
    expect(sameCompany("!!!", "???")).toBe(false);
  });
});

describe("searchPhrase", () => {
  it.each([
    ["Lumenfold Robotics, Inc.", "Lumenfold Robotics"],
    ["Acme Co., Ltd.", "Acme"],
    ['Quote "Marks" GmbH', "Quote Marks"],
    ["Corvid & Co.", "Corvid"],
    ["Inc", "Inc"],
    ["   ", ""],
  ])("%s → %s", (name, expected) => {
    expect(searchPhrase(name)).toBe(expected);
  });
});

describe("displayNameEntity", () => {
  it.each([
    ["Lumenfold Robotics, Inc.  (CIK 0009990001)", "Lumenfold Robotics, Inc."],
    ["Example Motors, Inc.  (EXMO)  (CIK 0009990099)", "Example Motors, Inc."],
    ["Harbor Fund (Cayman) Ltd  (CIK 0009990098)", "Harbor Fund (Cayman) Ltd"],
    ["No Decoration LLC", "No Decoration LLC"],
  ])("%s → %s", (display, expected) => {
    expect(displayNameEntity(display)).toBe(expected);
  });
});
