-- Failed dashboard sign-ins, for rate limiting.

CREATE TABLE "sign_in_failures" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "sign_in_failures_email_created_at_idx" ON "sign_in_failures"("email", "created_at");
