-- Issue #22: the ingest requests an endpoint refused, kept in a ring of slots per endpoint (lib/inbox/rejection-log.ts):
-- a recording takes the next number from the endpoint's count and writes over slot number % ring size, so the table
-- never holds more rows per endpoint than the ring has slots.

CREATE TABLE "webhook_rejections" (
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "slot" SMALLINT NOT NULL,
    "id" TEXT NOT NULL,
    "sequence" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "status" SMALLINT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "headers" JSONB NOT NULL,
    "source_ip" TEXT NOT NULL,
    "body_preview" BYTEA,
    "body_bytes_read" INTEGER NOT NULL,
    CONSTRAINT "webhook_rejections_pkey" PRIMARY KEY ("workspace_id", "webhook_endpoint_id", "slot")
);
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_rejection_counts" (
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "recorded" BIGINT NOT NULL DEFAULT 0,
    "not_recorded" BIGINT NOT NULL DEFAULT 0,
    CONSTRAINT "webhook_rejection_counts_pkey" PRIMARY KEY ("workspace_id", "webhook_endpoint_id")
);
ALTER TABLE "webhook_rejection_counts" ADD CONSTRAINT "webhook_rejection_counts_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
