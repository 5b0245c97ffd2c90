-- Pending and total deliveries per endpoint, kept as deliveries change instead of counted on every read of an endpoint
-- (a count over a busy endpoint read every delivery of it: 280 ms at a million). Rows are changes, appended by
-- statement triggers, one per endpoint a statement touched: concurrent writers never wait on a shared counter row.
-- An endpoint's counts are the sum of its rows; the deliveries' upkeep folds them into one row per endpoint.
CREATE TABLE "endpoint_delivery_counts" (
    "workspace_id" TEXT NOT NULL,
    "id" BIGSERIAL NOT NULL,
    "webhook_endpoint_id" TEXT NOT NULL,
    "pending" BIGINT NOT NULL,
    "total" BIGINT NOT NULL,

    CONSTRAINT "endpoint_delivery_counts_pkey" PRIMARY KEY ("workspace_id","id")
);
CREATE INDEX "endpoint_delivery_counts_workspace_id_webhook_endpoint_id_idx"
    ON "endpoint_delivery_counts"("workspace_id", "webhook_endpoint_id");
ALTER TABLE "endpoint_delivery_counts" ADD CONSTRAINT "endpoint_delivery_counts_workspace_id_webhook_endpoint_id_fkey"
    FOREIGN KEY ("workspace_id", "webhook_endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id")
    ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "endpoint_delivery_counts" ("workspace_id", "webhook_endpoint_id", "pending", "total")
SELECT "workspace_id", "webhook_endpoint_id", count(*) FILTER (WHERE "acknowledged_at" IS NULL), count(*)
FROM "webhook_deliveries" GROUP BY "workspace_id", "webhook_endpoint_id";

CREATE FUNCTION "signalbox_count_inserted_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
  SELECT workspace_id, webhook_endpoint_id, count(*) FILTER (WHERE acknowledged_at IS NULL), count(*)
  FROM inserted GROUP BY workspace_id, webhook_endpoint_id;
  RETURN NULL;
END $$;

-- Only acknowledgements change a delivery's state; its endpoint never changes.
CREATE FUNCTION "signalbox_count_updated_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
  SELECT workspace_id, webhook_endpoint_id, sum(change), 0
  FROM (SELECT workspace_id, webhook_endpoint_id, CASE WHEN acknowledged_at IS NULL THEN 1 ELSE 0 END AS change
        FROM after_update
        UNION ALL
        SELECT workspace_id, webhook_endpoint_id, CASE WHEN acknowledged_at IS NULL THEN -1 ELSE 0 END
        FROM before_update) AS changes
  GROUP BY workspace_id, webhook_endpoint_id
  HAVING sum(change) <> 0;
  RETURN NULL;
END $$;

-- Deleting an endpoint deletes its deliveries and its counts: nothing is counted for an endpoint no longer there.
CREATE FUNCTION "signalbox_count_deleted_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO endpoint_delivery_counts (workspace_id, webhook_endpoint_id, pending, total)
  SELECT d.workspace_id, d.webhook_endpoint_id, -count(*) FILTER (WHERE d.acknowledged_at IS NULL), -count(*)
  FROM deleted d
  WHERE EXISTS (SELECT FROM webhook_endpoints e WHERE e.workspace_id = d.workspace_id AND e.id = d.webhook_endpoint_id)
  GROUP BY d.workspace_id, d.webhook_endpoint_id;
  RETURN NULL;
END $$;

CREATE TRIGGER "webhook_deliveries_count_inserted"
  AFTER INSERT ON "webhook_deliveries" REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION "signalbox_count_inserted_deliveries"();
CREATE TRIGGER "webhook_deliveries_count_updated"
  AFTER UPDATE ON "webhook_deliveries" REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update
  FOR EACH STATEMENT EXECUTE FUNCTION "signalbox_count_updated_deliveries"();
CREATE TRIGGER "webhook_deliveries_count_deleted"
  AFTER DELETE ON "webhook_deliveries" REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION "signalbox_count_deleted_deliveries"();
