-- Signed-out dashboard sessions. next-auth's JWT cookies are stateless, so a copied cookie would outlive its sign-out;
-- the session check refuses every session id listed here. Rows past `expires_at` can be deleted (they are pruned on
-- sign-out): no cookie of that session is valid any more.

CREATE TABLE "revoked_sessions" (
    "session_id" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "revoked_sessions_pkey" PRIMARY KEY ("session_id")
);

CREATE INDEX "revoked_sessions_expires_at_idx" ON "revoked_sessions"("expires_at");
