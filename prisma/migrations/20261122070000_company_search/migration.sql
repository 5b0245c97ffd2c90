-- Companies search and discovery over the store of collected companies: full-text search over what a company says it
-- is and does, and trigram similarity on its name (typos, partial names, "resolve a name to its domain").

-- Trusted since PostgreSQL 13: the database owner may create it without superuser rights.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The text a company is found by, weighted: its name and domain (A), its industry keywords (B), its description (C).
-- A function because `array_to_string` is only STABLE (its output depends on the element type's output function),
-- while a generated column needs an IMMUTABLE expression; for text[] the output is fixed, so IMMUTABLE is true here.
CREATE FUNCTION "companies_search_document"("domain" TEXT, "name" TEXT, "description" TEXT, "keywords" TEXT[])
RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT setweight(to_tsvector('english'::regconfig, coalesce("name", '') || ' ' || coalesce("domain", '')), 'A')
        || setweight(to_tsvector('english'::regconfig, coalesce(array_to_string("keywords", ' '), '')), 'B')
        || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'C')
$$;

ALTER TABLE "companies"
    ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (companies_search_document("domain", "name", "description", "keywords")) STORED;

CREATE INDEX "companies_search_vector_idx" ON "companies" USING GIN ("search_vector");
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING GIN ("name" gin_trgm_ops);
