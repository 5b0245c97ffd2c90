import { beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import {
  type CompanyRecord,
  companyDiscoverQuery,
  companySearchQuery,
  discoverStoredCompanies,
  findCompany,
  saveCompany,
  saveEnrichedCompany,
  searchStoredCompanies,
} from "./company-store";

// Fictional companies under the reserved .example TLD; each test file has its own database.
function company(domain: string, overrides: Partial<CompanyRecord> = {}): CompanyRecord {
  return { domain, name: null, description: null, keywords: [], technologies: [], profile: {}, ...overrides };
}

// Every test starts from an empty store.
beforeEach(async () => {
  await db().$executeRaw`DELETE FROM companies`;
});

async function seedSearch() {
  await saveCompany(
    db(),
    company("acme.example", {
      name: "Acme Analytics",
      description: "Freight analytics for mid-size carriers.",
      keywords: ["freight", "analytics", "carrier", "logistics"],
    }),
  );
  await saveCompany(
    db(),
    company("acme-robotics.example", {
      name: "Acme Robotics",
      description: "Picking arms for warehouses.",
      keywords: ["robotics", "warehouse"],
    }),
  );
  await saveCompany(
    db(),
    company("rival.example", {
      name: "Rival Freight Insights",
      description: "Dashboards for shippers.",
      keywords: ["freight", "shipper", "dashboard"],
    }),
  );
  await saveCompany(
    db(),
    company("bakery.example", {
      name: "Sunrise Bakery",
      description: "Bread and pastries baked daily.",
      keywords: ["bakery", "bread", "pastry"],
    }),
  );
  // Only its description speaks of freight.
  await saveCompany(
    db(),
    company("haulers.example", { name: "Haulers Co-op", description: "A cooperative of independent freight haulers." }),
  );
  // Never named: found by its domain alone.
  await saveCompany(db(), company("nameless.example", { keywords: ["freight"] }));
}

describe("searchStoredCompanies", () => {
  it("resolves an exact name (any case) to its domain first, then ranks companies whose words match", async () => {
    await seedSearch();
    const hits = await searchStoredCompanies(db(), { query: "  ACME   analytics ", limit: 10 });
    expect(hits[0]).toEqual({
      domain: "acme.example",
      name: "Acme Analytics",
      description: "Freight analytics for mid-size carriers.",
      score: 1,
    });
    expect(hits.map((hit) => hit.domain)).toEqual(["acme.example", "acme-robotics.example"]);
    expect(hits[1]!.score).toBeGreaterThan(0);
    expect(hits[1]!.score).toBeLessThan(1);
  });

  it("finds a partial name and a misspelled one", async () => {
    await seedSearch();
    const partial = await searchStoredCompanies(db(), { query: "acme", limit: 10 });
    expect(partial.map((hit) => hit.domain).sort()).toEqual(["acme-robotics.example", "acme.example"]);
    expect(partial[0]!.score).toBe(partial[1]!.score);
    // Equal scores go by domain.
    expect(partial.map((hit) => hit.domain)).toEqual(["acme-robotics.example", "acme.example"]);

    const typo = await searchStoredCompanies(db(), { query: "Acme Analitycs", limit: 10 });
    expect(typo[0]!.domain).toBe("acme.example");
  });

  it("finds keywords in names, keywords and descriptions, the name weighing most", async () => {
    await seedSearch();
    const hits = await searchStoredCompanies(db(), { query: "freight", limit: 10 });
    expect(hits.map((hit) => hit.domain)).toEqual([
      "rival.example",
      "acme.example",
      "nameless.example",
      "haulers.example",
    ]);
    for (const [index, hit] of hits.entries())
      if (index > 0) expect(hit.score).toBeLessThanOrEqual(hits[index - 1]!.score);
    expect(hits.find((hit) => hit.domain === "nameless.example")).toMatchObject({ name: null, description: null });
    // All words must occur, unless joined by "or".
    expect((await searchStoredCompanies(db(), { query: "freight bread", limit: 10 })).map((hit) => hit.domain)).toEqual(
      [],
    );
    expect(
      (await searchStoredCompanies(db(), { query: "pastries or robotics", limit: 10 })).map((hit) => hit.domain).sort(),
    ).toEqual(["acme-robotics.example", "bakery.example"]);
  });

  it("resolves a domain to itself, honours the limit, and finds nothing for nothing", async () => {
    await seedSearch();
    expect(await searchStoredCompanies(db(), { query: "Nameless.Example", limit: 10 })).toEqual([
      { domain: "nameless.example", name: null, description: null, score: 1 },
    ]);
    expect(await searchStoredCompanies(db(), { query: "freight", limit: 2 })).toHaveLength(2);
    expect(await searchStoredCompanies(db(), { query: "freight", limit: 0 })).toEqual([]);
    expect(await searchStoredCompanies(db(), { query: "   ", limit: 10 })).toEqual([]);
    expect(await searchStoredCompanies(db(), { query: "the", limit: 10 })).toEqual([]);
    expect(await searchStoredCompanies(db(), { query: "zyzzyva", limit: 10 })).toEqual([]);
  });

  it("keeps the search document current as a company is collected again", async () => {
    await saveCompany(db(), company("renamed.example", { name: "Old Name Ltd" }));
    expect(await searchStoredCompanies(db(), { query: "Brand New Name", limit: 10 })).toEqual([]);
    await saveCompany(db(), company("renamed.example", { name: "Brand New Name" }));
    expect((await searchStoredCompanies(db(), { query: "Brand New Name", limit: 10 }))[0]).toMatchObject({
      domain: "renamed.example",
      score: 1,
    });
  });
});

async function seedDiscover() {
  const target = {
    domain: "acme.example",
    keywords: ["freight", "analytics", "carrier", "logistics"],
    technologies: ["WordPress", "PHP"],
  };
  await saveCompany(
    db(),
    company("acme.example", { name: "Acme Analytics", keywords: target.keywords, technologies: target.technologies }),
  );
  // 3 of 5 keywords, 1 of 3 technologies → 0.7 × 3/5 + 0.3 × 1/3 = 0.52.
  await saveCompany(
    db(),
    company("rival.example", {
      name: "Rival Freight Insights",
      keywords: ["freight", "analytics", "logistics", "shipper"],
      technologies: ["WordPress", "Shopify"],
      profile: { address: { locality: "Springfield", country: "United States" } },
    }),
  );
  // 2 of 4 keywords, no technologies → 0.35.
  await saveCompany(
    db(),
    company("carrier.example", {
      name: "Carrier Co",
      keywords: ["freight", "carrier"],
      profile: {
        industry: "Logistics and Supply Chain",
        sizeRange: "51-200",
        address: { locality: "Berlin", country: "Deutschland" },
      },
    }),
  );
  // 1 of 4 keywords → 0.175.
  await saveCompany(
    db(),
    company("weak.example", {
      name: "Weak",
      keywords: ["logistics"],
      technologies: ["Shopify"],
      profile: { employeeCount: 120, address: { country: "US" } },
    }),
  );
  // Same stack, other trade.
  await saveCompany(
    db(),
    company("bakery.example", {
      name: "Sunrise Bakery",
      keywords: ["bakery", "bread"],
      technologies: ["WordPress", "PHP"],
      profile: { address: { country: "U.S.A." } },
    }),
  );
  return target;
}

describe("discoverStoredCompanies", () => {
  it("lists lookalikes most alike first with what they share, never the target, from the floor up", async () => {
    const target = await seedDiscover();
    expect(await discoverStoredCompanies(db(), { target, filters: {}, limit: 10 })).toEqual([
      {
        domain: "rival.example",
        name: "Rival Freight Insights",
        similarity: 0.52,
        matched: ["freight", "analytics", "logistics", "WordPress"],
      },
      { domain: "carrier.example", name: "Carrier Co", similarity: 0.35, matched: ["freight", "carrier"] },
      { domain: "weak.example", name: "Weak", similarity: 0.175, matched: ["logistics"] },
    ]);
    expect(
      await discoverStoredCompanies(db(), { target: { ...target, keywords: [] }, filters: {}, limit: 10 }),
    ).toEqual([]);
    expect(await discoverStoredCompanies(db(), { target, filters: {}, limit: 1 })).toHaveLength(1);
  });

  it("narrows lookalikes by filters", async () => {
    const target = await seedDiscover();
    const inUs = await discoverStoredCompanies(db(), { target, filters: { country: "us" }, limit: 10 });
    expect(inUs.map((hit) => hit.domain)).toEqual(["rival.example", "weak.example"]);
  });

  it("matches list filters on any value, ranking more matches first, without a similarity", async () => {
    await seedDiscover();
    expect(await discoverStoredCompanies(db(), { filters: { keywords: ["freight", "carrier"] }, limit: 10 })).toEqual([
      { domain: "acme.example", name: "Acme Analytics", similarity: null, matched: ["freight", "carrier"] },
      { domain: "carrier.example", name: "Carrier Co", similarity: null, matched: ["freight", "carrier"] },
      { domain: "rival.example", name: "Rival Freight Insights", similarity: null, matched: ["freight"] },
    ]);
    // Technologies in any case, matched in the stored spelling.
    expect(
      await discoverStoredCompanies(db(), { filters: { technologies: ["wordpress", "SHOPIFY"] }, limit: 10 }),
    ).toEqual([
      { domain: "rival.example", name: "Rival Freight Insights", similarity: null, matched: ["WordPress", "Shopify"] },
      { domain: "acme.example", name: "Acme Analytics", similarity: null, matched: ["WordPress"] },
      { domain: "bakery.example", name: "Sunrise Bakery", similarity: null, matched: ["WordPress"] },
      { domain: "weak.example", name: "Weak", similarity: null, matched: ["Shopify"] },
    ]);
  });

  it("requires every filter: industry, country in any spelling, locality, size by bracket or count", async () => {
    await seedDiscover();
    const domains = async (filters: Parameters<typeof discoverStoredCompanies>[1]["filters"]) =>
      (await discoverStoredCompanies(db(), { filters, limit: 10 })).map((hit) => hit.domain);
    expect(await domains({ industry: ["logistics and supply chain", "retail"] })).toEqual(["carrier.example"]);
    expect(await domains({ country: "United States" })).toEqual(["bakery.example", "rival.example", "weak.example"]);
    expect(await domains({ country: "Germany" })).toEqual(["carrier.example"]);
    expect(await domains({ country: "Atlantis" })).toEqual([]);
    expect(await domains({ locality: "  springfield " })).toEqual(["rival.example"]);
    expect(await domains({ sizeRange: "51-200" })).toEqual(["carrier.example", "weak.example"]);
    expect(await domains({ sizeRange: "201-500" })).toEqual([]);
    expect(await domains({ country: "US", technologies: ["Shopify"] })).toEqual(["rival.example", "weak.example"]);
    expect(await domains({ country: "US", technologies: ["Shopify"], keywords: ["bakery"] })).toEqual([]);
  });
});

describe("saveEnrichedCompany", () => {
  it("adds industry, size and address to the profile and keeps what the site collection stored", async () => {
    await saveCompany(
      db(),
      company("enriched.example", {
        name: "Enriched",
        keywords: ["widget"],
        technologies: ["WordPress"],
        profile: { logo: "https://enriched.example/logo.png", address: { locality: "Springfield", country: "US" } },
      }),
    );
    await saveEnrichedCompany(db(), {
      domain: "enriched.example",
      name: null,
      description: "Widgets for everyone.",
      keywords: [],
      industry: "machinery",
      sizeRange: "11-50",
      employeeCount: 42,
      address: null,
    });
    expect(await findCompany(db(), "enriched.example")).toMatchObject({
      name: "Enriched",
      description: "Widgets for everyone.",
      keywords: ["widget"],
      technologies: ["WordPress"],
      profile: {
        logo: "https://enriched.example/logo.png",
        industry: "machinery",
        sizeRange: "11-50",
        employeeCount: 42,
        address: { locality: "Springfield", country: "US" },
      },
    });
  });
});

// ---------------------------------------------------------------------------------------------------------------
// The indexes of migration 20261122070000 are what a search runs on, not a scan of every company.

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

async function plan(query: Prisma.Sql | null): Promise<PlanNode[]> {
  if (query === null) throw new Error("no query");
  const [row] = await db().$queryRaw<{ "QUERY PLAN": [{ Plan: PlanNode }] }[]>(
    Prisma.sql`EXPLAIN (FORMAT JSON) ${query}`,
  );
  return nodes(row!["QUERY PLAN"][0].Plan);
}

describe("query plans", () => {
  it("search and discovery read the trigram, full-text and array indexes, never every company", async () => {
    await db().$executeRaw`
      INSERT INTO companies (domain, name, description, keywords, technologies)
      SELECT 'company-' || n || '.example', 'Company ' || md5(n::text), 'Makes product ' || md5((n * 7)::text),
             ARRAY['keyword' || (n % 500)], ARRAY['Technology' || (n % 300)]
      FROM generate_series(1, 20000) AS n`;
    await saveCompany(
      db(),
      company("needle.example", { name: "Zanzibar Freightworks", keywords: ["freight"], technologies: ["WordPress"] }),
    );
    // VACUUM too, so the plan does not depend on whether autovacuum got there first: a manual ANALYZE leaves the GIN
    // indexes' pending lists (20,000 rows of entries) in place, which the planner costs, and autovacuum flushes them.
    await db().$executeRaw`VACUUM ANALYZE companies`;

    const indexesOf = (planNodes: PlanNode[]) =>
      new Set(planNodes.flatMap((node) => (node["Index Name"] ? [node["Index Name"]] : [])));
    const scansAll = (planNodes: PlanNode[]) => planNodes.some((node) => node["Node Type"] === "Seq Scan");

    const search = await plan(companySearchQuery({ query: "Zanzibar Freightworks", limit: 10 }));
    expect(scansAll(search)).toBe(false);
    expect(indexesOf(search)).toEqual(
      new Set(["companies_name_trgm_idx", "companies_search_vector_idx", "companies_pkey"]),
    );
    expect(await searchStoredCompanies(db(), { query: "Zanzibar Freightworks", limit: 10 })).toMatchObject([
      { domain: "needle.example", score: 1 },
    ]);

    const lookalikes = await plan(
      companyDiscoverQuery({
        target: { domain: "x.example", keywords: ["freight"], technologies: [] },
        filters: {},
        limit: 10,
      }),
    );
    expect(scansAll(lookalikes)).toBe(false);
    expect(indexesOf(lookalikes)).toContain("companies_keywords_idx");

    const byTechnology = await plan(companyDiscoverQuery({ filters: { technologies: ["wordpress"] }, limit: 10 }));
    expect(scansAll(byTechnology)).toBe(false);
    expect(indexesOf(byTechnology)).toContain("companies_technologies_idx");
  }, 60_000);
});
