import { describe, expect, it } from "vitest";
import { phoneCountry, toE164 } from "./phone";

describe("toE164", () => {
  it.each([
    ["+1 217-555-0142", null, "+12175550142"],
    ["+1 (217) 555-0142", "DE", "+12175550142"],
    ["tel:+12175550142", null, "+12175550142"],
    ["+49 (0)30 1234 5678", null, "+493012345678"],
    ["0049 30 12345678", null, "+493012345678"],
    ["+44 20 7946 0018", null, "+442079460018"],
    ["+33 1 23 45 67 89", null, "+33123456789"],
    ["+1 217 555 0142 ext. 12", null, "+12175550142"],
    ["+1 217 555 0142 x12", null, "+12175550142"],
    ["011 44 20 7946 0018", "US", "+442079460018"],
  ] as const)("keeps the country code of %j", (raw, country, expected) => {
    expect(toE164(raw, country)).toBe(expected);
  });

  it.each([
    ["(217) 555-0144", "US", "+12175550144"],
    ["217.555.0144", "CA", "+12175550144"],
    ["1-217-555-0144", "US", "+12175550144"],
    ["030 12345678", "DE", "+493012345678"],
    ["0171 2345678", "DE", "+491712345678"],
    ["020 7946 0018", "GB", "+442079460018"],
  ] as const)("converts the national number %j of a known country (%s)", (raw, country, expected) => {
    expect(toE164(raw, country)).toBe(expected);
  });

  it.each([
    ["(217) 555-0144", null, "no country: the code would be a guess"],
    ["555-0144", "US", "no area code"],
    ["(017) 555-0144", "US", "an area code cannot start with 0"],
    ["(217) 155-0144", "US", "an exchange cannot start with 1"],
    ["30 12345678", "DE", "no trunk prefix: the area code is missing"],
    ["20 7946 0018", "GB", "no trunk prefix"],
    ["+1 555 0142", null, "too short for NANP"],
    ["+0 123 456 789", null, "no country code starts with 0"],
    ["+49 30", null, "too short"],
    ["+1234567890123456", null, "longer than E.164 allows"],
    ["call us", "US", "not a number"],
    ["+1 217 555 O142", null, "a letter inside"],
    ["", "US", "empty"],
  ] as const)("drops %j (%s): %s", (raw, country, _why) => {
    expect(toE164(raw, country)).toBeNull();
  });
});

describe("phoneCountry", () => {
  it.each([
    ["US", "US"],
    ["United States", "US"],
    [" united  states of america ", "US"],
    ["Canada", "CA"],
    ["Deutschland", "DE"],
    ["Germany", "DE"],
    ["United Kingdom", "GB"],
    ["UK", "GB"],
    ["France", null],
    ["", null],
    [null, null],
  ] as const)("reads %j as %s", (country, expected) => {
    expect(phoneCountry(country)).toBe(expected);
  });
});
