import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { findPersonByEmail, findPersonByLinkedin, listPeopleAt, type PersonRecord, savePeople } from "./people-store";

// Fictional people at companies under the reserved .example TLD.
function person(fullName: string, overrides: Partial<PersonRecord> = {}): PersonRecord {
  const [firstName = null, lastName = null] = fullName.split(" ");
  return {
    fullName,
    firstName,
    lastName,
    position: null,
    email: null,
    linkedin: null,
    twitter: null,
    phone: null,
    sourceUrl: "http://store.example/team/",
    ...overrides,
  };
}

describe("the people store", () => {
  it("saves people with seniority and department from their title, and finds them by email, profile and company", async () => {
    await savePeople(db(), "Store.Example", [
      person("Jordan Ellis", {
        position: "Chief Executive Officer",
        email: "Jordan.Ellis@store.example",
        linkedin: "https://linkedin.com/in/Jordan-Ellis/",
      }),
      person("Ada Quill", { position: "VP Sales", phone: "+1 555 0142" }),
    ]);

    const jordan = await findPersonByEmail(db(), " jordan.ellis@STORE.example ");
    expect(jordan).toMatchObject({
      domain: "store.example",
      fullName: "Jordan Ellis",
      position: "Chief Executive Officer",
      seniority: "executive",
      department: "executive",
      email: "jordan.ellis@store.example",
      linkedin: "https://www.linkedin.com/in/jordan-ellis",
    });
    expect(await findPersonByLinkedin(db(), "www.linkedin.com/in/jordan-ellis")).toMatchObject({
      fullName: "Jordan Ellis",
    });
    expect(await findPersonByLinkedin(db(), "https://www.linkedin.com/in/nobody")).toBeNull();
    expect(await findPersonByEmail(db(), "nobody@store.example")).toBeNull();
    expect((await listPeopleAt(db(), "store.example")).map((stored) => [stored.fullName, stored.phone])).toEqual([
      ["Ada Quill", "+1 555 0142"],
      ["Jordan Ellis", null],
    ]);
    expect(await listPeopleAt(db(), "elsewhere.example")).toEqual([]);
  });

  it("refreshes a person: new values replace, values not found this time are kept, accents and case name the same person", async () => {
    await savePeople(db(), "refresh.example", [
      person("Tomás Reyes", { position: "Software Engineer", email: "tomas.reyes@refresh.example", twitter: "tomas" }),
    ]);
    await savePeople(db(), "refresh.example", [person("TOMAS REYES", { position: "Senior Software Engineer" })]);

    const [tomas, ...others] = await listPeopleAt(db(), "refresh.example");
    expect(others).toEqual([]);
    expect(tomas).toMatchObject({
      fullName: "TOMAS REYES",
      position: "Senior Software Engineer",
      seniority: "senior",
      email: "tomas.reyes@refresh.example",
      twitter: "tomas",
    });
    expect(tomas!.updatedAt.getTime()).toBeGreaterThanOrEqual(tomas!.firstSeenAt.getTime());
  });
});
