-- Sign-in failures per source address as well as per email (lib/auth/users.ts): a lockout holds for the (email,
-- source) pair that failed, and a source failing across many emails (password spraying) is throttled. Rows from before
-- have no source.
ALTER TABLE "sign_in_failures" ADD COLUMN "source_ip" TEXT;

CREATE INDEX "sign_in_failures_source_ip_created_at_idx" ON "sign_in_failures"("source_ip", "created_at");
