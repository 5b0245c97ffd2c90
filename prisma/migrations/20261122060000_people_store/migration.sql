-- People named on collected company websites, for the people endpoints.

CREATE TABLE "people" (
    "domain" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "full_name" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "position" TEXT,
    "seniority" TEXT,
    "department" TEXT,
    "email" TEXT,
    "linkedin" TEXT,
    "twitter" TEXT,
    "phone" TEXT,
    "source_url" TEXT NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "people_pkey" PRIMARY KEY ("domain", "name_key")
);

CREATE INDEX "people_email_idx" ON "people"("email");
CREATE INDEX "people_linkedin_idx" ON "people"("linkedin");
