import { describe, expect, it } from "vitest";
import { givenNameForms } from "@/lib/providers/first-party/email/nicknames";

describe("givenNameForms", () => {
  it("gives a name's short forms, and a short form's full names", () => {
    expect(givenNameForms("christopher")).toContain("chris");
    expect(givenNameForms("elizabeth")).toEqual(expect.arrayContaining(["liz", "beth"]));
    expect(givenNameForms("william")).toEqual(expect.arrayContaining(["bill", "will"]));
    expect(givenNameForms("bob")).toEqual(["robert"]);
    expect(givenNameForms("chris")).toEqual(expect.arrayContaining(["christopher", "christian", "christina"]));
  });

  it("knows nothing of names without short forms", () => {
    expect(givenNameForms("zoltan")).toEqual([]);
  });
});
