-- Issue #20 §2: each delivery's event type (`issues.opened`, `invoice.paid`), read once at ingest
-- (lib/inbox/event-type.ts). Deliveries stored before this stay null: their bodies are not read again.
ALTER TABLE "webhook_deliveries" ADD COLUMN "event_type" TEXT;

-- Where an endpoint's senders put the type, tried before the built-in senders' places: a lower-cased header name or
-- a dotted JSON path, at most one of them.
ALTER TABLE "webhook_endpoints" ADD COLUMN "event_type_header" TEXT;
ALTER TABLE "webhook_endpoints" ADD COLUMN "event_type_path" TEXT;
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_event_type_source_check"
    CHECK ("event_type_header" IS NULL OR "event_type_path" IS NULL);

-- The listing filtered by type walks (workspace, type) in (created_at, id) order: an index range scan like the
-- unfiltered listing's. One index for the hot table (each costs every ingest), and partial, so a delivery without a
-- type is not entered at all. With `endpointId` too, this index or the endpoint's serves it, the other condition a
-- filter (see README, "Event types").
CREATE INDEX "webhook_deliveries_workspace_event_type_idx" ON "webhook_deliveries"("workspace_id", "event_type", "created_at", "id") WHERE event_type IS NOT NULL;
