import type { DbClient } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { Competitor } from "@/lib/providers/fields/intelligence";
import { fingerprintEngine } from "@/lib/providers/first-party/technographics/fingerprint-engine";
import { countrySpellings } from "./countries";

/*
 * Companies we have collected (public organisation data, shared by all workspaces) and the competitor search over
 * them. Competitors are companies that describe themselves with the same words; sharing a stack only adds weight.
 */

export interface CompanyRecord {
  domain: string;
  name: string | null;
  description: string | null;
  /** Lower-case industry keywords, see `industryKeywords`. */
  keywords: string[];
  /** Technology names as detected, e.g. "WordPress". */
  technologies: string[];
  profile: Record<string, unknown>;
}

export interface StoredCompany extends CompanyRecord {
  firstSeenAt: Date;
  updatedAt: Date;
}

export interface SimilarityTarget {
  domain: string;
  keywords: string[];
  technologies: string[];
}

/** How much each overlap counts: what a company says it does outweighs what it is built with. */
const KEYWORD_WEIGHT = 0.7;
const TECHNOLOGY_WEIGHT = 0.3;
/**
 * Below this a match is coincidence: with thirty keywords each, one or two shared words and a common stack (analytics,
 * a CDN) stay under it, while companies in the same trade share several words and clear it.
 */
export const SIMILARITY_FLOOR = 0.1;

/**
 * Creates or refreshes a company. A collection that found nothing for a field does not erase what an earlier one
 * found: null scalars and empty lists keep the stored value, profile keys with a null value keep theirs, other
 * profile keys are replaced one by one. `first_seen_at` is set once; `updated_at` is now.
 */
export async function saveCompany(client: DbClient, company: CompanyRecord): Promise<void> {
  const keywords = distinct(company.keywords.map((keyword) => keyword.trim().toLowerCase()));
  const technologies = distinct(company.technologies.map((technology) => technology.trim()));
  await client.$executeRaw`
    INSERT INTO companies AS stored (domain, name, description, keywords, technologies, profile, first_seen_at, updated_at)
    VALUES (
      ${normalDomain(company.domain)}, ${company.name}, ${company.description}, ${keywords}::text[], ${technologies}::text[],
      jsonb_strip_nulls(${JSON.stringify(company.profile)}::jsonb), now(), now()
    )
    ON CONFLICT (domain) DO UPDATE SET
      name = COALESCE(EXCLUDED.name, stored.name),
      description = COALESCE(EXCLUDED.description, stored.description),
      keywords = CASE WHEN cardinality(EXCLUDED.keywords) > 0 THEN EXCLUDED.keywords ELSE stored.keywords END,
      technologies = CASE WHEN cardinality(EXCLUDED.technologies) > 0 THEN EXCLUDED.technologies ELSE stored.technologies END,
      profile = stored.profile || EXCLUDED.profile,
      updated_at = now()`;
}

/** The stored company, or null when we have never collected it. */
export async function findCompany(client: DbClient, domain: string): Promise<StoredCompany | null> {
  return toStoredCompany(await client.company.findUnique({ where: { domain: normalDomain(domain) } }));
}

/**
 * The company we know by exactly this name (case-insensitive), the most recently collected one when several share
 * it; null otherwise. A name is only resolved to a domain we have seen state that name.
 */
export async function findCompanyByName(client: DbClient, name: string): Promise<StoredCompany | null> {
  const trimmed = name.trim();
  if (trimmed === "") return null;
  return toStoredCompany(
    await client.company.findFirst({
      where: { name: { equals: trimmed, mode: "insensitive" } },
      orderBy: [{ updatedAt: "desc" }, { domain: "asc" }],
    }),
  );
}

function toStoredCompany(row: Awaited<ReturnType<DbClient["company"]["findUnique"]>>): StoredCompany | null {
  if (!row) return null;
  return {
    domain: row.domain,
    name: row.name,
    description: row.description,
    keywords: row.keywords,
    technologies: row.technologies,
    profile: isPlainObject(row.profile) ? row.profile : {},
    firstSeenAt: row.firstSeenAt,
    updatedAt: row.updatedAt,
  };
}

interface SimilarRow {
  domain: string;
  name: string | null;
  similarity: number;
}

/**
 * Companies most like the target, best first (ties by domain), at most `limit`, never the target itself.
 * similarity = 0.7 × Jaccard(keywords) + 0.3 × Jaccard(technologies), kept when at least SIMILARITY_FLOOR.
 *
 * At least one shared keyword is required: shared technologies alone (everyone runs the same analytics) are not
 * competition. So the candidates are exactly the rows whose keywords overlap the target's, which the GIN index on
 * `keywords` finds (`&&`); a technology-only overlap could never qualify, so it is not searched for. Scores are
 * computed in the database so only the best `limit` rows come back.
 */
export async function findSimilarCompanies(
  client: DbClient,
  target: SimilarityTarget,
  limit = 10,
): Promise<Competitor[]> {
  const keywords = distinct(target.keywords.map((keyword) => keyword.trim().toLowerCase()));
  const technologies = distinct(target.technologies.map((technology) => technology.trim()));
  const wanted = Math.floor(limit);
  if (keywords.length === 0 || !(wanted > 0)) return [];

  const rows = await client.$queryRaw<SimilarRow[]>`
    WITH target AS (SELECT ${keywords}::text[] AS keywords, ${technologies}::text[] AS technologies),
    scored AS (
      SELECT
        company.domain,
        company.name,
        ${KEYWORD_WEIGHT}::float8 * overlap.keywords_shared / overlap.keywords_all
          + ${TECHNOLOGY_WEIGHT}::float8 * CASE WHEN overlap.technologies_all = 0 THEN 0 ELSE overlap.technologies_shared / overlap.technologies_all END
          AS similarity
      FROM companies AS company
      CROSS JOIN target
      CROSS JOIN LATERAL (
        SELECT
          (SELECT count(*) FROM (SELECT unnest(company.keywords) INTERSECT SELECT unnest(target.keywords)) AS shared)::float8 AS keywords_shared,
          (SELECT count(*) FROM (SELECT unnest(company.keywords) UNION SELECT unnest(target.keywords)) AS unioned)::float8 AS keywords_all,
          (SELECT count(*) FROM (SELECT unnest(company.technologies) INTERSECT SELECT unnest(target.technologies)) AS shared)::float8 AS technologies_shared,
          (SELECT count(*) FROM (SELECT unnest(company.technologies) UNION SELECT unnest(target.technologies)) AS unioned)::float8 AS technologies_all
      ) AS overlap
      -- The array parameter itself (not the CTE's column), so the planner can use the GIN index on keywords.
      WHERE company.keywords && ${keywords}::text[] AND company.domain <> ${normalDomain(target.domain)}
    )
    SELECT domain, name, similarity FROM scored
    WHERE similarity >= ${SIMILARITY_FLOOR}::float8
    ORDER BY similarity DESC, domain
    LIMIT ${wanted}`;

  return rows.map((row) => ({
    name: row.name ?? row.domain,
    domain: row.domain,
    similarity: Math.round(row.similarity * 1000) / 1000,
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Search and discovery (companies/search, companies/discover), over the indexes of migration 20261122070000.

export interface SearchedCompany {
  domain: string;
  name: string | null;
  description: string | null;
  /** 0–1, three decimals. */
  score: number;
}

/**
 * Companies matching a name or keywords, best first (ties by domain), at most `limit`.
 *
 * A company is a candidate when its name resembles the query (trigram similarity of the whole name, or of its best
 * matching words, both found through the trigram index on `name`), when its generated `search_vector` (name and
 * domain, keywords, description) matches the query's words (`websearch_to_tsquery`: words must all occur, `or` and
 * quoted phrases work), or when the query is exactly its domain. Its score is the best of:
 * - 1 for exactly its name (ignoring case) or domain, so a name resolves to its domain first;
 * - the mean of the name's similarity and word similarity (a partial name like "acme" for "Acme Analytics" scores
 *   about 0.68, a typo close to the full name near 1);
 * - the full-text rank normalized into [0, 1) (rank / (rank + 1)), which weighs name over keywords over description.
 */
export async function searchStoredCompanies(
  client: DbClient,
  options: { query: string; limit: number },
): Promise<SearchedCompany[]> {
  const query = companySearchQuery(options);
  return query === null ? [] : client.$queryRaw<SearchedCompany[]>(query);
}

/** The SQL of `searchStoredCompanies` (exported for query-plan tests); null when nothing can match. */
export function companySearchQuery(options: { query: string; limit: number }): Prisma.Sql | null {
  const query = options.query.trim().replace(/\s+/g, " ");
  const wanted = Math.floor(options.limit);
  if (query === "" || !(wanted > 0)) return null;
  const lower = query.toLowerCase();
  return Prisma.sql`
    SELECT domain, name, description, score FROM (
      SELECT
        company.domain,
        company.name,
        company.description,
        round(GREATEST(
          CASE WHEN lower(company.name) = ${lower} OR company.domain = ${lower} THEN 1 ELSE 0 END,
          COALESCE((similarity(company.name, ${query}) + word_similarity(${query}, company.name)) / 2, 0),
          ts_rank(company.search_vector, websearch_to_tsquery('english', ${query}), 32)
        )::numeric, 3)::float8 AS score
      FROM companies AS company
      -- Each alternative is an index condition (trigram, full-text, primary key), so the planner ORs bitmap index
      -- scans. An exact name needs no condition of its own: trigrams ignore case, so it is a similarity of 1.
      WHERE company.name % ${query}
         OR company.name %> ${query}
         OR company.search_vector @@ websearch_to_tsquery('english', ${query})
         OR company.domain = ${lower}
    ) AS ranked
    ORDER BY score DESC, domain
    LIMIT ${wanted}`;
}

/** Employee-count brackets as vendors write them, and the counts each covers. */
const SIZE_BOUNDS: Readonly<Record<string, readonly [number, number | null]>> = {
  "1-10": [1, 10],
  "11-50": [11, 50],
  "51-200": [51, 200],
  "201-500": [201, 500],
  "501-1000": [501, 1000],
  "1001-5000": [1001, 5000],
  "5001-10000": [5001, 10000],
  "10001+": [10001, null],
};

/** `normalizeCountryText` of countries.ts, in SQL, applied to the stored address's country. */
const NORMALIZED_COUNTRY_SQL = Prisma.sql`btrim(regexp_replace(replace(replace(lower(company.profile #>> '{address,country}'), '.', ''), '&', 'and'), '[[:space:]]+', ' ', 'g'))`;

export interface DiscoverFilters {
  /** Industries as sources state them; compared without case. */
  industry?: string[];
  /** Industry keywords (lower-case, singular, as stored). */
  keywords?: string[];
  /** Technology names; compared without case. */
  technologies?: string[];
  /** A code or a name in any common spelling (see countries.ts). */
  country?: string;
  locality?: string;
  /** An employee-count bracket, e.g. "51-200". */
  sizeRange?: string;
}

export interface DiscoveredCompany {
  domain: string;
  name: string | null;
  /** Likeness to the target (as `findSimilarCompanies` scores it), three decimals; null without a target. */
  similarity: number | null;
  /** The target's and the filters' keywords the company has, in that order, then their technologies. */
  matched: string[];
}

/**
 * Companies like `target` and/or matching `filters`, at most `limit`. Every filter given must hold; a list filter
 * holds when the company has any of its values (GIN array overlap on `keywords` / `technologies`). Industry, size and
 * address come from the stored profile (industry and size only where a company-data source stated them; a size also
 * matches a stated employee count in the bracket).
 *
 * With a target, candidates share a keyword with it (never the target itself), are scored like competitors and kept
 * from SIMILARITY_FLOOR up, most alike first. Without one, the most matched values rank first. Ties go by domain.
 */
export async function discoverStoredCompanies(
  client: DbClient,
  options: { target?: SimilarityTarget; filters: DiscoverFilters; limit: number },
): Promise<DiscoveredCompany[]> {
  const query = companyDiscoverQuery(options);
  return query === null ? [] : client.$queryRaw<DiscoveredCompany[]>(query);
}

/** The SQL of `discoverStoredCompanies` (exported for query-plan tests); null when nothing can match. */
export function companyDiscoverQuery(options: {
  target?: SimilarityTarget;
  filters: DiscoverFilters;
  limit: number;
}): Prisma.Sql | null {
  const wanted = Math.floor(options.limit);
  const target = options.target && {
    domain: normalDomain(options.target.domain),
    keywords: distinct(options.target.keywords.map((keyword) => keyword.trim().toLowerCase())),
    technologies: distinct(options.target.technologies.map((technology) => technology.trim())),
  };
  if (!(wanted > 0) || (target !== undefined && target.keywords.length === 0)) return null;

  const { filters } = options;
  const keywords = distinct((filters.keywords ?? []).map((keyword) => keyword.trim().toLowerCase()));
  const technologies = canonicalTechnologyNames(filters.technologies ?? []);
  const industries = distinct((filters.industry ?? []).map((industry) => industry.trim().toLowerCase()));
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  // Array parameters (not expressions over columns), so the planner can use the GIN indexes on the arrays.
  if (target)
    conditions.push(
      Prisma.sql`company.keywords && ${target.keywords}::text[]`,
      Prisma.sql`company.domain <> ${target.domain}`,
    );
  if (keywords.length > 0) conditions.push(Prisma.sql`company.keywords && ${keywords}::text[]`);
  if (technologies.length > 0) conditions.push(Prisma.sql`company.technologies && ${technologies}::text[]`);
  if (industries.length > 0)
    conditions.push(Prisma.sql`lower(company.profile ->> 'industry') = ANY(${industries}::text[])`);
  if (filters.country !== undefined)
    conditions.push(Prisma.sql`${NORMALIZED_COUNTRY_SQL} = ANY(${countrySpellings(filters.country)}::text[])`);
  if (filters.locality !== undefined) {
    conditions.push(
      Prisma.sql`lower(btrim(company.profile #>> '{address,locality}')) = ${filters.locality.trim().toLowerCase()}`,
    );
  }
  if (filters.sizeRange !== undefined) conditions.push(sizeCondition(filters.sizeRange));

  const probeKeywords = distinct([...(target?.keywords ?? []), ...keywords]);
  const probeTechnologies = distinct([...(target?.technologies ?? []), ...technologies]);
  const similarity = target
    ? Prisma.sql`round((
        ${KEYWORD_WEIGHT}::float8
          * (SELECT count(*) FROM (SELECT unnest(company.keywords) INTERSECT SELECT unnest(${target.keywords}::text[])) AS shared)::float8
          / (SELECT count(*) FROM (SELECT unnest(company.keywords) UNION SELECT unnest(${target.keywords}::text[])) AS unioned)::float8
        + ${TECHNOLOGY_WEIGHT}::float8 * COALESCE(
          (SELECT count(*) FROM (SELECT unnest(company.technologies) INTERSECT SELECT unnest(${target.technologies}::text[])) AS shared)::float8
            / NULLIF((SELECT count(*) FROM (SELECT unnest(company.technologies) UNION SELECT unnest(${target.technologies}::text[])) AS unioned), 0)::float8,
          0)
      )::numeric, 3)::float8`
    : Prisma.sql`NULL::float8`;

  return Prisma.sql`
    SELECT domain, name, similarity, matched FROM (
      SELECT
        company.domain,
        company.name,
        ${similarity} AS similarity,
        ARRAY(SELECT probe.value FROM unnest(${probeKeywords}::text[]) WITH ORDINALITY AS probe(value, position)
              WHERE probe.value = ANY(company.keywords) ORDER BY probe.position)
          || ARRAY(SELECT probe.value FROM unnest(${probeTechnologies}::text[]) WITH ORDINALITY AS probe(value, position)
                   WHERE probe.value = ANY(company.technologies) ORDER BY probe.position) AS matched
      FROM companies AS company
      WHERE ${Prisma.join(conditions, " AND ")}
    ) AS found
    WHERE ${target ? Prisma.sql`similarity >= ${SIMILARITY_FLOOR}::float8` : Prisma.sql`TRUE`}
    ORDER BY similarity DESC NULLS LAST, cardinality(matched) DESC, domain
    LIMIT ${wanted}`;
}

function sizeCondition(sizeRange: string): Prisma.Sql {
  const bounds = SIZE_BOUNDS[sizeRange];
  const stated = Prisma.sql`company.profile ->> 'sizeRange' = ${sizeRange}`;
  if (bounds === undefined) return stated;
  const [low, high] = bounds;
  const count = Prisma.sql`(company.profile ->> 'employeeCount')::numeric`;
  const inBracket = high === null ? Prisma.sql`${count} >= ${low}` : Prisma.sql`${count} BETWEEN ${low} AND ${high}`;
  return Prisma.sql`(${stated} OR (jsonb_typeof(company.profile -> 'employeeCount') = 'number' AND ${inBracket}))`;
}

let technologyNames: Map<string, string> | undefined;

/**
 * Technology names as stored (the fingerprint dataset's spelling, e.g. "WordPress"), whatever case the caller used,
 * so the filter compares exactly and the index on `technologies` applies; an unknown name is kept as given.
 */
function canonicalTechnologyNames(names: readonly string[]): string[] {
  technologyNames ??= new Map(
    fingerprintEngine().technologies.map((technology) => [technology.name.toLowerCase(), technology.name]),
  );
  const known = technologyNames;
  return distinct(names.map((name) => name.trim()).map((name) => known.get(name.toLowerCase()) ?? name));
}

/** What companies/enrich learned about a company, added to the store so discovery can filter on it. */
export interface EnrichedCompanyFacts {
  domain: string;
  name: string | null;
  description: string | null;
  keywords: string[];
  industry: string | null;
  sizeRange: string | null;
  employeeCount: number | null;
  address: Record<string, string | null> | null;
}

/**
 * Records an enriched profile: name, description and keywords as `saveCompany` merges them, and industry, size and
 * address in the profile (null facts keep what was stored). Technologies are left to the collector that detects them.
 */
export async function saveEnrichedCompany(client: DbClient, facts: EnrichedCompanyFacts): Promise<void> {
  await saveCompany(client, {
    domain: facts.domain,
    name: facts.name,
    description: facts.description,
    keywords: facts.keywords,
    technologies: [],
    profile: {
      industry: facts.industry,
      sizeRange: facts.sizeRange,
      employeeCount: facts.employeeCount,
      address: facts.address,
    },
  });
}

function distinct(values: string[]): string[] {
  return [...new Set(values.filter((value) => value !== ""))];
}

function normalDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, "");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
