-- Enrichment billing: balances on the workspace, an append-only ledger, and the result cache.

ALTER TABLE "workspaces"
    ADD COLUMN "subscription_allowance_cents" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "subscription_remaining_cents" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "purchased_balance_cents" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "period_started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Balances never go negative, whatever the code does: the database refuses it.
ALTER TABLE "workspaces"
    ADD CONSTRAINT "workspaces_balances_not_negative"
    CHECK ("subscription_allowance_cents" >= 0 AND "subscription_remaining_cents" >= 0 AND "purchased_balance_cents" >= 0);

CREATE TYPE "LedgerEntryKind" AS ENUM ('usage', 'credit', 'allowance', 'period_reset');

CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "kind" "LedgerEntryKind" NOT NULL,
    "api_key_id" TEXT,
    "key_mode" "ApiKeyMode",
    "operation" TEXT,
    "input_hash" TEXT,
    "cost_cents" INTEGER NOT NULL DEFAULT 0,
    "subscription_delta_cents" INTEGER NOT NULL DEFAULT 0,
    "purchased_delta_cents" INTEGER NOT NULL DEFAULT 0,
    "subscription_remaining_cents" INTEGER NOT NULL,
    "purchased_balance_cents" INTEGER NOT NULL,
    "cached" BOOLEAN NOT NULL DEFAULT false,
    "latency_ms" INTEGER,
    "providers_attempted" INTEGER,
    "records" INTEGER,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "ledger_entries_workspace_id_created_at_id_idx" ON "ledger_entries"("workspace_id", "created_at", "id");

ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "enrichment_cache" (
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "enrichment_cache_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "enrichment_cache_expires_at_idx" ON "enrichment_cache"("expires_at");
