-- Issue #22: deliveries are partitioned by receipt day, so expiring a day of them drops a table rather than deleting
-- rows (lib/inbox/delivery-partitions.ts keeps the partitions; lib/inbox/delivery-retention.ts expires deliveries).
--
-- PostgreSQL wants every unique key of a partitioned table to hold the partition key, which a sender's message id
-- cannot: dedup claims move to `delivery_dedup_claims`, a small table of one row per delivery that carries a claim,
-- written in the delivery's own INSERT statement (lib/inbox/delivery-writes.ts). The key of a delivery becomes
-- (workspace_id, id, created_at): the workspace first (the distribution column of a sharded PostgreSQL), and the
-- receipt time because a key must hold it.
--
-- The table as it was becomes the first partition, from the beginning of time to the end of today (UTC), so its rows
-- are not copied; its indexes become the partitioned indexes' (an index equal to the parent's is attached, not built).

-- 1. The table as it was, renamed out of the way with its indexes and triggers.
ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_p_legacy";
ALTER INDEX "webhook_deliveries_workspace_id_created_at_id_idx" RENAME TO "webhook_deliveries_p_legacy_workspace_idx";
ALTER INDEX "webhook_deliveries_workspace_pending_idx" RENAME TO "webhook_deliveries_p_legacy_workspace_pending_idx";
ALTER INDEX "webhook_deliveries_webhook_endpoint_id_created_at_id_idx" RENAME TO "webhook_deliveries_p_legacy_endpoint_idx";
ALTER INDEX "webhook_deliveries_endpoint_pending_idx" RENAME TO "webhook_deliveries_p_legacy_endpoint_pending_idx";
ALTER INDEX "webhook_deliveries_workspace_event_type_idx" RENAME TO "webhook_deliveries_p_legacy_event_type_idx";
DROP TRIGGER "webhook_deliveries_notify_insert" ON "webhook_deliveries_p_legacy";
DROP TRIGGER "webhook_deliveries_notify_ack" ON "webhook_deliveries_p_legacy";
ALTER TABLE "webhook_deliveries_p_legacy" DROP CONSTRAINT "webhook_deliveries_workspace_id_webhook_endpoint_id_fkey";

-- 2. Its dedup claims, moved.
CREATE TABLE "delivery_dedup_claims" (
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "dedup_key" TEXT NOT NULL,
    "delivery_id" UUID NOT NULL,
    "delivery_created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "delivery_dedup_claims_pkey" PRIMARY KEY ("workspace_id","webhook_endpoint_id","dedup_key")
);
-- Claims are written in receipt order, so a BRIN index finds a dropped day's claims for almost nothing per insert.
CREATE INDEX "delivery_dedup_claims_delivery_created_at_idx" ON "delivery_dedup_claims" USING BRIN ("delivery_created_at");
ALTER TABLE "delivery_dedup_claims" ADD CONSTRAINT "delivery_dedup_claims_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id")
    ON DELETE CASCADE ON UPDATE CASCADE;
INSERT INTO "delivery_dedup_claims" ("workspace_id", "webhook_endpoint_id", "dedup_key", "delivery_id", "delivery_created_at")
SELECT "workspace_id", "webhook_endpoint_id", "dedup_key", "id", "created_at"
FROM "webhook_deliveries_p_legacy" WHERE "dedup_key" IS NOT NULL;
DROP INDEX "webhook_deliveries_webhook_endpoint_id_dedup_key_key";

-- 3. The old key gives way to the new one.
ALTER TABLE "webhook_deliveries_p_legacy" DROP CONSTRAINT "webhook_deliveries_pkey";
ALTER TABLE "webhook_deliveries_p_legacy" ADD CONSTRAINT "webhook_deliveries_p_legacy_pkey" PRIMARY KEY ("workspace_id", "id", "created_at");

-- 4. The partitioned table, the same columns in the same order.
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
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
    "event_type" TEXT,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("workspace_id","id","created_at")
) PARTITION BY RANGE ("created_at");

-- The first partition, then a week of day partitions (named and made as lib/inbox/delivery-partitions.ts does), so a
-- database is ready to store deliveries before any maintenance pass has run.
DO $$
DECLARE
  tomorrow TIMESTAMPTZ := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day';
  day TIMESTAMPTZ;
BEGIN
  EXECUTE format('ALTER TABLE "webhook_deliveries" ATTACH PARTITION "webhook_deliveries_p_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', tomorrow);
  FOR offset_days IN 0..6 LOOP
    day := tomorrow + offset_days * interval '1 day';
    EXECUTE format('CREATE TABLE %I PARTITION OF "webhook_deliveries" FOR VALUES FROM (%L) TO (%L)',
                   'webhook_deliveries_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD'), day, day + interval '1 day');
  END LOOP;
END
$$;

-- No default partition: with one, PostgreSQL cannot read the day partitions in order (a newest-first page would open
-- every partition's index), nor detach one without an exclusive lock on the whole table. Day partitions are made a
-- week ahead instead, before the app serves and on every maintenance pass (lib/inbox/delivery-maintenance.ts).

CREATE INDEX "webhook_deliveries_workspace_id_created_at_id_idx" ON "webhook_deliveries"("workspace_id", "created_at", "id");
CREATE INDEX "webhook_deliveries_workspace_pending_idx" ON "webhook_deliveries"("workspace_id", "created_at", "id") WHERE acknowledged_at IS NULL;
CREATE INDEX "webhook_deliveries_webhook_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("webhook_endpoint_id", "created_at", "id");
CREATE INDEX "webhook_deliveries_endpoint_pending_idx" ON "webhook_deliveries"("webhook_endpoint_id", "created_at", "id") WHERE acknowledged_at IS NULL;
CREATE INDEX "webhook_deliveries_workspace_event_type_idx" ON "webhook_deliveries"("workspace_id", "event_type", "created_at", "id") WHERE event_type IS NOT NULL;

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id")
    ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TRIGGER "webhook_deliveries_notify_insert"
  AFTER INSERT ON "webhook_deliveries"
  REFERENCING NEW TABLE AS created
  FOR EACH STATEMENT EXECUTE FUNCTION "signalbox_notify_deliveries_created"();

CREATE TRIGGER "webhook_deliveries_notify_ack"
  AFTER UPDATE OF "acknowledged_at" ON "webhook_deliveries"
  FOR EACH ROW WHEN (OLD.acknowledged_at IS NULL AND NEW.acknowledged_at IS NOT NULL)
  EXECUTE FUNCTION "signalbox_notify_delivery"();
