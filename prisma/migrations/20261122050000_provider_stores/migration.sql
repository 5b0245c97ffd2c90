-- What first-party collectors learn: companies (for competitors, search and discovery) and technology observations.

CREATE TABLE "companies" (
    "domain" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "keywords" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "technologies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "profile" JSONB NOT NULL DEFAULT '{}',
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "companies_pkey" PRIMARY KEY ("domain")
);

CREATE INDEX "companies_keywords_idx" ON "companies" USING GIN ("keywords");
CREATE INDEX "companies_technologies_idx" ON "companies" USING GIN ("technologies");

CREATE TABLE "technology_observations" (
    "domain" TEXT NOT NULL,
    "technology" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "first_detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "technology_observations_pkey" PRIMARY KEY ("domain", "technology")
);
