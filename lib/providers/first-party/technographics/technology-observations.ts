import type { DbClient } from "@/lib/db/client";

/*
 * When each technology was first and last seen on a domain: technographics' firstDetected / lastDetected. The data is
 * public (what anyone can see on the site), so it is shared by all workspaces rather than kept per tenant.
 */

export interface ObservedTechnology {
  name: string;
  category: string;
}

export interface DetectionSpan {
  firstDetected: Date;
  lastDetected: Date;
}

interface ObservationRow {
  technology: string;
  firstDetected: Date;
  lastDetected: Date;
}

/**
 * Records that `technologies` were seen on `domain` at `at`, in one statement, and returns every one's span keyed by
 * name. Collections can finish out of order, so an observation older than what is stored moves `firstDetected` back
 * but never `lastDetected`, and only the newest observation sets the category.
 */
export async function recordTechnologyObservations(
  client: DbClient,
  domain: string,
  technologies: ObservedTechnology[],
  at: Date,
): Promise<Map<string, DetectionSpan>> {
  // One row per name: the same row twice in one upsert is an error in PostgreSQL. The last category given wins.
  const categories = new Map(technologies.map((technology) => [technology.name, technology.category]));
  if (categories.size === 0) return new Map();

  const rows = await client.$queryRaw<ObservationRow[]>`
    INSERT INTO technology_observations AS stored (domain, technology, category, first_detected_at, last_detected_at)
    SELECT ${domain.toLowerCase()}, seen.technology, seen.category, ${at}, ${at}
    FROM unnest(${[...categories.keys()]}::text[], ${[...categories.values()]}::text[]) AS seen (technology, category)
    ON CONFLICT (domain, technology) DO UPDATE SET
      first_detected_at = LEAST(stored.first_detected_at, EXCLUDED.first_detected_at),
      last_detected_at = GREATEST(stored.last_detected_at, EXCLUDED.last_detected_at),
      category = CASE WHEN EXCLUDED.last_detected_at >= stored.last_detected_at THEN EXCLUDED.category ELSE stored.category END
    RETURNING technology, first_detected_at AS "firstDetected", last_detected_at AS "lastDetected"`;

  return new Map(
    rows.map((row) => [row.technology, { firstDetected: row.firstDetected, lastDetected: row.lastDetected }]),
  );
}
