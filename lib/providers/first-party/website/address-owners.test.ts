import { describe, expect, it } from "vitest";
import { type NamedCandidate, ownerOf } from "@/lib/providers/first-party/website/address-owners";
import { splitName } from "@/lib/providers/first-party/website/person-names";

function person(name: string, position: string | null = null): NamedCandidate {
  const parsed = splitName(name);
  if (parsed === null) throw new Error(`${name} is no name`);
  return { name: parsed, position };
}

/** "type evidence First Last" for the owner of `address`. */
function owner(address: string, beside: NamedCandidate[], onSite: NamedCandidate[] = []): string {
  const found = ownerOf(address, beside, onSite);
  const holder = found.holder === null ? "-" : `${found.holder.name.firstName} ${found.holder.name.lastName}`;
  return `${found.type} ${found.evidence} ${holder}${found.showsPattern ? " (pattern)" : ""}`;
}

describe("ownerOf", () => {
  it("types an address personal when it spells the name printed beside it, in any known format or spelling", () => {
    expect(owner("jane.doe@club.example", [person("Jane Q. Doe")])).toBe("personal name-beside Jane Doe (pattern)");
    expect(owner("chris.coyle@club.example", [person("Christopher Coyle")])).toBe(
      "personal name-beside Christopher Coyle (pattern)",
    );
    expect(owner("bob@club.example", [person("Robert Miller")])).toBe("personal name-beside Robert Miller (pattern)");
    expect(owner("j.mueller@club.example", [person("Prof. Dr. Jörg Müller")])).toBe(
      "personal name-beside Jörg Müller (pattern)",
    );
    // A surname that is also a role word is still the person's when their name is beside it.
    expect(owner("gardner@club.example", [person("Tom Gardner")])).toBe("personal name-beside Tom Gardner (pattern)");
    // Loosely: the name is in it, but not in a format we infer from.
    expect(owner("pastor.mike@club.example", [person("Mike Lee")])).toBe("personal name-beside Mike Lee");
  });

  it("types a mailbox beside a person whose name it does not spell generic, and keeps the holder", () => {
    expect(owner("treasurer@club.example", [person("John Smith", "Treasurer")])).toBe("generic role-holder John Smith");
    expect(owner("boxoffice@club.example", [person("Rosa Jimenez", "Box Office Manager")])).toBe(
      "generic role-holder Rosa Jimenez",
    );
    expect(owner("kassenwart@club.example", [person("Jana Vogt", "Kassenwartin")])).toBe(
      "generic role-holder Jana Vogt",
    );
    expect(owner("marketing@club.example", [person("Mark Jones", "Marketing Director")])).toBe(
      "generic role-holder Mark Jones",
    );
  });

  it("types an address personal by a person named elsewhere on the site only when exactly one fits", () => {
    const team = [person("Dana Whitfield", "Founder"), person("Marcus Bell", "Head of Engineering")];
    expect(owner("dana.whitfield@club.example", [], team)).toBe("personal name-on-site Dana Whitfield (pattern)");
    expect(owner("events@club.example", [], team)).toBe("generic none -");
    const namesakes = [person("Ann Lee"), person("Al Lee")];
    expect(owner("alee@club.example", [], namesakes)).toBe("generic none -");
  });

  it("types addresses with no person in sight generic, whatever their local part", () => {
    expect(owner("dealers@club.example", [])).toBe("generic none -");
    expect(owner("programming@club.example", [])).toBe("generic none -");
    expect(owner("xk7@club.example", [])).toBe("generic none -");
  });
});
