import { describe, expect, it } from "vitest";
import { asPosition, readBeside } from "./beside-text";

describe("readBeside", () => {
  it("keeps a title of several offices as printed", () => {
    expect(readBeside("Élodie Marchetti, Expert-comptable, commissaire aux comptes, associée", true)).toEqual({
      name: { fullName: "Élodie Marchetti", firstName: "Élodie", lastName: "Marchetti" },
      position: "Expert-comptable, commissaire aux comptes, associée",
    });
  });

  it("reads the title without the site's possessive", () => {
    expect(readBeside("Tomasz Nowak – Our head brewer", true).position).toBe("head brewer");
  });
});

describe("asPosition", () => {
  it("is not a line that also holds a name", () => {
    expect(asPosition("Karim Benali – Responsable du pôle juridique", false)).toBeNull();
    expect(asPosition("Responsable du pôle juridique", false)).toBe("Responsable du pôle juridique");
    expect(asPosition("Associate, Residential Valuation", false)).toBe("Associate, Residential Valuation");
  });
});
