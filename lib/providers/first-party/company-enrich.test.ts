import { describe, expect, it } from "vitest";
import { foundingYear } from "./company-enrich";

describe("foundingYear", () => {
  const now = new Date("2026-11-22T00:00:00Z");

  it.each([
    ["2016", 2016],
    ["2019-05-01", 2019],
    [" 1998-03 ", 1998],
    ["2026", 2026],
    ["1600", 1600],
  ])("reads %j as %i", (text, year) => {
    expect(foundingYear(text, now)).toBe(year);
  });

  it.each([null, "", "2027", "1599", "founded in 2016", "16", "20161", "May 2016", "2016abc"])(
    "finds no plausible year in %j",
    (text) => {
      expect(foundingYear(text, now)).toBeNull();
    },
  );
});
