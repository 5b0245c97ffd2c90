import type { DbClient } from "@/lib/db/client";
import type { Competitor } from "@/lib/enrichment/intelligence-fields";

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
    await client.company.findFirst({ where: { name: { equals: trimmed, mode: "insensitive" } }, orderBy: [{ updatedAt: "desc" }, { domain: "asc" }] }),
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
export async function findSimilarCompanies(client: DbClient, target: SimilarityTarget, limit = 10): Promise<Competitor[]> {
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

  return rows.map((row) => ({ name: row.name ?? row.domain, domain: row.domain, similarity: Math.round(row.similarity * 1000) / 1000 }));
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
