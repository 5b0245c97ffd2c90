import { describe, expect, it } from "vitest";
import { splitName } from "@/lib/providers/first-party/website/person-names";

const name = (fullName: string, firstName: string, lastName: string) => ({ fullName, firstName, lastName });

describe("splitName", () => {
  it.each([
    ["Jordan Ellis", name("Jordan Ellis", "Jordan", "Ellis")],
    ["Dr. Hannah Schmidt", name("Hannah Schmidt", "Hannah", "Schmidt")],
    ["Mary Jane Watson-Parker", name("Mary Jane Watson-Parker", "Mary", "Watson-Parker")],
    ["J. Robert Oakes Jr.", name("J. Robert Oakes", "J", "Oakes")],
    ["Sam O'Neill, MBA", name("Sam O'Neill", "Sam", "O'Neill")],
    ["  Zoë   Åberg ", name("Zoë Åberg", "Zoë", "Åberg")],
    ["Prof. Dr. Li Wei Zhang, PhD", name("Li Wei Zhang", "Li", "Zhang")],
    ["Jane Q. Doe", name("Jane Q. Doe", "Jane", "Doe")],
    ["Ana de la Cruz", name("Ana de la Cruz", "Ana", "de la Cruz")],
    ["Daan de Wit", name("Daan de Wit", "Daan", "de Wit")],
    ["The Revd Tobias Okonkwo-Reid", name("Tobias Okonkwo-Reid", "Tobias", "Okonkwo-Reid")],
    ["Youssef El Amrani", name("Youssef El Amrani", "Youssef", "El Amrani")],
    ["Dr. Rosalind Achterberg, DVM, DACVIM", name("Rosalind Achterberg", "Rosalind", "Achterberg")],
  ])("reads %s", (text, expected) => {
    expect(splitName(text)).toEqual(expected);
  });

  it.each([
    ["Doe, Jane", name("Jane Doe", "Jane", "Doe")],
    ["Doe, Jane Q.", name("Jane Q. Doe", "Jane", "Doe")],
    ["DOE, JANE", name("JANE DOE", "JANE", "DOE")],
    ["Okafor, Dayo, PhD", name("Dayo Okafor", "Dayo", "Okafor")],
  ])("reads the directory form %s", (text, expected) => {
    expect(splitName(text)).toEqual(expected);
  });

  it.each([
    ["Lee Park JD", name("Lee Park", "Lee", "Park")],
    ["Rosa Vidal MFA", name("Rosa Vidal", "Rosa", "Vidal")],
    ["Ann Ruiz, CPA®", name("Ann Ruiz", "Ann", "Ruiz")],
    ["Ann Ruiz, CPA®, MBA", name("Ann Ruiz", "Ann", "Ruiz")],
    ["Tom Hale, Esq.", name("Tom Hale", "Tom", "Hale")],
    ["Mia Stone DDS", name("Mia Stone", "Mia", "Stone")],
    ["Eva Lind, RN", name("Eva Lind", "Eva", "Lind")],
    ["Karl Brandt, M.A.", name("Karl Brandt", "Karl", "Brandt")],
    ["Prof. Dr. Jörg Weiß", name("Jörg Weiß", "Jörg", "Weiß")],
    ["Dipl.-Ing. Uta Krämer", name("Uta Krämer", "Uta", "Krämer")],
    ["OStR Jens Albers", name("Jens Albers", "Jens", "Albers")],
    ["Jane DOE", name("Jane DOE", "Jane", "DOE")],
  ])("drops titles and credentials: %s", (text, expected) => {
    expect(splitName(text)).toEqual(expected);
  });

  it("keeps the name and drops a title after a comma", () => {
    expect(splitName("Hannah Schmidt, Head of Marketing")).toEqual(name("Hannah Schmidt", "Hannah", "Schmidt"));
    expect(splitName("Smith, Treasurer")).toBeNull();
  });

  it.each([
    "Jordan",
    "Meet The Team",
    "Our Team",
    "Board of Directors",
    "Scholarship Applications",
    "Capital Fund",
    "Youth Boards",
    "Member Services",
    "Executive Director",
    "jordan ellis",
    "Call 555-0142 Now",
    "A B C D E F",
    "DVM, DACVIM",
    "Pine Hollow Pet Hospital",
    "",
  ])("is not a name: %s", (text) => {
    expect(splitName(text)).toBeNull();
  });
});
