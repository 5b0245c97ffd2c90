import { describe, expect, it } from "vitest";
import { scoreSite, share, totalScore, type SiteAnswer } from "./score";
import type { SiteTruth, TruthEmail } from "./truth";

const person = (address: string, firstName: string, lastName: string, position: string | null): TruthEmail => ({
  address,
  type: "personal",
  firstName,
  lastName,
  position,
  pages: ["/team/"],
});
const mailbox = (address: string): TruthEmail => ({
  address,
  type: "generic",
  firstName: null,
  lastName: null,
  position: null,
  pages: ["/contact/"],
});

const truth: SiteTruth = {
  host: "hillside.example",
  shapes: [],
  emails: [
    person("jose.munoz@hillside.example", "José", "Muñoz", "Executive  Director"),
    person("ann.lee@hillside.example", "Ann", "Lee", null),
    person("bo.kim@hillside.example", "Bo", "Kim", "Pastor"),
    mailbox("events@hillside.example"),
    mailbox("info@hillside.example"),
  ],
  pattern: "{first}.{last}",
  technologies: ["WordPress", "Elementor", "jQuery"],
  acceptableTechnologies: ["PHP"],
};

const record = (
  value: string,
  type: "personal" | "generic",
  firstName: string | null = null,
  lastName: string | null = null,
  position: string | null = null,
) => ({ value, type, firstName, lastName, position });

const answer: SiteAnswer = {
  emails: [
    record("Jose.Munoz@hillside.example", "personal", "JOSE", "munoz", "executive director "),
    record("ann.lee@hillside.example", "personal", "Ann", "Li"),
    record("events@hillside.example", "personal", "Events", null),
    record("info@hillside.example", "generic"),
    record("webmaster@designer.example", "generic"),
    record("tolist-request@hillside.example", "personal"),
  ],
  pattern: "{first}.{last}",
  technologies: ["WordPress", "PHP", "React", "jQuery", "WordPress"],
};

describe("scoreSite", () => {
  const score = scoreSite(truth, answer);

  it("counts truth addresses returned (case aside) and returned addresses in the truth", () => {
    expect(score.recall).toEqual({ hits: 4, of: 5 });
    expect(score.precision).toEqual({ hits: 4, of: 6 });
    expect(score.missed).toEqual(["bo.kim@hillside.example"]);
    expect(score.extra).toEqual(["webmaster@designer.example", "tolist-request@hillside.example"]);
  });

  it("counts role mailboxes typed personal, and only those", () => {
    expect(score.roleTypedPersonal).toEqual(["events@hillside.example"]);
  });

  it("compares names without case or accents, over returned personal addresses that print a name", () => {
    expect(score.names).toEqual({ hits: 1, of: 2 });
    expect(score.nameMismatches).toEqual([
      { address: "ann.lee@hillside.example", expected: "Ann Lee", returned: "Ann Li" },
    ]);
  });

  it("compares positions with spacing collapsed, over returned personal addresses that print one", () => {
    expect(score.positions).toEqual({ hits: 1, of: 1 });
  });

  it("scores technologies: recall over the truth, precision over the detected with acceptable ones forgiven", () => {
    expect(score.technologyRecall).toEqual({ hits: 2, of: 3 });
    expect(score.technologyPrecision).toEqual({ hits: 3, of: 4 });
    expect(score.missedTechnologies).toEqual(["Elementor"]);
    expect(score.extraTechnologies).toEqual(["React"]);
  });

  it("reports a returned name that is missing altogether as null", () => {
    const bare = scoreSite(truth, { ...answer, emails: [record("bo.kim@hillside.example", "personal")] });
    expect(bare.names).toEqual({ hits: 0, of: 1 });
    expect(bare.nameMismatches).toEqual([{ address: "bo.kim@hillside.example", expected: "Bo Kim", returned: null }]);
    expect(bare.positionMismatches).toEqual([
      { address: "bo.kim@hillside.example", expected: "Pastor", returned: null },
    ]);
  });
});

describe("totalScore", () => {
  const noPattern: SiteTruth = {
    ...truth,
    host: "plain.example",
    pattern: null,
    emails: [mailbox("info@plain.example")],
  };

  it("sums counts over sites before dividing (micro-average)", () => {
    const totals = totalScore([
      scoreSite(truth, answer),
      scoreSite(noPattern, { emails: [record("info@plain.example", "generic")], pattern: "{first}", technologies: [] }),
    ]);
    expect(totals.sites).toBe(2);
    expect(totals.recall).toEqual({ hits: 5, of: 6 });
    expect(totals.precision).toEqual({ hits: 5, of: 7 });
    expect(totals.roleTypedPersonal).toBe(1);
    expect(totals.technologyRecall).toEqual({ hits: 2, of: 6 });
  });

  it("scores the pattern over sites whose truth names one, and counts patterns returned where none is shown", () => {
    const wrong = scoreSite(truth, { ...answer, pattern: "{f}{last}" });
    const silent = scoreSite(noPattern, { emails: [], pattern: null, technologies: [] });
    const invented = scoreSite(noPattern, { emails: [], pattern: "{last}", technologies: [] });
    const totals = totalScore([scoreSite(truth, answer), wrong, silent, invented]);
    expect(totals.pattern).toEqual({ hits: 1, of: 2 });
    expect(totals.unexpectedPatterns).toBe(1);
  });
});

describe("share", () => {
  it("divides, and has no share of nothing", () => {
    expect(share({ hits: 3, of: 4 })).toBe(0.75);
    expect(share({ hits: 0, of: 0 })).toBeNull();
  });
});
