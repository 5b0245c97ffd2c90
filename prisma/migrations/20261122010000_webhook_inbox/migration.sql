-- Webhook inbox: endpoints and their deliveries; server-wide settings.

CREATE TABLE "app_settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "app_settings_pkey" PRIMARY KEY ("key")
);

CREATE TYPE "SignatureScheme" AS ENUM ('standard-webhooks', 'stripe', 'github', 'shopify', 'slack');

CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "signing_scheme" "SignatureScheme",
    "signing_secret" TEXT,
    "reject_invalid_signatures" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_endpoints_workspace_id_created_at_id_idx" ON "webhook_endpoints"("workspace_id", "created_at", "id");

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "raw_payload" JSONB NOT NULL,
    "raw_body" BYTEA NOT NULL,
    "content_type" TEXT,
    "headers" JSONB NOT NULL,
    "source_ip" TEXT NOT NULL,
    "query" TEXT NOT NULL DEFAULT '',
    "size_bytes" INTEGER NOT NULL,
    "dedup_key" TEXT,
    "signature" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "acknowledged_at" TIMESTAMPTZ(3),
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "webhook_deliveries_webhook_endpoint_id_dedup_key_key" ON "webhook_deliveries"("webhook_endpoint_id", "dedup_key");

CREATE INDEX "webhook_deliveries_workspace_id_created_at_id_idx" ON "webhook_deliveries"("workspace_id", "created_at", "id");

CREATE INDEX "webhook_deliveries_workspace_pending_idx" ON "webhook_deliveries"("workspace_id", "created_at", "id") WHERE acknowledged_at IS NULL;

CREATE INDEX "webhook_deliveries_webhook_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("webhook_endpoint_id", "created_at", "id");

CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries"("webhook_endpoint_id", "created_at", "id") WHERE acknowledged_at IS NULL;

ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_endpoint_id_fkey"
    FOREIGN KEY ("webhook_endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
