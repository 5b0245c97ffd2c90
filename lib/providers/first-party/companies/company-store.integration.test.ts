import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import {
  type CompanyRecord,
  findCompany,
  findCompanyByName,
  findSimilarCompanies,
  saveCompany,
  SIMILARITY_FLOOR,
} from "./company-store";

// Fictional companies under the reserved .example TLD.
function company(domain: string, overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return { domain, name: null, description: null, keywords: [], technologies: [], profile: {}, ...overrides };
}

describe("saveCompany and findCompany", () => {
  it("creates a company and reads it back", async () => {
    await saveCompany(
      db(),
      company("Created.Example", {
        name: "Created Co",
        description: "Makes things.",
        keywords: ["Pottery", "kiln", "pottery"],
        technologies: ["WordPress", "PHP"],
        profile: { logo: "https://created.example/logo.png", phone: null },
      }),
    );

    const stored = await findCompany(db(), "created.example");
    expect(stored).toMatchObject({
      domain: "created.example",
      name: "Created Co",
      description: "Makes things.",
      keywords: ["pottery", "kiln"],
      technologies: ["WordPress", "PHP"],
      profile: { logo: "https://created.example/logo.png" },
    });
    expect(stored?.firstSeenAt).toBeInstanceOf(Date);
    expect(await findCompany(db(), "never-seen.example")).toBeNull();
  });

  it("replaces with new values, keeps old ones where the new collection found nothing, and keeps first_seen_at", async () => {
    await saveCompany(
      db(),
      company("refresh.example", {
        name: "Old Name",
        description: "Old description.",
        keywords: ["bakery"],
        technologies: ["Shopify"],
        profile: { logo: "old.png", phone: "+1 555 0100" },
      }),
    );
    await db()
      .$executeRaw`UPDATE companies SET first_seen_at = '2020-01-01T00:00:00Z', updated_at = '2020-01-01T00:00:00Z' WHERE domain = 'refresh.example'`;

    await saveCompany(
      db(),
      company("refresh.example", {
        name: "New Name",
        description: null,
        keywords: [],
        technologies: ["WooCommerce"],
        profile: { logo: "new.png", phone: null, city: "Springfield" },
      }),
    );

    const stored = await findCompany(db(), "refresh.example");
    expect(stored).toMatchObject({
      name: "New Name",
      description: "Old description.",
      keywords: ["bakery"],
      technologies: ["WooCommerce"],
      profile: { logo: "new.png", phone: "+1 555 0100", city: "Springfield" },
      firstSeenAt: new Date("2020-01-01T00:00:00Z"),
    });
    expect(stored?.updatedAt.getTime()).toBeGreaterThan(new Date("2020-01-01T00:00:00Z").getTime());
  });
});

describe("findCompanyByName", () => {
  it("resolves an exact name, ignoring case and surrounding spaces, to the most recently collected domain", async () => {
    await saveCompany(db(), company("namesake-old.example", { name: "Namesake Labs" }));
    await saveCompany(db(), company("namesake-new.example", { name: "Namesake Labs" }));
    await saveCompany(db(), company("namesake-labs-group.example", { name: "Namesake Labs Group" }));

    expect((await findCompanyByName(db(), "  namesake LABS "))?.domain).toBe("namesake-new.example");
    expect(await findCompanyByName(db(), "Namesake")).toBeNull();
    expect(await findCompanyByName(db(), "   ")).toBeNull();
  });
});

describe("findSimilarCompanies", () => {
  const target = {
    domain: "acme.example",
    keywords: ["widget", "gearbox", "industrial", "mining", "repair", "equipment"],
    technologies: ["WordPress", "PHP", "Google Analytics", "Nginx"],
  };

  async function seed() {
    await saveCompany(
      db(),
      company("acme.example", { name: "Acme", keywords: target.keywords, technologies: target.technologies }),
    );
    // Same trade, different stack: 4 of 7 keywords, 1 of 5 technologies → 0.7 × 4/7 + 0.3 × 1/5 = 0.46.
    await saveCompany(
      db(),
      company("rival.example", {
        name: "Rival Industries",
        keywords: ["widget", "gearbox", "industrial", "mining", "bakery"],
        technologies: ["Shopify", "Google Analytics"],
      }),
    );
    // Same words and nearly the same stack: 6 of 6, 3 of 4 → 0.7 + 0.225 = 0.925.
    await saveCompany(
      db(),
      company("twin.example", { name: "Twin", keywords: target.keywords, technologies: ["WordPress", "PHP", "Nginx"] }),
    );
    // Identical stack, different trade: shared technologies alone are not competition.
    await saveCompany(
      db(),
      company("stack.example", {
        name: "Same Stack Bakery",
        keywords: ["bakery", "bread"],
        technologies: target.technologies,
      }),
    );
    // One common word among many: 1 of 35 keywords → 0.02, under the floor.
    await saveCompany(
      db(),
      company("weak.example", {
        name: "Weak",
        keywords: ["widget", ...Array.from({ length: 29 }, (_, index) => `unrelated${index}`)],
      }),
    );
    // No name collected yet: 3 of 6 keywords → 0.35.
    await saveCompany(db(), company("nameless.example", { keywords: ["widget", "gearbox", "industrial"] }));
  }

  it("ranks by similarity, requires a shared keyword, applies the floor and never returns the target", async () => {
    await seed();
    const similar = await findSimilarCompanies(db(), target);

    expect(similar).toEqual([
      { name: "Twin", domain: "twin.example", similarity: 0.925 },
      { name: "Rival Industries", domain: "rival.example", similarity: 0.46 },
      { name: "nameless.example", domain: "nameless.example", similarity: 0.35 },
    ]);
    for (const competitor of similar) expect(competitor.similarity).toBeGreaterThanOrEqual(SIMILARITY_FLOOR);
  });

  it("honours the limit and orders equal scores by domain", async () => {
    await seed();
    expect((await findSimilarCompanies(db(), target, 1)).map((competitor) => competitor.domain)).toEqual([
      "twin.example",
    ]);
    expect(await findSimilarCompanies(db(), target, 0)).toEqual([]);

    await saveCompany(db(), company("b-clone.example", { name: "B", keywords: ["lathe", "drill"] }));
    await saveCompany(db(), company("a-clone.example", { name: "A", keywords: ["lathe", "drill"] }));
    const clones = await findSimilarCompanies(db(), {
      domain: "shop.example",
      keywords: ["lathe", "drill"],
      technologies: [],
    });
    expect(clones).toEqual([
      { name: "A", domain: "a-clone.example", similarity: 0.7 },
      { name: "B", domain: "b-clone.example", similarity: 0.7 },
    ]);
  });

  it("finds nothing for a target without keywords", async () => {
    await seed();
    expect(
      await findSimilarCompanies(db(), { domain: "empty.example", keywords: [], technologies: target.technologies }),
    ).toEqual([]);
  });
});
