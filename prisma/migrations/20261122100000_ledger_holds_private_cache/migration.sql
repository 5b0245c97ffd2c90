-- Money rules: a priced call holds its maximum price before any upstream work, and a cached answer belongs to the
-- workspace that paid for it.

CREATE TABLE "ledger_holds" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_holds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ledger_holds_amount_not_negative" CHECK ("amount_cents" >= 0)
);

CREATE INDEX "ledger_holds_workspace_id_expires_at_idx" ON "ledger_holds"("workspace_id", "expires_at");

ALTER TABLE "ledger_holds" ADD CONSTRAINT "ledger_holds_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The cache was shared by every workspace. Its rows name no payer, and they are only a cache: they are dropped
-- rather than given an owner.
DELETE FROM "enrichment_cache";

ALTER TABLE "enrichment_cache" DROP CONSTRAINT "enrichment_cache_pkey";

ALTER TABLE "enrichment_cache"
    ADD COLUMN "workspace_id" TEXT NOT NULL,
    ADD COLUMN "answered_at" TIMESTAMPTZ(3) NOT NULL,
    ADD CONSTRAINT "enrichment_cache_pkey" PRIMARY KEY ("workspace_id", "key");

CREATE INDEX "enrichment_cache_key_answered_at_idx" ON "enrichment_cache"("key", "answered_at");

ALTER TABLE "enrichment_cache" ADD CONSTRAINT "enrichment_cache_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
