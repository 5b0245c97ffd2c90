import { describe, expect, it } from "vitest";
import { canonicalLinkedinUrl, personEnrichContract } from "./people";

describe("canonicalLinkedinUrl", () => {
  const cases: [string, string | null][] = [
    ["https://www.linkedin.com/in/jordan-ellis-acme-test/", "https://www.linkedin.com/in/jordan-ellis-acme-test"],
    ["http://linkedin.com/in/Jordan-Ellis-Acme-Test", "https://www.linkedin.com/in/jordan-ellis-acme-test"],
    ["linkedin.com/in/jordan-ellis-acme-test?trk=public_profile", "https://www.linkedin.com/in/jordan-ellis-acme-test"],
    ["https://de.linkedin.com/in/hannah-schmidt-acme-test", "https://www.linkedin.com/in/hannah-schmidt-acme-test"],
    ["https://www.linkedin.com/in/jos%C3%A9-%C3%A1lvarez", "https://www.linkedin.com/in/jos%C3%A9-%C3%A1lvarez"],
    ["https://www.linkedin.com/company/acme-analytics-test", null],
    ["https://www.linkedin.com/in/", null],
    ["https://www.linkedin.com/in/a/b", null],
    ["https://linkedin.com.evil.example/in/x", null],
    ["https://notlinkedin.com/in/x", null],
    ["https://www.linkedin.com/in/%E0%A4%A", null],
    ["not a url at all", null],
  ];

  it.each(cases)("reads %j as %j", (url, expected) => {
    expect(canonicalLinkedinUrl(url)).toBe(expected);
  });
});

describe("people lookup bodies", () => {
  it("lower-cases the address and canonicalises the profile URL", () => {
    expect(personEnrichContract.body.parse({ email: " Priya.Natarajan@ACME.example " })).toEqual({
      email: "priya.natarajan@acme.example",
    });
    expect(personEnrichContract.body.parse({ linkedinUrl: "linkedin.com/in/Hannah-Schmidt-Acme-Test/" })).toEqual({
      linkedinUrl: "https://www.linkedin.com/in/hannah-schmidt-acme-test",
    });
  });

  it.each([
    "jordan@localhost",
    "jordan@acme.local",
    "jordan@10.0.0.1",
    "@acme.example",
    "jordan@@acme.example",
    "jordan ellis@acme.example",
    `${"a".repeat(65)}@acme.example`,
  ])("refuses the address %j", (email) => {
    expect(personEnrichContract.body.safeParse({ email }).success).toBe(false);
  });
});
