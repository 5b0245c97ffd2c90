import { describe, expect, it } from "vitest";
import {
  EMAIL_PATTERNS,
  emailFromPattern,
  inferEmailPattern,
  nameSpellings,
} from "@/lib/providers/first-party/email/email-pattern";

const person = (email: string, firstName: string, lastName: string) => ({ email, firstName, lastName });

describe("nameSpellings", () => {
  it.each([
    ["José", ["jose"]],
    ["Müller", ["muller", "mueller"]],
    ["Strauß", ["strauss"]],
    ["Øster", ["oster"]],
    ["Łukasz", ["lukasz"]],
    ["O'Neill", ["oneill"]],
    ["O’Neill", ["oneill"]],
    ["van Dijk", ["vandijk", "dijk"]],
    ["Smith-Jones", ["smith-jones", "smithjones"]],
    ["  ", []],
    ["李", []],
  ])("%s → %j", (name, expected) => {
    expect(nameSpellings(name)).toEqual(expected);
  });
});

describe("emailFromPattern", () => {
  it.each([
    ["{first}.{last}", "jordan.ellis@acme.test"],
    ["{first}{last}", "jordanellis@acme.test"],
    ["{f}{last}", "jellis@acme.test"],
    ["{f}.{last}", "j.ellis@acme.test"],
    ["{first}", "jordan@acme.test"],
    ["{last}", "ellis@acme.test"],
    ["{first}_{last}", "jordan_ellis@acme.test"],
    ["{first}-{last}", "jordan-ellis@acme.test"],
    ["{last}.{first}", "ellis.jordan@acme.test"],
    ["{last}{first}", "ellisjordan@acme.test"],
    ["{last}{f}", "ellisj@acme.test"],
    ["{first}{l}", "jordane@acme.test"],
    ["{f}{l}", "je@acme.test"],
    ["{last}_{first}", "ellis_jordan@acme.test"],
  ])("%s → %s", (pattern, expected) => {
    expect(emailFromPattern(pattern, "Jordan", "Ellis", "acme.test")).toBe(expected);
  });

  it("covers every pattern it infers", () => {
    for (const pattern of EMAIL_PATTERNS)
      expect(emailFromPattern(pattern, "Jordan", "Ellis", "acme.test")).not.toBeNull();
  });

  it("spells names the documented way", () => {
    expect(emailFromPattern("{first}.{last}", "Tomás", "Müller", "acme.test")).toBe("tomas.muller@acme.test");
    expect(emailFromPattern("{first}.{last}", "Sam", "O’Neill", "acme.test")).toBe("sam.oneill@acme.test");
    expect(emailFromPattern("{first}.{last}", "Anne-Marie", "Strauß", "Acme.Test")).toBe(
      "anne-marie.strauss@acme.test",
    );
  });

  it("refuses unknown patterns and names it cannot spell", () => {
    expect(emailFromPattern("{nickname}", "Jordan", "Ellis", "acme.test")).toBeNull();
    expect(emailFromPattern("{first}.{last}", "李", "Ellis", "acme.test")).toBeNull();
    expect(emailFromPattern("{first}.{last}", "Jordan", "", "acme.test")).toBeNull();
    expect(emailFromPattern("{first}", "Jordan", "", "acme.test")).toBe("jordan@acme.test");
    expect(emailFromPattern("{first}.{last}", "Jordan", "Ellis", "not a domain")).toBeNull();
  });
});

describe("inferEmailPattern", () => {
  it("finds the pattern all samples share, more surely with more samples", () => {
    const one = inferEmailPattern([person("jordan.ellis@acme.test", "Jordan", "Ellis")], "acme.test");
    const three = inferEmailPattern(
      [
        person("jordan.ellis@acme.test", "Jordan", "Ellis"),
        person("priya.natarajan@acme.test", "Priya", "Natarajan"),
        person("tomas.reyes@acme.test", "Tomás", "Reyes"),
      ],
      "acme.test",
    );
    expect(one).toEqual({ pattern: "{first}.{last}", confidence: 0.5, matches: 1, samples: 1 });
    expect(three).toEqual({ pattern: "{first}.{last}", confidence: 0.88, matches: 3, samples: 3 });
  });

  it("recognises {f}{last} and the German and hyphen-less spellings", () => {
    const inferred = inferEmailPattern(
      [
        person("mlindqvist@rival.test", "Mara", "Lindqvist"),
        person("dokafor@rival.test", "Dev", "Okafor"),
        person("jmueller@rival.test", "Jana", "Müller"),
        person("asmithjones@rival.test", "Ann", "Smith-Jones"),
      ],
      "rival.test",
    );
    expect(inferred).toEqual({ pattern: "{f}{last}", confidence: 0.94, matches: 4, samples: 4 });
  });

  it("loses confidence for samples that disagree", () => {
    const inferred = inferEmailPattern(
      [
        person("jordan.ellis@acme.test", "Jordan", "Ellis"),
        person("priya.natarajan@acme.test", "Priya", "Natarajan"),
        person("tomas.reyes@acme.test", "Tomás", "Reyes"),
        person("hschmidt@acme.test", "Hannah", "Schmidt"),
      ],
      "acme.test",
    );
    expect(inferred).toEqual({ pattern: "{first}.{last}", confidence: 0.66, matches: 3, samples: 4 });
  });

  it("counts a sample no pattern explains as disagreeing", () => {
    const inferred = inferEmailPattern(
      [person("jordan.ellis@acme.test", "Jordan", "Ellis"), person("boss@acme.test", "Priya", "Natarajan")],
      "acme.test",
    );
    expect(inferred).toEqual({ pattern: "{first}.{last}", confidence: 0.25, matches: 1, samples: 2 });
  });

  it("prefers the more common pattern when samples cannot tell them apart", () => {
    // "ellis" is both {last} for Jordan Ellis and... only {last}; "jordan" only {first}: one each, {first} is listed first.
    const inferred = inferEmailPattern(
      [person("jordan@acme.test", "Jordan", "Ellis"), person("natarajan@acme.test", "Priya", "Natarajan")],
      "acme.test",
    );
    expect(inferred?.pattern).toBe("{first}");
    expect(inferred?.matches).toBe(1);
  });

  it("ignores samples at other domains, duplicates and samples without both names", () => {
    const inferred = inferEmailPattern(
      [
        person("jordan.ellis@acme.test", "Jordan", "Ellis"),
        person("Jordan.Ellis@ACME.test", "Jordan", "Ellis"),
        person("pnatarajan@gmail.com", "Priya", "Natarajan"),
        person("sam@acme.test", "Sam", ""),
      ],
      "acme.test",
    );
    expect(inferred).toEqual({ pattern: "{first}.{last}", confidence: 0.5, matches: 1, samples: 1 });
  });

  it("answers null when nothing fits", () => {
    expect(inferEmailPattern([], "acme.test")).toBeNull();
    expect(inferEmailPattern([person("boss@acme.test", "Jordan", "Ellis")], "acme.test")).toBeNull();
  });

  it("reads nicknames and umlauts spelled out as the person's name", () => {
    const inferred = inferEmailPattern(
      [
        person("chris.coyle@acme.test", "Christopher", "Coyle"),
        person("liz.baker@acme.test", "Elizabeth", "Baker"),
        person("joerg.mueller@acme.test", "Jörg", "Müller"),
      ],
      "acme.test",
    );
    expect(inferred).toEqual({ pattern: "{first}.{last}", confidence: 0.88, matches: 3, samples: 3 });
  });

  it("counts a name printed with an initial as {f}, not {first}", () => {
    const inferred = inferEmailPattern(
      [person("j.oakes@acme.test", "J", "Oakes"), person("m.brandt@acme.test", "Monika", "Brandt")],
      "acme.test",
    );
    expect(inferred).toEqual({ pattern: "{f}.{last}", confidence: 0.75, matches: 2, samples: 2 });
  });
});
